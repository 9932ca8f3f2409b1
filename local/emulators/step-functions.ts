// adapter -> the workflows port on the local stack: the state machine definitions CDK deploys
// (lib/workflows/*.asl.json), run in-process by aws-local-stepfunctions, each Task state calling its
// worker. Runs are recorded in DynamoDB before they start (in the transaction that makes them due); a
// start here only saves waiting, and `redrive` starts every recorded run that has not finished: at
// start-up (the runs a stop or a crash interrupted) and then every second (runs the operator tool
// recorded). Steps are idempotent, so a re-driven run repeats nothing that was done.
//
// aws-local-stepfunctions has no task tokens: `.waitForTaskToken` states are run here. A waiting state's
// token is made from its run's name and the state's (so a re-driven run waits on the same one): the
// state invokes its function with it (`lambda:invoke`) or sends it on a queue (`sqs:sendMessage`), then
// waits until the token's outcome is in the table (local/emulators/step-functions-waits.ts), which the workflows port's
// `completeWait` and `failWait` write.
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { type RunOptions, StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import type { DeliveryWaits } from '../../lambdas/adapters/queues/delivery-queue';
import { WorkflowError } from '../../lambdas/core/errors';
import { log } from '../../lambdas/core/log';
import type { Environment } from '../../lambdas/core/model';
import {
  type RunKind,
  type RunStore,
  runName,
  type WorkflowRun,
  type Workflows,
  type WorkQueue,
} from '../../lambdas/core/ports';
import { deliveryWaitInput } from '../../lambdas/core/webhooks/delivery-run';
import type { LocalWaits } from './step-functions-waits';

/** A Task state's function, by the placeholder its definition names it with (`${Name}`). */
export type LocalTask = (input: unknown, environment: Environment, signal: AbortSignal) => Promise<unknown>;

export interface LocalStepFunctionsOptions {
  /** The ASL file of each workflow. */
  definitionFiles: Readonly<Partial<Record<RunKind, string>>>;
  tasks: Readonly<Record<string, LocalTask>>;
  runs: Readonly<Record<Environment, RunStore>>;
  /** Where each environment's waits end (task tokens). */
  waits: Readonly<Record<Environment, LocalWaits>>;
  /** The queues `sqs:sendMessage.waitForTaskToken` states send to, by placeholder (`${RenderQueueUrl}`). */
  queues?: Readonly<Record<string, Readonly<Record<Environment, WorkQueue>>>>;
  /** DELAY_SCALE: retry intervals are divided by it. */
  delayScale: number;
  /** Milliseconds between looks for recorded runs not running here. */
  pollIntervalMs?: number;
  /** Milliseconds between looks for the end of a wait (a task token's outcome) settled by another process. */
  waitPollMs?: number;
  /** After an execution fails outright (its definition caught nothing), the pause before it is tried again. */
  restartPauseMs?: number;
  log?: (entry: Record<string, unknown>) => void;
}

const PLACEHOLDER = /^\$\{([A-Za-z0-9]+)\}$/;
/** A Task that invokes its function and waits for its task token (`Parameters.FunctionName` names it). */
const INVOKE_AND_WAIT = 'arn:aws:states:::lambda:invoke.waitForTaskToken';
/** A Task that sends a message with its task token and waits for it (`Parameters.QueueUrl` names the queue). */
const SEND_AND_WAIT = 'arn:aws:states:::sqs:sendMessage.waitForTaskToken';

/** What a Task state does: invoke its function, invoke it and wait, or send to a queue and wait. */
type StateCall =
  | { does: 'invoke' | 'invoke-and-wait'; task: LocalTask }
  | { does: 'send-and-wait'; queue: Readonly<Record<Environment, WorkQueue>> };

/** `value` with every string equal to `from` replaced by `to` (a token inside a state's parameters). */
const replaced = (value: unknown, from: string, to: string): unknown => {
  if (value === from) return to;
  if (Array.isArray(value)) return value.map((item) => replaced(item, from, to));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaced(item, from, to)]));
  return value;
};
/** setTimeout's longest delay in whole seconds: aws-local-stepfunctions times a Task out with one. */
const MAX_TIMEOUT_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

interface Loaded {
  machine: StateMachine;
  /** Task state name -> what it does. */
  handlers: Record<string, StateCall>;
  /** Task state name -> each retrier's first interval, scaled (aws-local-stepfunctions takes one per retrier). */
  retryIntervals: Record<string, number[]>;
}

export class LocalStepFunctions {
  private readonly machines = new Map<RunKind, Loaded>();
  private readonly running = new Map<string, { abort: () => void; done: Promise<void> }>();
  /** Task calls under way: a stop waits for them, so that none writes after the stores are gone. */
  private readonly tasksUnderWay = new Set<Promise<unknown>>();
  /** Runs whose execution failed outright, and when they may be tried again. */
  private readonly pausedUntil = new Map<string, number>();
  private poller: NodeJS.Timeout | undefined;
  private redriving: Promise<void> | undefined;
  private stopped = false;

