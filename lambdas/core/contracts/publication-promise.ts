// core/contracts -> the promise a contract is read and its viewer live "usually within 20 minutes"
// (interface.md): which recorded contract runs have broken it, for the scheduled check that alarms on
// them (workers/redrive-runs.ts, lib/operations.ts). Only the contract viewer is promised so: the review
// channels wait for a lawyer, hours or days. A run whose viewer failed is left to the alarms on failures.
import type { Micros } from '../model';
import type { ContractReviewStore, ContractRun, WorkflowRun } from '../ports';
import { MINUTE } from '../time';

export const PUBLICATION_PROMISE: Micros = 20 * MINUTE;

/** The line of every scheduled check saying how many contract runs broke it (`late`, 0 included). */
export const PUBLICATION_CHECK_LINE = 'contract publications checked';

/**
 * The contract runs among `runs` whose version is still the review's, accepted more than
 * `PUBLICATION_PROMISE` before `now`, with its contract viewer still pending.
 */
export const brokenPublicationPromises = async (
  reviews: Pick<ContractReviewStore, 'get' | 'getVersion'>,
  runs: readonly WorkflowRun[],
  now: Micros,
): Promise<ContractRun[]> => {
  const contractRuns = runs.filter((run): run is ContractRun => run.kind === 'contract');
  const late = await Promise.all(
    contractRuns.map(async (run) => {
      const review = await reviews.get(run.contractReviewId);
      // Superseded by a newer version (whose own run carries the promise) or gone.
      if (review === null || review.version !== run.version) return false;
      const viewer = review.publications.find((publication) => publication.channel === 'contract_viewer');
      if (viewer?.state !== 'pending') return false;
      const version = await reviews.getVersion(run.contractReviewId, run.version);
      return version !== null && now - version.createdAt > PUBLICATION_PROMISE;
    }),
  );
  return contractRuns.filter((_, index) => late[index]);
};
