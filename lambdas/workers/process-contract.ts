// workers -> step `Process` of the contract pipeline: renders every page of the version (images and
// text) and records processing completed; or records it failed and throws `ProcessingFailed`, which the
// state machine retries 3 times with backoff (decisions.md §8). Its output is the rest of the plan.

import { putJson } from '../core/blobs';
import { artifacts } from '../core/contracts/artifacts';
import { changeContractReview } from '../core/contracts/change';
import { processingCompleted, processingFailed, processingTimeLimitMs } from '../core/contracts/pipeline';
import { CHANNELS_OF } from '../core/contracts/shape';
import { isDependencyUnavailable } from '../core/errors';
import { log } from '../core/log';
import type { FailureReason } from '../core/model';
import type { Ports } from '../core/ports';
import { pageProblems, RenderFailed } from '../core/rendered-contract';
import type { Services } from '../core/services';
import { RunInput, worker } from './worker';

export interface ProcessingPlan {
  /** False when a newer version was accepted meanwhile: its own run takes over. */
  current: boolean;
  viewer: boolean;
  analysis: boolean;
}

/** A failed attempt, already recorded on the contract review; the state's retrier decides what next. */
export class ProcessingFailed extends Error {
  constructor(
    readonly reason: FailureReason,
    message: string,
  ) {
    super(`${reason}: ${message}`);
    this.name = 'ProcessingFailed';
  }
}

export const processContract = worker(
  RunInput,
  async (
    run,
    { ports }: Services<Pick<Ports, 'blobs' | 'clock' | 'contractReviews' | 'ids' | 'renderer'>>,
    signal,
  ): Promise<ProcessingPlan> => {
    const id = run.contractReviewId;
    const review = await ports.contractReviews.get(id);
    if (review === null) throw new Error(`no contract review ${id}`);
    const plan = {
      current: review.version === run.version,
      viewer: CHANNELS_OF[review.product].includes('contract_viewer'),
      analysis: review.analysis !== null,
    };
    if (!plan.current || review.processing.state === 'completed') return plan;

    const version = await ports.contractReviews.getVersion(id, run.version);
    if (version === null) throw new Error(`no version ${run.version} of ${id}`);
    try {
      const contract = await ports.renderer.render({
        contractReviewId: id,
        version: run.version,
        pdfKey: version.blobKey,
        pdfSize: version.fileSize,
        outputPrefix: artifacts.pagesPrefix(id, run.version),
        deadline: Date.now() + processingTimeLimitMs(version.pageCount),
        signal,
      });
      await putJson(ports.blobs, artifacts.manifest(id, run.version), contract);
      const problems = pageProblems(contract);
      // Published all the same; the viewer says which pages are missing what (decisions in the README).
      if (problems.length > 0) log.warn('pages shown in part', { id, version: run.version, pages: problems });
    } catch (error) {
      // A dependency's fault (the PDF stopped coming from S3 part-way): not the file's. The state's
      // retrier tries again, and the contract is not shown failed meanwhile.
      if (!(error instanceof RenderFailed) || isDependencyUnavailable(error)) throw error;
      // Stopped by its host, not failed: the run stays recorded and is re-driven after the restart.
      if (signal?.aborted) throw new Error('processing stopped: the host is stopping', { cause: error });
      log.error('processing attempt failed', { id, version: run.version, reason: error.reason, error });
      await changeContractReview(ports, id, processingFailed(ports.ids, run.version, error.reason));
      throw new ProcessingFailed(error.reason, error.message);
    }
    const after = await changeContractReview(ports, id, processingCompleted(run.version));
    return { ...plan, current: after.version === run.version };
  },
);