  private constructor(private readonly options: LocalStepFunctionsOptions) {}

  static async load(options: LocalStepFunctionsOptions): Promise<LocalStepFunctions> {
    const runner = new LocalStepFunctions(options);
    for (const [kind, file] of Object.entries(options.definitionFiles) as Array<[RunKind, string]>) {
      const text = await readFile(file, 'utf8');
      runner.machines.set(kind, runner.loadDefinition(kind, JSON.parse(text) as StateMachineDefinition));
    }
    return runner;
  }

  /** The starts of the workflows port of one environment (its waits end through `LocalWaits`). */
  workflows(environment: Environment): Pick<Workflows, 'start'> {
    return {
      start: async (run) => {
        if (run.environment !== environment)
          throw new Error(`a ${run.environment} run started in ${environment}`);
        this.start(run);
      },
    };
  }

  /** The waits of one environment's deliveries past the delivery queue's reach (the `delivery` workflow). */
  deliveryWaits(environment: Environment): DeliveryWaits {
    return {
      start: async (delivery) => {
        const { run, dueAt } = delivery;
        if (run.environment !== environment)
          throw new Error(`a ${run.environment} delivery waits in ${environment}`);
        this.execute('delivery', `${runName(run)}/w${dueAt}`, environment, deliveryWaitInput(delivery));
      },
    };
  }

  /**
   * Starts every recorded, unfinished run that is not running here; then keeps looking every interval.
   * (Delivery runs are the delivery queue's, re-driven beside it: local/delivery-sweep.ts.)
   */
  async redrive(): Promise<void> {
    this.redriving ??= (async () => {
      for (const environment of Object.keys(this.options.runs) as Environment[]) {
        for await (const runs of this.options.runs[environment].eachUnfinished(100))
          for (const run of runs) this.start(run);
      }
    })().finally(() => {
      this.redriving = undefined;
    });
    return this.redriving;
  }

  startPolling(): void {
    const interval = this.options.pollIntervalMs ?? 1000;
    const tick = () => {
      this.poller = setTimeout(() => {
        this.redrive()
          .catch((error) => this.log({ message: 'run re-drive failed; trying again', error: String(error) }))
          .finally(() => {
            if (!this.stopped) tick();
          });
      }, interval);
      this.poller.unref();
    };
    tick();
  }

  /** Stops looking for runs and aborts the executions under way; their records keep them for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.poller);
    await this.redriving?.catch(() => undefined);
    const under = [...this.running.values()];
    for (const execution of under) execution.abort();
    await Promise.all(under.map((execution) => execution.done));
    await Promise.allSettled([...this.tasksUnderWay]);
  }

  /** How many executions are under way (for tests and the ready line). */
  get runningCount(): number {
    return this.running.size;
  }

  private start(run: WorkflowRun): void {
    this.execute(run.kind, runName(run), run.environment, run);
  }

  /** Starts an execution of `kind`'s workflow on `input` unless one under `key` is running or paused. */
  private execute(kind: RunKind, key: string, environment: Environment, input: object): void {
    if (this.stopped || this.running.has(key) || (this.pausedUntil.get(key) ?? 0) > Date.now()) return;
    const loaded = this.machines.get(kind);
    if (loaded === undefined) throw new Error(`no workflow for ${kind} runs`);
    const stopping = new AbortController();
    // The execution's token in its context; each waiting state waits on one of its own, made from it.
    const token = `local-wait/${key}`;
    type Handlers = NonNullable<NonNullable<RunOptions['overrides']>['taskResourceLocalHandlers']>;
    const tracked = <T>(call: Promise<T>): Promise<T> => {
      this.tasksUnderWay.add(call);
      void call.then(
        () => this.tasksUnderWay.delete(call),
        () => this.tasksUnderWay.delete(call),
      );
      return call;
    };
    const handle = async (state: string, call: StateCall, input: unknown) => {
      // Workers answer JSON (their outputs are state data), which is what the runner passes on.
      if (call.does === 'invoke')
        return (await tracked(call.task(input, environment, stopping.signal))) as Awaited<
          ReturnType<Handlers[string]>
        >;
      const stateToken = `${token}/${state}`;
      // A waiting state's input is its Parameters, with the execution's token where it names it.
      const parameters = replaced(input, token, stateToken) as {
        Payload?: unknown;
        MessageBody?: unknown;
      };
      if (call.does === 'send-and-wait')
        await tracked(call.queue[environment].send([{ body: JSON.stringify(parameters.MessageBody) }]));
      else await tracked(call.task(parameters.Payload, environment, stopping.signal));
      return (await this.waitFor(environment, stateToken, stopping.signal)) as Awaited<
        ReturnType<Handlers[string]>
      >;
    };
    const environmentHandlers: Handlers = Object.fromEntries(
      Object.entries(loaded.handlers).map(([state, call]) => [
        state,
        (input: unknown) => this.logged(key, state, () => handle(state, call, input)),
      ]),
    );
    const execution = loaded.machine.run(input as Record<string, string | number>, {
      noThrowOnAbort: true,
      context: { Task: { Token: token } },
      overrides: {
        taskResourceLocalHandlers: environmentHandlers,
        retryIntervalOverrides: loaded.retryIntervals,
      },
    });
    this.log({ message: 'run started', run: key });
    const done = execution.result.then(
      () => {
        this.pausedUntil.delete(key);
        this.log({ message: 'run ended', run: key });
      },
      (error: unknown) => {
        // Only a fault the definition does not catch gets here (its final state could not record the run):
        // the run stays recorded, and the re-drive tries it again after a pause.
        const pause = (this.options.restartPauseMs ?? 30_000) / this.options.delayScale;
        this.pausedUntil.set(key, Date.now() + pause);
        this.log({ message: 'run failed; it will be re-driven', run: key, error: String(error) });
      },
    );
    this.running.set(key, {
      abort: () => {
        stopping.abort();
        execution.abort();
      },
      done: done.finally(() => this.running.delete(key)),
    });
  }

