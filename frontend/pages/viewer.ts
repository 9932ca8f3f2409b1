// frontend/pages -> the hosted contract viewer as static files, made from a rendered contract: an
// index.html, its stylesheet, and the list of stored blobs (page images, thumbnails, the PDF) to place
// beside them. Pure: the publisher writes the result (publication.ts), the pages host or CloudFront
// serves it. Every path is relative to the publication's base (`/{slug}/`).
//
// The text layer: each page's text runs, in reading order, as transparent spans over the page image,
// placed by a class per run in the stylesheet (left/top in percent of the page, font size in `cqw` of
// the page width), so the browser's find, selection and screen readers all read real text.
import { createHash } from 'node:crypto';
import type {
  PageImage,
  RenderedContract,
  RenderedPage,
  TextRun,
} from '../../lambdas/core/rendered-contract';
import { cssNumber, escapeHtml, safeFileName } from './html';
import { documentHead } from './security';
import { textWidthEm } from './text-metrics';
import { VIEWER_BASE_CSS } from './viewer-style';

export interface ViewerInput {
  contract: RenderedContract;
  /** The page's heading, such as the contract's external reference (from a request; escaped here). */
  title: string;
  /** When this version went live (ISO 8601). */
  publishedAt: string;
  /** Blob key of the version's PDF, offered for download. */
  pdfKey: string;
}

/** A file made here, to store at `{base}/{path}`. */
export interface ViewerFile {
  path: string;
  contentType: string;
  body: string;
}

/** A stored blob to copy to `{base}/{path}`. */
export interface ViewerCopy {
  path: string;
  contentType: string;
  fromKey: string;
}

export interface ViewerOutput {
  /** `index.html` comes last: writing it is what makes a version live (see publication.ts). */
  files: ViewerFile[];
  /** Blobs the page refers to; they must be in place before `index.html` is written. */
  copies: ViewerCopy[];
}

/** The page at the publication's base path. */
export const INDEX_FILE = 'index.html';

const extensionOf = (image: PageImage): string => (image.contentType === 'image/png' ? 'png' : 'webp');

/** The publication time, shown in UTC, and its machine-readable form. */
const publicationTime = (iso: string): { text: string; datetime: string } => {
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) throw new Error(`publishedAt is not a date-time: ${iso}`);
  const text = new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(time);
  return { text: `${text} UTC`, datetime: time.toISOString() };
};

const runClass = (page: number, index: number): string => `t${page}-${index}`;

/**
 * One run's rule. The font size is the run's height as a fraction of the page height, turned into a
 * fraction of the page width (the container's `cqw`). The run is stretched from its width in the
 * layer's font (known metrics, so no script has to measure it) to the width the PDF gives it, so that
 * a selection covers the drawn words whatever font the PDF used.
 */
const runRule = (page: RenderedPage, run: TextRun, className: string): string => {
  const aspect = page.heightPoints / page.widthPoints;
  const fontOfWidth = run.height * aspect;
  const natural = textWidthEm(run.text) * fontOfWidth;
  const stretch = natural > 0 && run.width > 0 ? Math.min(3, Math.max(0.3, run.width / natural)) : 1;
  return (
    `.${className}{left:${cssNumber(run.x * 100)}%;top:${cssNumber(run.y * 100)}%;` +
    `font-size:${cssNumber(fontOfWidth * 100)}cqw;transform:scaleX(${cssNumber(stretch)})}`
  );
};

/** Runs worth a span: whitespace-only runs (line ends some PDFs emit) would only add empty boxes. */
const shownRuns = (page: RenderedPage): Array<{ run: TextRun; index: number }> =>
  page.text.map((run, index) => ({ run, index: index + 1 })).filter(({ run }) => run.text.trim() !== '');

const checkContract = (contract: RenderedContract): void => {
  if (contract.pages.length !== contract.pageCount)
    throw new Error(`pageCount ${contract.pageCount} but ${contract.pages.length} pages`);
  contract.pages.forEach((page, i) => {
    if (page.number !== i + 1) throw new Error(`page ${i + 1} is numbered ${page.number}`);
    if (!(page.widthPoints > 0 && page.heightPoints > 0)) throw new Error(`page ${page.number} has no size`);
  });
  if (!Number.isInteger(contract.version) || contract.version < 1)
    throw new Error(`version must be a positive integer: ${contract.version}`);
};

