// workers -> a worker is one task of a workflow: a function from the state's input and the
// environment's services to the state's output. `worker()` wraps it once for both hosts: the local
// workflow runner calls `perform` in-process, and the Lambda Step Functions invokes calls it with its
// services.
import * as z from 'zod/mini';
import { DependencyUnavailable, isDependencyUnavailable } from '../core/errors';
import { withLogKeys } from '../core/log';
import { ENVIRONMENTS } from '../core/model';
import { type Ports, type RunRequest, runName } from '../core/ports';
import type { Services } from '../core/services';

/** The input of a contract or review run's task. */
export const RunInput = z.object({
  kind: z.enum(['contract', 'review']),
  environment: z.enum(ENVIRONMENTS),
  contractReviewId: z.string().check(z.regex(/^crv_[A-Za-z0-9]+$/)),
  version: z.int().check(z.gte(1)),
});

/** The input of a Task that waits for its task token (`.waitForTaskToken`): the run, and the token. */
export const TokenRunInput = z.extend(RunInput, { taskToken: z.string().check(z.minLength(1)) });

/** `signal`: the host is stopping (the local stack); a worker stops soon and records nothing more. */
export type WorkerFunction<I, O, P> = (input: I, services: Services<P>, signal?: AbortSignal) => Promise<O>;

/** A task over the ports `P` it calls; by default, any (a property, so that `P` is checked strictly). */
export interface Worker<O, P = Ports> {
  /** Runs the task on a state's input; a Lambda's host or the local workflow runner passes the services. */
  perform: (input: unknown, services: Services<P>, signal?: AbortSignal) => Promise<O>;
}

/** The run a state's input names, checked against the environment whose services run it. */
const readInput = <I extends RunRequest>(
  schema: z.ZodMiniType<I>,
  input: unknown,
  services: Services<unknown>,
): I => {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new Error(`not a run of this workflow: ${z.prettifyError(parsed.error)}`);
  if (parsed.data.environment !== services.settings.environment)
    throw new Error(`a ${parsed.data.environment} run reached the ${services.settings.environment} services`);
  return parsed.data;
};

export const worker = <I extends RunRequest, O, P>(
  schema: z.ZodMiniType<I>,
  fn: WorkerFunction<I, O, P>,
): Worker<O, P> => {
  const perform = async (input: unknown, services: Services<P>, signal?: AbortSignal): Promise<O> => {
    try {
      const request = readInput(schema, input, services);
      // Every line logged by the task names its run and environment.
      const keys = { run: runName(request), environment: request.environment };
      return await withLogKeys(keys, () => fn(request, services, signal));
    } catch (error) {
      // A dependency's fault anywhere in the chain: the state's retrier tries again after a pause.
      throw isDependencyUnavailable(error) && !(error instanceof DependencyUnavailable)
        ? new DependencyUnavailable(error)
        : error;
    }
  };
  return { perform };
};