  /** The end of the wait of `token`: the Task's output, or its failure, thrown under its error's name. */
  private async waitFor(environment: Environment, token: string, signal: AbortSignal): Promise<object> {
    const waits = this.options.waits[environment];
    for (;;) {
      const looked = new AbortController();
      try {
        const settled = waits.settledHere(token, looked.signal);
        const outcome = await waits.take(token);
        if (outcome?.succeeded) return outcome.output;
        // The definition retries or catches it by name, as Step Functions does with SendTaskFailure's error.
        if (outcome) throw new WorkflowError(outcome.error, outcome.cause);
        // Woken by a settle in this process at once; one by another process is seen at the next look.
        await Promise.race([
          settled,
          sleep(this.options.waitPollMs ?? 500, undefined, {
            signal: AbortSignal.any([signal, looked.signal]),
          }),
        ]);
        signal.throwIfAborted();
      } finally {
        looked.abort();
      }
    }
  }

  private loadDefinition(kind: RunKind, definition: StateMachineDefinition): Loaded {
    const handlers: Loaded['handlers'] = {};
    const retryIntervals: Loaded['retryIntervals'] = {};
    for (const [name, state] of Object.entries(definition.States)) {
      if (state.Type !== 'Task') continue;
      const parameters = (state.Parameters ?? {}) as { FunctionName?: string; QueueUrl?: string };
      const does =
        state.Resource === INVOKE_AND_WAIT
          ? 'invoke-and-wait'
          : state.Resource === SEND_AND_WAIT
            ? 'send-and-wait'
            : 'invoke';
      const named =
        does === 'invoke'
          ? state.Resource
          : ((does === 'send-and-wait' ? parameters.QueueUrl : parameters.FunctionName) ?? '');
      const placeholder = PLACEHOLDER.exec(named)?.[1] ?? '';
      if (does === 'send-and-wait') {
        const queue = this.options.queues?.[placeholder];
        if (queue === undefined)
          throw new Error(`${kind} workflow: state ${name} names no known queue (${named})`);
        parameters.QueueUrl = `https://sqs.local/000000000000/${placeholder}`;
        handlers[name] = { does, queue };
      } else {
        const task = this.options.tasks[placeholder];
        if (task === undefined)
          throw new Error(`${kind} workflow: state ${name} names no known task (${named})`);
        // A well-formed ARN in place of the placeholder, as CDK's substitution puts the function's.
        const arn = `arn:aws:lambda:us-east-1:000000000000:function:local-${placeholder}`;
        if (does === 'invoke') state.Resource = arn;
        else parameters.FunctionName = arn;
        handlers[name] = { does, task };
      }
      // A wait for a person (weeks) is scaled like every delay; a wait for work (a render) is a time limit
      // in real time, as every Task's is. Either within what one timer can time.
      if (does !== 'invoke' && state.TimeoutSeconds !== undefined) {
        const scale = does === 'invoke-and-wait' ? this.options.delayScale : 1;
        state.TimeoutSeconds = Math.max(
          1,
          Math.min(Math.round(state.TimeoutSeconds / scale), MAX_TIMEOUT_SECONDS),
        );
      }
      retryIntervals[name] = (state.Retry ?? []).map(
        (retrier) => ((retrier.IntervalSeconds ?? 1) * 1000) / this.options.delayScale,
      );
    }
    return { machine: new StateMachine(definition), handlers, retryIntervals };
  }

  /** One line per step of a run, as the stack's log shows a pipeline: what ran, how long, and how it ended. */
  private async logged<T>(run: string, step: string, work: () => Promise<T>): Promise<T> {
    const started = Date.now();
    try {
      const output = await work();
      this.log({ message: 'step done', run, step, duration_ms: Date.now() - started });
      return output;
    } catch (error) {
      this.log({
        message: 'step failed',
        run,
        step,
        duration_ms: Date.now() - started,
        error: String(error),
      });
      throw error;
    }
  }

  private log(entry: Record<string, unknown>): void {
    if (this.options.log) this.options.log(entry);
    else {
      const { message, ...fields } = entry;
      log.info(String(message), fields);
    }
  }
}
