// pages -> the hosted page of the `review` channel (product legal_information): the lawyer's
// review, written in Markdown, beside the contract's pages exactly as the viewer shows them. Pure, and
// the same shape as the viewer's output, so `writeViewer` publishes it. The snapshot page
// (snapshot.ts) is this page made for one recipient.
import type { RenderedContract } from '../core/rendered-contract';
import { escapeHtml } from './html';
import { markdownToHtml } from './markdown';
import { REVIEW_CSS } from './review-style';
import { clausePage, textView } from './text-view';
import {
  checkContract,
  contractHeader,
  contractPages,
  contractPdf,
  pageOutput,
  problemsNotice,
  timeElement,
  type ViewerOutput,
} from './viewer';
import { VIEWER_BASE_CSS } from './viewer-style';

export interface ReviewPageInput {
  contract: RenderedContract;
  /** The page's heading, the contract's external reference (from a request; escaped here). */
  title: string;
  /** The organisation that sent the contract (escaped here); null when the environment has no name for it. */
  sender: string | null;
  /** When this version went live (ISO 8601). */
  publishedAt: string;
  /** Blob key of the version's PDF, offered for download. */
  pdfKey: string;
  /** The lawyer's review, in Markdown (operator supplied; see markdown.ts for what it may hold). */
  reviewMarkdown: string;
  /** When the lawyer completed the review (ISO 8601). */
  reviewedAt: string;
  /** The lawyer's name (escaped here); null when the one who published has none on record. */
  reviewerName: string | null;
}

/** What tells one page with a review from another. */
export interface ReviewedPageKind {
  /** The document's title after the page's title, as in `{title} – {titleSuffix}`. */
  titleSuffix: string;
  /** The review's heading (text). */
  heading: string;
  /** Markup for the header, after the version line. */
  headerExtra: string[];
}

/** A page holding a lawyer's review and, beside it or after it on a phone, the contract's pages. */
export const renderReviewedContract = (input: ReviewPageInput, kind: ReviewedPageKind): ViewerOutput => {
  const { contract } = input;
  checkContract(contract);
  if (input.reviewMarkdown.trim() === '') throw new Error('reviewMarkdown is empty');
  const reviewed = timeElement(input.reviewedAt, 'reviewedAt');
  const pdf = contractPdf(input);
  const pages = contractPages(contract);
  return pageOutput(contract, {
    name: 'review',
    title: `${input.title} – ${kind.titleSuffix}`,
    css: [VIEWER_BASE_CSS, REVIEW_CSS, ...pages.textRules],
    files: pages.fontFiles,
    copies: [pdf.copy, ...pages.copies],
    body: [
      '<a class="skip" href="#review">Skip to the review</a>',
      '<a class="skip" href="#pages">Skip to the contract pages</a>',
      ...contractHeader(input, pdf.download, [...kind.headerExtra, ...problemsNotice(contract)]),
      '<main class="reviewed">',
      // Focusable: on a wide screen the review scrolls within its column, which a keyboard must reach.
      '<section class="review" id="review" aria-labelledby="review-title" tabindex="0">',
      `<h2 class="review-title" id="review-title">${escapeHtml(kind.heading)}</h2>`,
      `<p class="review-meta">Reviewed by ${input.reviewerName === null ? 'a lawyer' : escapeHtml(input.reviewerName)} on ${reviewed}</p>`,
      '<div class="review-body">',
      // The page has h1 and the review's heading is h2: the review's own headings start at h3.
      markdownToHtml(input.reviewMarkdown, {
        topLevel: 3,
        references: (kind, n) => {
          const page = kind === 'page' ? n : clausePage(contract, n);
          return page !== undefined && page >= 1 && page <= contract.pageCount ? `#page-${page}` : undefined;
        },
      }).trimEnd(),
      '</div>',
      '</section>',
      ...pages.thumbnails,
      '<div class="pages" id="pages">',
      ...pages.sections,
      '</div>',
      ...textView(contract),
      '</main>',
    ],
  });
};

/** The review page of one version: the lawyer's review beside the contract. */
export const renderReviewPage = (input: ReviewPageInput): ViewerOutput =>
  renderReviewedContract(input, {
    titleSuffix: 'lawyer’s review',
    heading: 'Lawyer’s review',
    headerExtra: [],
  });
