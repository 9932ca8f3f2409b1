// workers -> the acceptance workflow's last state when its task kept failing: records the run finished
// (failed), so the re-drive stops restarting it and runs that keep failing never crowd out newer ones.
// The sign-up stays submitted, for the operator to accept (`ops accept-onboarding`).

import * as z from 'zod/mini';
import { log } from '../core/log';
import type { Ports } from '../core/ports';
import type { Services } from '../core/services';
import { AcceptanceRunInput } from './accept-onboarding';
import { worker } from './worker';

const GiveUpInput = z.extend(AcceptanceRunInput, {
  /** The error the state machine caught (`Error` and `Cause`). */
  error: z.optional(z.partial(z.object({ Error: z.string(), Cause: z.unknown() }))),
});

export const giveUpAcceptance = worker(
  GiveUpInput,
  async (input, { ports }: Services<Pick<Ports, 'runs'>>): Promise<null> => {
    const { error, ...run } = input;
    log.error('acceptance run gave up: the sign-up waits for the operator', { run, error });
    await ports.runs.finish(run, 'failed');
    return null;
  },
);
