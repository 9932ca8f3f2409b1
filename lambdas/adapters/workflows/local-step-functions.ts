// adapter -> the workflows port on the local stack: the state machine definitions CDK deploys
// (lib/workflows/*.asl.json), run in-process by aws-local-stepfunctions, each Task state calling its
// worker. Runs are recorded in DynamoDB before they start (in the transaction that makes them due); a
// start here only saves waiting, and `redrive` starts every recorded run that has not finished: at
// start-up (the runs a stop or a crash interrupted) and then every second (runs the operator tool
// recorded). Steps are idempotent, so a re-driven run repeats nothing that was done.
//
// aws-local-stepfunctions has no task tokens: a `lambda:invoke.waitForTaskToken` state is run here. Each
// execution's context carries a token made from its run's name (so a re-driven run waits on the same
// one); the state calls its function, then waits until the token's outcome is in the table
// (local-waits.ts), which the workflows port's `resumeWait` and `supersedeWait` write.
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { type RunOptions, StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import { log } from '../../core/log';
import type { Environment } from '../../core/model';
import { type RunKind, type RunStore, runName, type WorkflowRun, type Workflows } from '../../core/ports';
import { deliveryWaitInput } from '../../core/webhooks/delivery-run';
import type { DeliveryWaits } from '../queues/delivery-queue';
import type { LocalWaits } from './local-waits';

/** A Task state's function, by the placeholder its definition names it with (`${Name}`). */
export type LocalTask = (input: unknown, environment: Environment, signal: AbortSignal) => Promise<unknown>;

export interface LocalStepFunctionsOptions {
  /** The ASL file of each workflow. */
  definitionFiles: Readonly<Partial<Record<RunKind, string>>>;
  tasks: Readonly<Record<string, LocalTask>>;
  runs: Readonly<Record<Environment, RunStore>>;
  /** Where each environment's waits end (task tokens). */
  waits: Readonly<Record<Environment, LocalWaits>>;
  /** DELAY_SCALE: retry intervals are divided by it. */
  delayScale: number;
  /** Milliseconds between looks for recorded runs not running here. */
  pollIntervalMs?: number;
  /** Milliseconds between looks for the end of a wait (a task token's outcome). */
  waitPollMs?: number;
  /** After an execution fails outright (its definition caught nothing), the pause before it is tried again. */
  restartPauseMs?: number;
  log?: (entry: Record<string, unknown>) => void;
}

const PLACEHOLDER = /^\$\{([A-Za-z0-9]+)\}$/;
/** A Task that invokes its function and waits for its task token (`Parameters.FunctionName` names it). */
const INVOKE_AND_WAIT = 'arn:aws:states:::lambda:invoke.waitForTaskToken';
/** setTimeout's longest delay in whole seconds: aws-local-stepfunctions times a Task out with one. */
const MAX_TIMEOUT_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

/** Thrown by a waiting state when its wait ends without resuming: the definition catches it by name. */
class WaitEnded extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}
/** A run as the log names it: `production/crv_…/v2/contract`, `production/msg_…/r1/delivery`. */
interface Loaded {
  machine: StateMachine;
  /** Task state name -> its function. */
  handlers: Record<string, LocalTask>;
  /** Task state name -> each retrier's first interval, scaled (aws-local-stepfunctions takes one per retrier). */
  retryIntervals: Record<string, number[]>;
  /** The Task states that wait for their task token after their function returns. */
  waiting: ReadonlySet<string>;
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
   * (Delivery runs are the delivery queue's, re-driven beside it: hosts/local-delivery-sweep.ts.)
   */
  async redrive(): Promise<void> {
    this.redriving ??= (async () => {
      for (const environment of Object.keys(this.options.runs) as Environment[]) {
        for (const run of await this.options.runs[environment].unfinished(100)) this.start(run);
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
    const token = `local-wait/${key}`;
    type Handlers = NonNullable<NonNullable<RunOptions['overrides']>['taskResourceLocalHandlers']>;
    const environmentHandlers: Handlers = Object.fromEntries(
      Object.entries(loaded.handlers).map(([state, task]) => [
        state,
        async (input: unknown) => {
          const waits = loaded.waiting.has(state);
          // A waiting state's input is its Parameters: the function's payload is inside.
          const call = task(
            waits ? (input as { Payload: unknown }).Payload : input,
            environment,
            stopping.signal,
          );
          this.tasksUnderWay.add(call);
          void call.then(
            () => this.tasksUnderWay.delete(call),
            () => this.tasksUnderWay.delete(call),
          );
          // Workers answer JSON (their outputs are state data), which is what the runner passes on.
          const output = await call;
          return (waits ? await this.waitFor(environment, token, stopping.signal) : output) as Awaited<
            ReturnType<Handlers[string]>
          >;
        },
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
    const tracked = done.finally(() => this.running.delete(key));
    this.running.set(key, {
      abort: () => {
        stopping.abort();
        execution.abort();
      },
      done: tracked,
    });
  }

  /** The end of the wait of `token`: the output of a resumed wait, or its failure, thrown. */
  private async waitFor(environment: Environment, token: string, signal: AbortSignal): Promise<object> {
    const waits = this.options.waits[environment];
    for (;;) {
      const outcome = await waits.outcome(token);
      if (outcome === 'resumed') return {};
      if (outcome === 'superseded')
        throw new WaitEnded('Superseded', 'A newer version of the contract was accepted.');
      await sleep(this.options.waitPollMs ?? 500, undefined, { signal });
    }
  }

  private loadDefinition(kind: RunKind, definition: StateMachineDefinition): Loaded {
    const handlers: Loaded['handlers'] = {};
    const retryIntervals: Loaded['retryIntervals'] = {};
    const waiting = new Set<string>();
    for (const [name, state] of Object.entries(definition.States)) {
      if (state.Type !== 'Task') continue;
      const waits = state.Resource === INVOKE_AND_WAIT;
      const parameters = state.Parameters as { FunctionName?: string } | undefined;
      const named = waits ? (parameters?.FunctionName ?? '') : state.Resource;
      const placeholder = PLACEHOLDER.exec(named)?.[1];
      const task = placeholder === undefined ? undefined : this.options.tasks[placeholder];
      if (placeholder === undefined || task === undefined)
        throw new Error(`${kind} workflow: state ${name} names no known task (${named})`);
      // A well-formed ARN in place of the placeholder, as CDK's substitution puts the function's.
      const arn = `arn:aws:lambda:us-east-1:000000000000:function:local-${placeholder}`;
      if (waits && parameters) {
        parameters.FunctionName = arn;
        waiting.add(name);
        // A wait of weeks, scaled like every delay, within what one timer can time.
        if (state.TimeoutSeconds !== undefined)
          state.TimeoutSeconds = Math.max(
            1,
            Math.min(Math.round(state.TimeoutSeconds / this.options.delayScale), MAX_TIMEOUT_SECONDS),
          );
      } else state.Resource = arn;
      handlers[name] = task;
      retryIntervals[name] = (state.Retry ?? []).map(
        (retrier) => ((retrier.IntervalSeconds ?? 1) * 1000) / this.options.delayScale,
      );
    }
    return { machine: new StateMachine(definition), handlers, retryIntervals, waiting };
  }

  private log(entry: Record<string, unknown>): void {
    if (this.options.log) this.options.log(entry);
    else {
      const { message, ...fields } = entry;
      log.info(String(message), fields);
    }
  }
}
