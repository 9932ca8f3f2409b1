// core -> the state changes of a version's pipeline ("States and transitions", decisions.md §8), each a
// pure step for `changeContractReview` with the events that announce it. Every step is bound to the
// version its run serves: once a newer version is accepted, an older run's steps change nothing. A step
// that finds its change already made returns null, so a repeated step (a retry, a re-drive after a
// restart) repeats no write and no event.
import { ActionRefused } from '../errors';
import { contractReviewEvent } from '../events';
import {
  CHANNELS,
  type Channel,
  type ContractReview,
  type FailureReason,
  type Micros,
  type Part,
  type Publication,
} from '../model';
import type { ContractRun, Ids } from '../ports';
import type { Change } from './change';

export type Step = (current: ContractReview, now: Micros) => Change | null;

const completed = (now: Micros): Part => ({
  state: 'completed',
  completedAt: now,
  failureReason: null,
  failedAt: null,
});

const withPublication = (
  review: ContractReview,
  channel: Channel,
  change: (publication: Publication) => Publication,
): ContractReview => ({
  ...review,
  publications: review.publications.map((p) => (p.channel === channel ? change(p) : p)),
});

export const publicationOf = (review: ContractReview, channel: Channel): Publication | undefined =>
  review.publications.find((p) => p.channel === channel);

/** The pages were read and stored. Not an event of its own: the publication that follows is. */
export const processingCompleted =
  (version: number): Step =>
  (current, now) => {
    if (current.version !== version || current.processing.state === 'completed') return null;
    return { review: { ...current, processing: completed(now) }, events: [] };
  };

/**
 * The pages could not be read. Only the move into `failed` is announced; a retry that fails again keeps
 * the state `failed` (with the latest reason and time) without a second event.
 */
export const processingFailed =
  (ids: Ids, version: number, reason: FailureReason): Step =>
  (current, now) => {
    const before = current.processing;
    if (current.version !== version || before.state === 'completed') return null;
    const review: ContractReview = {
      ...current,
      processing: { state: 'failed', completedAt: null, failureReason: reason, failedAt: now },
    };
    const events =
      before.state === 'failed'
        ? []
        : [contractReviewEvent(ids, 'contract-reviews.processing.failed', review, now)];
    return { review, events };
  };

/** A channel's pages are live at `url`; only a pending publication goes live (not a withdrawn one). */
export const publicationPublished =
  (ids: Ids, version: number, channel: Channel, url: string): Step =>
  (current, now) => {
    if (current.version !== version || publicationOf(current, channel)?.state !== 'pending') return null;
    const review = withPublication(current, channel, (p) => ({
      ...p,
      state: 'published',
      url,
      publishedAt: now,
    }));
    return {
      review,
      events: [
        contractReviewEvent(ids, 'contract-reviews.publication.published', review, now, { channel, url }),
      ],
    };
  };

export const analysisCompleted =
  (ids: Ids, version: number): Step =>
  (current, now) => {
    if (current.version !== version || current.analysis === null || current.analysis.state === 'completed')
      return null;
    const review = { ...current, analysis: completed(now) };
    return { review, events: [contractReviewEvent(ids, 'contract-reviews.analysis.completed', review, now)] };
  };

/** The analysis is done, so the lawyer's review is due. */
export const lawyerReviewRequested =
  (ids: Ids, version: number): Step =>
  (current, now) => {
    if (current.version !== version || current.lawyerReview?.state !== 'not_requested') return null;
    const review: ContractReview = {
      ...current,
      lawyerReview: { state: 'requested', requestedAt: now, completedAt: null },
    };
    return {
      review,
      events: [contractReviewEvent(ids, 'contract-reviews.lawyer_review.requested', review, now)],
    };
  };

/**
 * The version's contract run waits for the lawyer's review with `token`, kept on the record in the write
 * that finds the review still requested for this version. So the lawyer's publish, a write of the same
 * record, either finds the token (and resumes the run with it) or came first (and the run publishes
 * without waiting). Nothing to do for another version, a review no longer requested, or the token
 * kept already.
 */
export const lawyerReviewAwaited =
  (version: number, token: string): Step =>
  (current) => {
    const lawyer = current.lawyerReview;
    if (current.version !== version || lawyer?.state !== 'requested' || lawyer.waitToken === token)
      return null;
    return { review: { ...current, lawyerReview: { ...lawyer, waitToken: token } }, events: [] };
  };

/**
 * The lawyer published the review of the latest version. Refused unless a review is requested (none
 * for this product, not yet due, or done already): publishing twice would announce it twice. The
 * version's contract run, when it waits (the record holds its token), publishes the review channels
 * once resumed; when none waits (a version accepted before runs waited, or one whose wait ran out), a
 * review run recorded here publishes them.
 */
