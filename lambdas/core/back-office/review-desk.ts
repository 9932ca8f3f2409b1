// core -> the lawyers' side of the back office (decisions.md §11): the queue of reviews due in one
// environment, oldest request first; `Assign to me`; and the review's draft, kept with the review and
// seen by every lawyer, saved only over the revision it was based on (a stale save is refused, so two
// lawyers never silently overwrite each other). Publishing is `publishLawyerReview`, as `ops` runs it.
import { readText } from '../blobs';
import { artifacts } from '../contracts/artifacts';
import { MAX_REVIEW_BYTES } from '../contracts/lawyer-actions';
import { fail, notFound } from '../errors';
import { isContractReviewId } from '../ids';
import { startingAfterInvalid } from '../lists';
import type { ContractReview } from '../model';
import type { Ports } from '../ports';
import type { ReviewDesk } from '../ports/back-office';
import { isPrintableText } from '../text';
import { formatTime, formatTimeOrNull } from '../time';
import { auditEntry } from './audit';
import { type Actor, actorName, requireRole } from './roles';

type DeskPorts = Pick<Ports, 'environment' | 'backOffice' | 'contractReviews' | 'clock' | 'ids'>;

export const MAX_QUEUE_LIMIT = 100;

const emptyDesk = (contractReviewId: string): ReviewDesk => ({
  contractReviewId,
  assignee: null,
  assignedAt: null,
  draft: null,
  draftRevision: 0,
  draftVersion: null,
  draftSavedBy: null,
  draftSavedAt: null,
});

export const presentQueueItem = (review: ContractReview, desk: ReviewDesk | null) => ({
  id: review.id,
  external_reference: review.externalReference,
  product: review.product,
  organisation_id: review.scope.organisationId,
  integration_id: review.scope.integrationId,
  version: review.version,
  requested_at: formatTimeOrNull(review.lawyerReview?.requestedAt ?? null),
  assignee: desk?.assignee ?? null,
});

/**
 * One page of the review queue, `{ data, has_more }`: every current version whose `lawyer_review` is
 * `requested`, oldest request first, each with who (if anyone) is on it.
 */
export const listReviewQueue = async (
  ports: DeskPorts,
  actor: Actor,
  options: { limit?: number; startingAfter?: string } = {},
) => {
  requireRole(actor, 'review.read');
  const limit = options.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_QUEUE_LIMIT)
    fail('limit_invalid', `\`limit\` must be an integer from 1 to ${MAX_QUEUE_LIMIT}.`);
  let after: ContractReview | undefined;
  if (options.startingAfter !== undefined) {
    const review = isContractReviewId(options.startingAfter)
      ? await ports.contractReviews.get(options.startingAfter)
      : null;
    // Only a review still in the queue has a place in it.
    if (review?.lawyerReview?.state !== 'requested') startingAfterInvalid();
    after = review ?? undefined;
  }
  const page = await ports.backOffice.desk.queue({ limit, after });
  const desks = new Map(
    (await ports.backOffice.desk.getMany(page.items.map((r) => r.id))).map((d) => [d.contractReviewId, d]),
  );
  return {
    data: page.items.map((review) => presentQueueItem(review, desks.get(review.id) ?? null)),
    has_more: page.hasMore,
  };
};

/**
 * Reviews counted at most, per summary: the count is a Query over the queue's index (no count is kept
 * beside it: every request and publish would then write one shared item in its transaction), so each
 * summary's work is bounded by this, and a longer queue is said as "more than" it.
 */
export const MAX_QUEUE_COUNT = 1_000;

/**
 * What the Reviews page says of the whole queue, whichever rows it shows: how many are due (`complete`
 * false when more than `countUpTo`) and the newest request, which is the queue's last row, so a lawyer
 * with the first page open still sees a review arrive.
 */
export const reviewQueueSummary = async (
  ports: DeskPorts,
  actor: Actor,
  countUpTo: number = MAX_QUEUE_COUNT,
) => {
  requireRole(actor, 'review.read');
  const summary = await ports.backOffice.desk.summary(countUpTo);
  const newest = summary.newest && (await ports.backOffice.desk.get(summary.newest.id));
  return {
    due: summary.count,
    due_counted_all: summary.complete,
    newest: summary.newest && presentQueueItem(summary.newest, newest),
  };
};

