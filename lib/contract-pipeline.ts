// infra -> the contract pipeline of one environment: the worker functions (lambdas/workers) and the two
// Standard state machines deployed from the very same ASL files the local stack runs
// (lib/workflows/*.asl.json), each Task's `${<Worker>FunctionArn}` replaced by that worker's ARN.
import { readFileSync } from 'node:fs';
import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { DefinitionBody, LogLevel, StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { ContractRun } from '../lambdas/core/ports';

/** The runs of a contract version, each a state machine here. */
type RunKind = ContractRun['kind'];

import { fromRoot } from './paths';
import { ServiceFunction } from './service-function';
import { type BlobAccess, connectService, type HostResources, useStateMachines } from './wiring';

/** Minutes between re-drives of runs that never started. */
export const REDRIVE_MINUTES = 5;

export interface Worker {
  /** Construct id; the ASL files name the function `${<id>FunctionArn}`. */
  readonly id: string;
  /** Handler module, relative to the repository root (exporting `handler`). */
  readonly entry: string;
  readonly description: string;
  readonly memorySize: number;
  readonly timeout: Duration;
  readonly blobAccess: BlobAccess;
  /** Renders pages with `@napi-rs/canvas` (see ServiceFunction). */
  readonly renders?: boolean;
}

/** The workers of both state machines. Timeouts match their Task states' `TimeoutSeconds`. */
export const WORKERS: readonly Worker[] = [
  {
    id: 'ProcessContract',
    entry: 'lambdas/workers/process-contract.ts',
    description: 'contract run: read a version (page images and text)',
    // Rendering is CPU-bound: Lambda's CPU share grows with memory (about 1.7 vCPUs at 3008 MB).
    memorySize: 3008,
    timeout: Duration.minutes(15),
    blobAccess: 'read-put-delete',
    renders: true,
  },
  {
    id: 'PublishViewer',
    entry: 'lambdas/workers/publish-viewer.ts',
    description: 'contract run: publish the contract viewer',
    memorySize: 1024,
    timeout: Duration.minutes(15),
    blobAccess: 'read-put-delete',
  },
  {
    id: 'AnalyseContract',
    entry: 'lambdas/workers/analyse-contract.ts',
    description: 'contract run: analyse a version',
    memorySize: 1024,
    timeout: Duration.minutes(5),
    blobAccess: 'read-put',
  },
  {
    id: 'PublishReview',
    entry: 'lambdas/workers/publish-review.ts',
    description: 'review run: publish the review channels',
    memorySize: 1024,
    timeout: Duration.minutes(15),
    blobAccess: 'read-put-delete',
  },
  {
    id: 'FinishRun',
    entry: 'lambdas/workers/finish-run.ts',
    description: 'both runs: record the outcome (and mark what failed)',
    memorySize: 256,
    timeout: Duration.minutes(1),
    blobAccess: 'read-put',
  },
];

/** The ASL file of each kind of run, relative to the repository root. */
export const WORKFLOW_FILES: Readonly<Record<RunKind, string>> = {
  contract: 'lib/workflows/contract-pipeline.asl.json',
  review: 'lib/workflows/review-publication.asl.json',
};

/** The substitution placeholder of a worker's ARN in the ASL files. */
export const arnPlaceholder = (worker: Pick<Worker, 'id'>): string => `${worker.id}FunctionArn`;

/** The placeholders (`${Name}`) an ASL file uses, each once, in order of first use. */
export const placeholdersOf = (definition: string): string[] => [
  ...new Set([...definition.matchAll(/\$\{([A-Za-z0-9_]+)\}/g)].map((match) => match[1] ?? '')),
];

export class ContractPipeline extends Construct {
  /** Worker functions by construct id. */
  readonly workers: ReadonlyMap<string, ServiceFunction>;
  /** The state machine of each kind of run (as `StateMachines` for the hosts that start runs). */
  readonly stateMachines: Readonly<Record<RunKind, StateMachine>>;
  /** Starts recorded runs that never started, every few minutes. */
  readonly redrive: ServiceFunction;

  constructor(scope: Construct, id: string, resources: HostResources) {
    super(scope, id);
    const workers = new Map<string, ServiceFunction>();
    for (const worker of WORKERS) {
      const fn = new ServiceFunction(this, worker.id, {
        entry: worker.entry,
        description: worker.description,
        memorySize: worker.memorySize,
        timeout: worker.timeout,
        renders: worker.renders ?? false,
      });
      connectService(fn, resources, worker.blobAccess);
      workers.set(worker.id, fn);
    }
    this.workers = workers;
    const byPlaceholder = new Map(WORKERS.map((worker) => [arnPlaceholder(worker), workers.get(worker.id)!]));
    const invoked = new Set<ServiceFunction>();

    /**
     * A Standard state machine from an ASL file. Each placeholder the file uses must name a worker (else
     * the synth fails), and its role may invoke exactly the workers the file names.
     */
    const stateMachine = (kind: RunKind, name: string): StateMachine => {
      const file = fromRoot(WORKFLOW_FILES[kind]);
      const used = placeholdersOf(readFileSync(file, 'utf8')).map((placeholder) => {
        const fn = byPlaceholder.get(placeholder);
        if (!fn) throw new Error(`${WORKFLOW_FILES[kind]} names \${${placeholder}}, which is no worker`);
        return [placeholder, fn] as const;
      });
      const machine = new StateMachine(this, name, {
        stateMachineType: StateMachineType.STANDARD,
        definitionBody: DefinitionBody.fromFile(file),
        definitionSubstitutions: Object.fromEntries(
          used.map(([placeholder, fn]) => [placeholder, fn.functionArn]),
        ),
        // Errors only, without the input and output of each state: they may carry buyers' details.
        logs: {
          destination: new LogGroup(this, `${name}Logs`, { retention: RetentionDays.ONE_MONTH }),
          level: LogLevel.ERROR,
          includeExecutionData: false,
        },
        tracingEnabled: true,
      });
      for (const [, fn] of used) {
        fn.grantInvoke(machine);
        invoked.add(fn);
      }
      return machine;
    };
    this.stateMachines = {
      contract: stateMachine('contract', 'ContractRuns'),
      review: stateMachine('review', 'ReviewRuns'),
    };
    const idle = WORKERS.filter((worker) => !invoked.has(workers.get(worker.id)!));
    if (idle.length > 0) throw new Error(`no workflow runs ${idle.map((worker) => worker.id).join(', ')}`);

    // Runs recorded but never started (a lost start, or recorded by the operator) start within minutes.
    this.redrive = new ServiceFunction(this, 'RedriveRuns', {
      entry: 'lambdas/workers/redrive-runs.ts',
      description: 'start every recorded run that has not finished',
      memorySize: 256,
      timeout: Duration.minutes(1),
    });
    connectService(this.redrive, resources, 'none');
    useStateMachines(this.redrive, this.stateMachines);
    new Rule(this, 'RedriveSchedule', {
      schedule: Schedule.rate(Duration.minutes(REDRIVE_MINUTES)),
      targets: [new LambdaFunction(this.redrive)],
    });
  }
}
