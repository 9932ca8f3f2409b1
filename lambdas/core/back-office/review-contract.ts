// core -> what a lawyer reads on a review's page (decisions.md §11): the contract of one version (its
// pages' text and image sizes, its PDF) and the analysis drafted for the lawyer. The back office's pages
// may load nothing from another origin (CSP 'self'), so its backend serves the page images and the PDF
// from the blob store itself, each read only by staff who may read reviews; the hosted viewer's pages
// would need a publication the review may not have yet, and would show the buyer's view, not the lawyer's.
import { readJson, readText } from '../blobs';
import { artifacts } from '../contracts/artifacts';
import { notFound } from '../errors';
import { isContractReviewId } from '../ids';
import type { ContractReview } from '../model';
import type { Ports } from '../ports';
import { pageText, type RenderedContract } from '../rendered-contract';
import { contractChanges } from './contract-changes';
import { type Actor, requireRole } from './roles';

type ContractPorts = Pick<Ports, 'contractReviews' | 'blobs'>;

/** A review a lawyer may read, at `version` (the current one when not given): one that has a review. */
const reviewAt = async (ports: ContractPorts, actor: Actor, id: string, version?: number) => {
  requireRole(actor, 'review.read');
  const review: ContractReview | null = isContractReviewId(id) ? await ports.contractReviews.get(id) : null;
  if (review === null || review.lawyerReview === null) throw notFound('contract review');
  const at = version ?? review.version;
  if (!Number.isInteger(at) || at < 1 || at > review.version) throw notFound('contract version');
  return { review, version: at };
};

const renderedAt = async (ports: ContractPorts, id: string, version: number): Promise<RenderedContract> => {
  try {
    return await readJson<RenderedContract>(ports.blobs, artifacts.manifest(id, version));
  } catch {
    // Not rendered (processing failed or is under way): no pages to read.
    throw notFound('rendered contract');
  }
};

/** The contract's pages (text and size) at `version`, and the analysis drafted for the lawyer, if made. */
export const readReviewContract = async (
  ports: ContractPorts,
  actor: Actor,
  id: string,
  version?: number,
) => {
  const { review, version: at } = await reviewAt(ports, actor, id, version);
  const rendered = await renderedAt(ports, id, at);
  const analysis =
    at === review.version && review.analysis?.state !== 'completed'
      ? null
      : await readText(ports.blobs, artifacts.analysisMarkdown(id, at)).catch(() => null);
  return {
    id,
    version: at,
    current_version: review.version,
    pages: rendered.pages.map((page) => ({
      number: page.number,
      width: page.image.width,
      height: page.image.height,
      text: pageText(page),
    })),
    analysis_markdown: analysis,
  };
};

/**
 * What changed in the contract's text from version `since` to the current one, page by page
 * (`contractChanges`, capped: the pages past the cap are counted in `not_shown`): shown when a new version
 * arrives while a draft written on `since` is due.
 */
export const readContractChanges = async (ports: ContractPorts, actor: Actor, id: string, since: number) => {
  const { review, version: from } = await reviewAt(ports, actor, id, since);
  const [before, after] = await Promise.all([
    renderedAt(ports, id, from),
    renderedAt(ports, id, review.version),
  ]);
  return { id, since: from, version: review.version, ...contractChanges(before.pages, after.pages) };
};

/** The blob of page `number`'s image at `version`, and its type. */
export const reviewPageImage = async (
  ports: ContractPorts,
  actor: Actor,
  id: string,
  version: number,
  number: number,
) => {
  await reviewAt(ports, actor, id, version);
  const page = (await renderedAt(ports, id, version)).pages.find((candidate) => candidate.number === number);
  if (!page) throw notFound('page');
  return { key: page.image.key, contentType: page.image.contentType };
};

/** The blob of the PDF sent as `version`. */
export const reviewPdf = async (ports: ContractPorts, actor: Actor, id: string, version: number) => {
  await reviewAt(ports, actor, id, version);
  const stored = await ports.contractReviews.getVersion(id, version);
  if (!stored) throw notFound('contract version');
  return { key: stored.blobKey, fileName: `${id}-v${version}.pdf` };
};
