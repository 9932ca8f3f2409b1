// workers -> the review workflow's one step: the lawyer published, so each review channel of the
// product goes live: `review` (the review beside the contract) or `review_snapshot` (one page for the
// recipient, frozen at publication).

import { readJson, readText } from '../core/blobs';
import { artifacts } from '../core/contracts/artifacts';
import type { Ports, RunOutcome } from '../core/ports';
import { documentTitle, type RenderedContract } from '../core/rendered-contract';
import type { Services } from '../core/services';
import { renderReviewPage } from '../pages/review';
import { renderSnapshotPage } from '../pages/snapshot';
import { pageTime, publishChannel } from './publication-pages';
import { RunInput, worker } from './worker';

export const publishReview = worker(
  RunInput,
  async (
    run,
    services: Services<Pick<Ports, 'blobs' | 'clock' | 'contractReviews' | 'ids' | 'organisationNames'>>,
  ): Promise<{ outcome: RunOutcome }> => {
    const { ports } = services;
    const id = run.contractReviewId;
    const review = await ports.contractReviews.get(id);
    if (review === null || review.version !== run.version) return { outcome: 'superseded' };
    const completedAt = review.lawyerReview?.completedAt;
    if (review.lawyerReview?.state !== 'completed' || completedAt == null)
      throw new Error(`the review of ${id} version ${run.version} is not completed`);
    const version = await ports.contractReviews.getVersion(id, run.version);
    if (version === null) throw new Error(`no version ${run.version} of ${id}`);
    const contract = await readJson<RenderedContract>(ports.blobs, artifacts.manifest(id, run.version));
    const reviewMarkdown = await readText(
      ports.blobs,
      review.lawyerReview.textKey ?? artifacts.review(id, run.version),
    );
    const page = {
      contract,
      title: documentTitle(contract),
      sender: await ports.organisationNames.get(review.scope.organisationId),
      publishedAt: pageTime(services),
      pdfKey: version.blobKey,
      reviewMarkdown,
      reviewedAt: new Date(completedAt / 1000).toISOString(),
      reviewerName: review.lawyerReview.reviewerName ?? null,
    };
    await publishChannel(services, review, 'review', () => renderReviewPage(page));
    const recipient = review.recipient;
    if (recipient !== null)
      await publishChannel(services, review, 'review_snapshot', () =>
        renderSnapshotPage({ ...page, recipient }),
      );
    return { outcome: 'completed' };
  },
);