/** The contract viewer of one version. */
export const renderViewer = (input: ViewerInput): ViewerOutput => {
  const { contract } = input;
  checkContract(contract);
  const published = publicationTime(input.publishedAt);
  // Everything of a version lives under its own folder, so those paths never change content and can be
  // cached for good; only index.html, at the stable link, changes from version to version.
  const folder = `v${contract.version}`;
  const total = contract.pageCount;
  const copies: ViewerCopy[] = [];
  const pdfPath = `${folder}/contract.pdf`;
  copies.push({ path: pdfPath, contentType: 'application/pdf', fromKey: input.pdfKey });

  const css: string[] = [VIEWER_BASE_CSS];
  const thumbs: string[] = [];
  const sections: string[] = [];
  for (const page of contract.pages) {
    const n = page.number;
    const imagePath = `${folder}/page-${n}.${extensionOf(page.image)}`;
    const thumbPath = `${folder}/thumb-${n}.${extensionOf(page.thumbnail)}`;
    copies.push({ path: imagePath, contentType: page.image.contentType, fromKey: page.image.key });
    copies.push({ path: thumbPath, contentType: page.thumbnail.contentType, fromKey: page.thumbnail.key });

    thumbs.push(
      `<li><a href="#page-${n}"><img src="${escapeHtml(thumbPath)}" alt="" ` +
        `width="${page.thumbnail.width}" height="${page.thumbnail.height}" loading="lazy" decoding="async">` +
        `Page ${n}</a></li>`,
    );

    const runs = shownRuns(page);
    const spans = runs.map(({ run, index }) => {
      const className = runClass(n, index);
      css.push(runRule(page, run, className));
      return `<span class="${className}">${escapeHtml(run.text)}</span>`;
    });
    // The first page is what the reader sees at once; the rest load as they come near the screen.
    const loading = n === 1 ? 'loading="eager" fetchpriority="high"' : 'loading="lazy"';
    sections.push(
      [
        `<section class="page" id="page-${n}" aria-labelledby="page-${n}-title">`,
        `<h2 class="page-title" id="page-${n}-title">Page ${n}<span class="visually-hidden"> of ${total}</span></h2>`,
        '<div class="sheet">',
        `<img class="scan" src="${escapeHtml(imagePath)}" alt="Page ${n} of ${total}" ` +
          `width="${page.image.width}" height="${page.image.height}" ${loading} decoding="async">`,
        // A space between runs keeps words apart in find, copied text and speech.
        spans.length > 0
          ? `<div class="text-layer">${spans.join(' ')}</div>`
          : '<p class="visually-hidden">No text could be read from this page.</p>',
        '</div>',
        '</section>',
      ].join('\n'),
    );
  }

  const stylesheet = css.join('\n');
  const cssPath = `${folder}/viewer-${createHash('sha256').update(stylesheet).digest('hex').slice(0, 16)}.css`;
  const title = escapeHtml(input.title);
  const pages = `${total} ${total === 1 ? 'page' : 'pages'}`;
  const html = [
    ...documentHead(`${input.title} – contract`, [`<link rel="stylesheet" href="${escapeHtml(cssPath)}">`]),
    '<body>',
    '<a class="skip" href="#pages">Skip to the contract pages</a>',
    '<header class="top">',
    `<h1>${title}</h1>`,
    `<p class="meta">Version ${contract.version} · published ` +
      `<time datetime="${published.datetime}">${escapeHtml(published.text)}</time>` +
      ` · ${pages}</p>`,
    `<p class="actions"><a class="download" href="${escapeHtml(pdfPath)}" ` +
      `download="${escapeHtml(`${safeFileName(input.title, 'contract')}-v${contract.version}.pdf`)}" type="application/pdf">` +
      `Download the PDF</a></p>`,
    '</header>',
    '<div class="layout">',
    '<nav class="thumbs" aria-label="Pages">',
    `<ol>${thumbs.join('')}</ol>`,
    '</nav>',
    '<main class="pages" id="pages">',
    ...sections,
    '</main>',
    '</div>',
    '</body>',
    '</html>',
    '',
  ].join('\n');

  return {
    files: [
      { path: cssPath, contentType: 'text/css; charset=utf-8', body: stylesheet },
      { path: INDEX_FILE, contentType: 'text/html; charset=utf-8', body: html },
    ],
    copies,
  };
};