const reviewOf = async (ports: DeskPorts, id: string): Promise<ContractReview> => {
  const review = isContractReviewId(id) ? await ports.contractReviews.get(id) : null;
  if (review === null || review.lawyerReview === null) throw notFound('contract review');
  return review;
};

/** `Assign to me`: the staff member is the one working on the review (replacing whoever was). */
export const assignReview = async (ports: DeskPorts, actor: Actor, id: string) => {
  requireRole(actor, 'review.assign');
  const review = await reviewOf(ports, id);
  const assignee = actorName(actor);
  const at = ports.clock.now();
  const before = await ports.backOffice.desk.get(id);
  await ports.backOffice.desk.assign(
    id,
    assignee,
    at,
    auditEntry(ports, actor, ports.environment, 'review.assigned', id, {
      version: review.version,
      assignee_before: before?.assignee ?? null,
    }),
  );
  return { id, assignee, assigned_at: formatTime(at) };
};

export const presentDraft = (desk: ReviewDesk, text: string, review: ContractReview) => ({
  id: review.id,
  version: review.version,
  lawyer_review: review.lawyerReview?.state ?? null,
  text,
  /** What the next save names as `based_on_revision`. */
  revision: desk.draftRevision,
  /** Null until someone saves a draft: `text` is then the analysis as drafted for the lawyer. */
  saved_by: desk.draftSavedBy,
  saved_at: formatTimeOrNull(desk.draftSavedAt),
  draft_version: desk.draftVersion,
  assignee: desk.assignee,
});

/** The review's draft: the one saved, or the analysis as drafted for the lawyer until someone saves one. */
export const getReviewDraft = async (ports: DeskPorts & Pick<Ports, 'blobs'>, actor: Actor, id: string) => {
  requireRole(actor, 'review.read');
  const review = await reviewOf(ports, id);
  const desk = (await ports.backOffice.desk.get(id)) ?? emptyDesk(id);
  const text =
    desk.draft ??
    (review.analysis?.state === 'completed'
      ? await readText(ports.blobs, artifacts.analysisMarkdown(id, review.version))
      : '');
  return presentDraft(desk, text, review);
};

const checkDraft = (text: string): string => {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_REVIEW_BYTES)
    fail('request_invalid', `The review is ${bytes} bytes; at most ${MAX_REVIEW_BYTES} are accepted.`);
  if (!isPrintableText(text.replace(/[\r\n\t]/g, ' '), MAX_REVIEW_BYTES))
    fail('request_invalid', 'The review holds control characters; write plain UTF-8 Markdown.');
  return text;
};

/**
 * `Save draft`: keeps `text` as the review's draft if the draft is still at `basedOnRevision` (the
 * revision the page read); a save over a newer one is refused with 409 `draft_conflict` and writes
 * nothing, so the other lawyer's text and this one (still on the page) are both kept.
 */
export const saveReviewDraft = async (
  ports: DeskPorts,
  actor: Actor,
  id: string,
  text: string,
  basedOnRevision: number,
) => {
  requireRole(actor, 'review.save_draft');
  if (!Number.isInteger(basedOnRevision) || basedOnRevision < 0)
    fail('request_invalid', '`based_on_revision` must be the revision the draft was read at (0 for none).');
  const draft = checkDraft(text);
  const review = await reviewOf(ports, id);
  if (review.lawyerReview?.state !== 'requested')
    fail('request_invalid', `No review of ${id} is due: it was published, or none was requested.`);
  const now = ports.clock.now();
  const by = actorName(actor);
  const stored = (await ports.backOffice.desk.get(id)) ?? emptyDesk(id);
  const desk: ReviewDesk = {
    ...stored,
    draft,
    draftRevision: basedOnRevision + 1,
    // The version the draft was started on, kept across later saves: the review page shows what changed
    // in the contract since then.
    draftVersion: stored.draft === null ? review.version : (stored.draftVersion ?? review.version),
    draftSavedBy: by,
    draftSavedAt: now,
  };
  await ports.backOffice.desk.saveDraft(
    desk,
    basedOnRevision,
    auditEntry(ports, actor, ports.environment, 'review.draft_saved', id, {
      version: review.version,
      revision: desk.draftRevision,
      bytes: Buffer.byteLength(draft, 'utf8'),
    }),
  );
  return presentDraft(desk, draft, review);
};
