// workers -> the last state of every workflow: records the run finished (so no re-drive starts it
// again) and, when it gave up, marks what it was doing failed rather than leaving it under way.

import * as z from 'zod/mini';
import { changeContractReview } from '../core/contracts/change';
import { runGaveUp } from '../core/contracts/pipeline';
import { log } from '../core/log';
import type { FailureReason } from '../core/model';
import type { Ports } from '../core/ports';
import type { Services } from '../core/services';
import { RunInput, worker } from './worker';

const FinishInput = z.extend(RunInput, {
  outcome: z.enum(['completed', 'failed', 'superseded']),
  /** The error the state machine caught (`Error` and `Cause`), when it gave up. */
  error: z.optional(z.partial(z.object({ Error: z.string(), Cause: z.unknown() }))),
});

/** `timed_out` when the run's time ran out (the renderer's deadline or the state's timeout). */
const reasonOf = (error: z.infer<typeof FinishInput>['error']): FailureReason =>
  error?.Error === 'States.Timeout' || String(error?.Cause ?? '').includes('timed_out')
    ? 'timed_out'
    : 'processing_error';

export const finishRun = worker(
  FinishInput,
  async (
    input,
    { ports }: Services<Pick<Ports, 'clock' | 'contractReviews' | 'ids' | 'runs'>>,
  ): Promise<null> => {
    const { outcome, error, ...run } = input;
    if (outcome === 'failed') {
      log.error('run gave up', { run, error });
      await changeContractReview(ports, run.contractReviewId, runGaveUp(ports.ids, run, reasonOf(error)));
    }
    await ports.runs.finish(run, outcome);
    return null;
  },
);
