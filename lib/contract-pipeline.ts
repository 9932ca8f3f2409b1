// infra -> the contract pipeline of one environment: the worker functions (lambdas/workers) and the two
// Standard state machines of contract and review runs (lib/workflow-state-machine.ts). The re-drive of
// recorded runs, which starts every kind, is lib/run-redrive.ts.
import { Duration } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { ContractRun } from '../lambdas/core/ports';
import { ServiceFunction } from './service-function';
import { type BlobAccess, connectService, type HostResources } from './wiring';
import { workflowStateMachine } from './workflow-state-machine';

/** The runs of a contract version, each a state machine here. */
type ContractRunKind = ContractRun['kind'];

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
  /** Writes hosted pages (see ServiceFunction). */
  readonly publishesPages?: boolean;
}

/** The workers of both state machines. Timeouts match their Task states' `TimeoutSeconds`. */
export const WORKERS: readonly Worker[] = [
  {
    id: 'ProcessContract',
    entry: 'lambdas/hosts/aws/functions/process-contract.ts',
    description: 'contract run: read a version (page images and text)',
    // Rendering is CPU-bound: Lambda's CPU share grows with memory (about 1.7 vCPUs at 3008 MB).
    memorySize: 3008,
    timeout: Duration.minutes(15),
    blobAccess: 'read-put-delete',
    renders: true,
  },
  {
    id: 'PublishViewer',
    entry: 'lambdas/hosts/aws/functions/publish-viewer.ts',
    description: 'contract run: publish the contract viewer',
    memorySize: 1024,
    timeout: Duration.minutes(15),
    blobAccess: 'read-put-delete',
    publishesPages: true,
  },
  {
    id: 'AnalyseContract',
    entry: 'lambdas/hosts/aws/functions/analyse-contract.ts',
    description: 'contract run: analyse a version',
    memorySize: 1024,
    timeout: Duration.minutes(5),
    blobAccess: 'read-put',
  },
  {
    id: 'RequestLawyerReview',
    entry: 'lambdas/hosts/aws/functions/request-lawyer-review.ts',
    description: "contract run: keep the task token of the wait for the lawyer's review",
    memorySize: 256,
    timeout: Duration.minutes(1),
    blobAccess: 'none',
  },
  {
    id: 'PublishReview',
    entry: 'lambdas/hosts/aws/functions/publish-review.ts',
    description: 'contract run (resumed by the lawyer) and review run: publish the review channels',
    memorySize: 1024,
    timeout: Duration.minutes(15),
    blobAccess: 'read-put-delete',
    publishesPages: true,
  },
  {
    id: 'FinishRun',
    entry: 'lambdas/hosts/aws/functions/finish-run.ts',
    description: 'both runs: record the outcome (and mark what failed)',
    memorySize: 256,
    timeout: Duration.minutes(1),
    blobAccess: 'read-put',
  },
];

export class ContractPipeline extends Construct {
  /** Worker functions by construct id. */
  readonly workers: ReadonlyMap<string, ServiceFunction>;
  /** The state machine of each kind of contract run (as `StateMachines` for the hosts that start runs). */
  readonly stateMachines: Readonly<Record<ContractRunKind, StateMachine>>;

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
        publishesPages: worker.publishesPages ?? false,
      });
      connectService(fn, resources, worker.blobAccess);
      workers.set(worker.id, fn);
    }
    this.workers = workers;
    const invoked = new Set<IFunction>();
    const stateMachine = (kind: ContractRunKind, name: string): StateMachine => {
      const machine = workflowStateMachine(this, name, kind, workers);
      for (const fn of machine.invoked) invoked.add(fn);
      return machine.stateMachine;
    };
    this.stateMachines = {
      contract: stateMachine('contract', 'ContractRuns'),
      review: stateMachine('review', 'ReviewRuns'),
    };
    const idle = WORKERS.filter((worker) => !invoked.has(workers.get(worker.id)!));
    if (idle.length > 0) throw new Error(`no workflow runs ${idle.map((worker) => worker.id).join(', ')}`);
  }
}
