// core -> the lawyer's and the operator's actions on a contract review, one function each for the
// operator tool and the back office: publish the lawyer's review, withdraw a publication. Both check the
// actor's role and the record's state before writing anything, so a refused action leaves nothing
// behind, and record their audit entry in the transaction of the change (decisions.md §11).
import { auditEntry } from '../back-office/audit';
import { type Actor, requireRole } from '../back-office/roles';
import { putText, readText } from '../blobs';
import { ActionRefused } from '../errors';
import { isContractReviewId } from '../ids';
import type { Channel, ContractReview } from '../model';
import type { Ports } from '../ports';
import { withdrawPublication } from '../publications';
import { isPrintableText } from '../text';
import { artifacts } from './artifacts';
import { changeContractReview } from './change';
import { lawyerReviewCompleted, publicationOf, publicationWithdrawn } from './pipeline';

/** A review longer than this is refused: it is a page of advice, not a book. */
export const MAX_REVIEW_BYTES = 256 * 1024;

const latest = async (
  ports: Pick<Ports, 'contractReviews' | 'environment'>,
  id: string,
): Promise<ContractReview> => {
  const review = isContractReviewId(id) ? await ports.contractReviews.get(id) : null;
  if (review === null)
    throw new ActionRefused(`no contract review ${id} in the ${ports.environment} environment`);
  return review;
};

const checkReviewText = (markdown: string): string => {
  const bytes = Buffer.byteLength(markdown, 'utf8');
  if (bytes > MAX_REVIEW_BYTES)
    throw new ActionRefused(`the review is ${bytes} bytes; at most ${MAX_REVIEW_BYTES} are accepted`);
  if (markdown.trim() === '') throw new ActionRefused('the review is empty');
  if (!isPrintableText(markdown.replace(/[\r\n\t]/g, ' '), MAX_REVIEW_BYTES))
    throw new ActionRefused('the review holds control characters; send plain UTF-8 Markdown');
  return markdown;
};

/**
 * The lawyer publishes the review of the latest version: `markdown`, or when none is given the analysis
 * as drafted for the lawyer. Records `lawyer_review` completed (with its event), then resumes the
 * version's contract run, which waits for this and publishes each review channel; with no run waiting,
 * the change records a review run that publishes them instead (`lawyerReviewCompleted`).
 */
export const publishLawyerReview = async (
  ports: Pick<Ports, 'blobs' | 'clock' | 'contractReviews' | 'environment' | 'ids' | 'workflows'>,
  actor: Actor,
  id: string,
  markdown: string | undefined,
): Promise<ContractReview> => {
  requireRole(actor, 'review.publish');
  const current = await latest(ports, id);
  // Checked first, so that nothing is stored for a review that will be refused.
  lawyerReviewCompleted(ports.ids)(current, ports.clock.now());
  const text = checkReviewText(
    markdown ?? (await readText(ports.blobs, artifacts.analysisMarkdown(id, current.version))),
  );
  // The text is stored before the record names it (a crash between leaves an unnamed blob, never a
  // published review without its text), under this attempt's own key: a racing publish that loses
  // cannot overwrite the winner's text, and deletes its own below.
  const version = current.version;
  const textKey = artifacts.reviewText(id, version, ports.ids.id('pub_'));
  await putText(ports.blobs, textKey, text, 'text/markdown; charset=utf-8');
  let waitToken: string | undefined;
  let published: ContractReview;
  try {
    published = await changeContractReview(ports, id, (review, now) => {
      // A version accepted meanwhile refuses this (no review requested for it), rather than publishing
      // the text against a contract the lawyer did not read.
      if (review.version !== version)
        throw new ActionRefused(`version ${review.version} of ${id} arrived meanwhile; review that one`);
      waitToken = review.lawyerReview?.waitToken;
      // Of two publishers racing, the second re-reads a completed review here and is refused: one
      // publish, one audit entry, one set of events.
      const change = lawyerReviewCompleted(ports.ids)(review, now);
      if (change === null) return null;
      const audit = auditEntry(ports, actor, ports.environment, 'review.published', id, {
        version,
        bytes: Buffer.byteLength(text, 'utf8'),
      });
      const completed = change.review.lawyerReview && {
        ...change.review.lawyerReview,
        textKey,
        ...(actor.kind === 'staff' && actor.name !== undefined && { reviewerName: actor.name }),
      };
      return { ...change, review: { ...change.review, lawyerReview: completed }, audit: [audit] };
    });
  } catch (refused) {
    // The refusal is the answer even if this delete fails (its text then stays unnamed and unread).
    await ports.blobs.delete(textKey).catch(() => undefined);
    throw refused;
  }
  if (waitToken !== undefined) await ports.workflows.completeWait(waitToken, {});
  else
    await ports.workflows.start({
      kind: 'review',
      environment: ports.environment,
      contractReviewId: id,
      version,
    });
  return published;
};

/** The longest withdrawal reason kept: a sentence or two for the audit log. */
export const MAX_WITHDRAWAL_REASON_CHARACTERS = 1000;

const checkReason = (reason: string | null): string | null => {
  if (reason === null) return null;
  const trimmed = reason.trim();
  if (trimmed === '') return null;
  if (!isPrintableText(trimmed.replace(/[\r\n\t]/g, ' '), MAX_WITHDRAWAL_REASON_CHARACTERS))
    throw new ActionRefused(
      `the reason must be plain text of at most ${MAX_WITHDRAWAL_REASON_CHARACTERS} characters`,
    );
  return trimmed;
};

/**
 * Takes a live publication down: its page answers 410, and `publication.withdrawn` is recorded, with
 * the audit entry (and its reason) in the same transaction.
 */
export const withdrawChannel = async (
  ports: Pick<Ports, 'blobs' | 'clock' | 'contractReviews' | 'environment' | 'ids'>,
  actor: Actor,
  id: string,
  channel: Channel,
  reason: string | null = null,
): Promise<ContractReview> => {
  requireRole(actor, 'publication.withdraw');
  const why = checkReason(reason);
  const current = await latest(ports, id);
  publicationWithdrawn(ports.ids, channel)(current, ports.clock.now());
  const slug = publicationOf(current, channel)?.slug as string;
  // The page goes first: a publication recorded withdrawn is never still being served.
  await withdrawPublication(ports.blobs, slug);
  return changeContractReview(ports, id, (review, now) => {
    const change = publicationWithdrawn(ports.ids, channel)(review, now);
    const audit = auditEntry(ports, actor, ports.environment, 'publication.withdrawn', id, {
      channel,
      reason: why,
    });
    return change && { ...change, audit: [audit] };
  });
};