export const lawyerReviewCompleted =
  (ids: Ids): Step =>
  (current, now) => {
    const state = current.lawyerReview?.state;
    if (state !== 'requested') {
      throw new ActionRefused(
        state === undefined
          ? `${current.id} is a ${current.product} contract review, which no lawyer reviews.`
          : state === 'completed'
            ? `The review of version ${current.version} of ${current.id} is published already; a new version asks for a new one.`
            : `No review of ${current.id} is requested yet: its analysis of version ${current.version} has not completed.`,
      );
    }
    const review: ContractReview = {
      ...current,
      lawyerReview: {
        state: 'completed',
        requestedAt: current.lawyerReview?.requestedAt ?? null,
        completedAt: now,
      },
    };
    return {
      review,
      events: [contractReviewEvent(ids, 'contract-reviews.lawyer_review.completed', review, now)],
      runs:
        current.lawyerReview?.waitToken === undefined
          ? [
              {
                kind: 'review',
                environment: current.scope.environment,
                contractReviewId: current.id,
                version: current.version,
              },
            ]
          : [],
    };
  };

/** Takes a live publication down; its page answers 410 from then on. */
export const publicationWithdrawn =
  (ids: Ids, channel: Channel): Step =>
  (current, now) => {
    const publication = publicationOf(current, channel);
    if (publication === undefined)
      throw new ActionRefused(`${current.id} (${current.product}) does not publish to ${channel}.`);
    if (publication.state !== 'published' || publication.url === null)
      throw new ActionRefused(
        `The ${channel} publication of ${current.id} is ${publication.state}, not published.`,
      );
    const url = publication.url;
    const review = withPublication(current, channel, (p) => ({ ...p, state: 'withdrawn' }));
    return {
      review,
      events: [
        contractReviewEvent(ids, 'contract-reviews.publication.withdrawn', review, now, { channel, url }),
      ],
    };
  };

/** The channels the lawyer's publish makes live. */
export const REVIEW_CHANNELS: readonly Channel[] = ['review', 'review_snapshot'];

const failPending = (review: ContractReview, channels: readonly Channel[]): ContractReview => {
  let result = review;
  for (const { channel, state } of review.publications)
    if (state === 'pending' && channels.includes(channel))
      result = withPublication(result, channel, (p) => ({ ...p, state: 'failed' }));
  return result;
};

const underWay = (part: Part | null): part is Part => part?.state === 'pending' || part?.state === 'running';

/**
 * A run gave up after its retries, and no step of its version will run again: whatever it leaves
 * `pending` or `running` is marked failed rather than left so for ever. A contract run fails the
 * processing, the analysis, and every publication still
 * pending, except the review channels when the lawyer's review is due (the lawyer can still publish
 * them); when processing failed, `processing.failed` announces the final state (a receiver told of a
 * failed attempt learns the publications will not follow). A review run fails the review channels still
 * pending. Giving up again changes nothing.
 */
export const runGaveUp =
  (ids: Ids, run: Pick<ContractRun, 'kind' | 'version'>, reason: FailureReason): Step =>
  (current, now) => {
    if (current.version !== run.version) return null;
    let review = current;
    const processingFails = run.kind === 'contract' && underWay(review.processing);
    if (run.kind === 'contract') {
      if (processingFails)
        review = {
          ...review,
          processing: { state: 'failed', completedAt: null, failureReason: reason, failedAt: now },
        };
      if (underWay(review.analysis))
        review = {
          ...review,
          analysis: { state: 'failed', completedAt: null, failureReason: reason, failedAt: now },
        };
    }
    // A run that gave up waits no more: the lawyer's publish then records a review run instead.
    if (review.lawyerReview?.waitToken !== undefined) {
      const { waitToken: _over, ...lawyer } = review.lawyerReview;
      review = { ...review, lawyerReview: lawyer };
    }
    const lawyerMayPublish = review.lawyerReview?.state === 'requested';
    const channels =
      run.kind === 'review'
        ? REVIEW_CHANNELS
        : CHANNELS.filter((channel) => !(lawyerMayPublish && REVIEW_CHANNELS.includes(channel)));
    review = failPending(review, channels);
    if (review === current) return null;
    // Processing failed for good: announced (again, if a failed attempt was announced already) with the
    // review as this write leaves it, so a receiver learns the publications will not follow.
    const events =
      run.kind === 'contract' && review.processing.state === 'failed'
        ? [contractReviewEvent(ids, 'contract-reviews.processing.failed', review, now)]
        : [];
    return { review, events };
  };

/** Milliseconds a version's processing may take: a minute, and two seconds a page, within 14 minutes. */
export const processingTimeLimitMs = (pageCount: number): number =>
  Math.min(60_000 + 2_000 * Math.max(0, pageCount), 14 * 60_000);
