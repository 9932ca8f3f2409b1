// workers -> step `AwaitLawyerReview` (review products): the contract run waits for the lawyer's review
// of its version, with a task token (`lambda:invoke.waitForTaskToken`). This task keeps the token on
// the record, where the lawyer's publish finds it to resume the run (core/contracts/lawyer-actions.ts),
// and returns: the run then waits, for weeks if it must. When there is nothing to wait for, it ends
// the wait at once by failing with a name the state machine catches.

import { changeContractReview } from '../core/contracts/change';
import { lawyerReviewAwaited } from '../core/contracts/pipeline';
import { WorkflowError } from '../core/errors';
import { log } from '../core/log';
import { type Ports, SUPERSEDED } from '../core/ports';
import type { Services } from '../core/services';
import { TokenRunInput, worker } from './worker';

export const requestLawyerReview = worker(
  TokenRunInput,
  async (
    { taskToken, ...run },
    { ports }: Services<Pick<Ports, 'clock' | 'contractReviews'>>,
  ): Promise<null> => {
    const id = run.contractReviewId;
    const after = await changeContractReview(ports, id, lawyerReviewAwaited(run.version, taskToken));
    if (after.version !== run.version)
      throw new WorkflowError(SUPERSEDED, `version ${after.version} of ${id} was accepted meanwhile`);
    // Published before this run came to wait (or before a restart re-drove it): it publishes now, without
    // waiting. Publishing is idempotent, so a review run that publish recorded adds nothing twice.
    if (after.lawyerReview?.state === 'completed')
      throw new WorkflowError(
        'LawyerReviewPublished',
        `the review of ${id} version ${run.version} is published`,
      );
    if (after.lawyerReview?.state !== 'requested')
      throw new Error(`no review of ${id} version ${run.version} is requested`);
    log.info('waiting for the lawyer', { id, version: run.version });
    return null;
  },
);
