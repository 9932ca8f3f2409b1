// workers -> the delivery wait workflow's last state when its hand-back kept failing (the delivery queue
// or Step Functions unreachable for minutes): says so at ERROR, which the stage's error-lines alarm
// counts (lib/operations.ts), before the execution fails under its own name. It writes nothing: the
// message stays pending with its attempt due, the record the scheduled re-drive reads, and the re-drive
// hands it on once overdue (workers/redrive-runs.ts). Marking it failed would give up on a receiver that
// never failed; the re-drive pages through every pending message, so none that keeps failing here can
// crowd out another.

import * as z from 'zod/mini';
import { log } from '../core/log';
import { runName } from '../core/ports';
import { DeliveryWaitInput } from './hand-back-delivery';
import { worker } from './worker';

const GiveUpInput = z.extend(DeliveryWaitInput, {
  /** The error the state machine caught (`Error` and `Cause`). */
  error: z.optional(z.partial(z.object({ Error: z.string(), Cause: z.unknown() }))),
});

export const giveUpDeliveryWait = worker(GiveUpInput, async (input): Promise<null> => {
  const { error, dueAt, ...run } = input;
  log.error('webhook delivery wait gave up: the re-drive hands the delivery on', {
    run: runName(run),
    messageId: run.messageId,
    dueAt,
    error,
  });
  return null;
});
