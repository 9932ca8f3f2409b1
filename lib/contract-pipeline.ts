// infra -> the contract pipeline of one environment: the worker functions (lambdas/workers), the render
// queue and its consumer, and the two Standard state machines of contract and review runs
// (lib/workflow-state-machine.ts). The re-drive of recorded runs, which starts every kind, is
// lib/run-redrive.ts.
import { Duration } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { rendersPerOrganisation } from '../lambdas/core/contracts/render-slots';
import type { ContractRun } from '../lambdas/core/ports';
import { WORKFLOW_TASKS, type WorkflowQueueName, type WorkflowTaskName } from '../lambdas/workers/tasks';
import { alarmedWorkQueue } from './dead-letters';
import { ServiceFunction } from './service-function';
import { type BlobAccess, connectService, type HostResources, NO_BLOBS } from './wiring';
import { workflowStateMachine } from './workflow-state-machine';

/** The runs of a contract version, each a state machine here. */
type ContractRunKind = ContractRun['kind'];

export interface Worker {
  /** Construct id: the task's name (lambdas/workers/tasks.ts). */
  readonly id: WorkflowTaskName;
  /** Handler module, relative to the repository root (exporting `handler`): the task's. */
  readonly entry: string;
  readonly description: string;
  readonly memorySize: number;
  readonly timeout: Duration;
  readonly blobAccess: BlobAccess;
  /** Writes hosted pages (see ServiceFunction). */
  readonly publishesPages?: boolean;
}

/** A task's function as the pipeline deploys it: its entry is the task's. */
const worker = (id: WorkflowTaskName, props: Omit<Worker, 'id' | 'entry'>): Worker => ({
  id,
  entry: WORKFLOW_TASKS[id].entry,
  ...props,
});

/** The workers of both state machines. Timeouts match their Task states' `TimeoutSeconds`. */
export const WORKERS: readonly Worker[] = [
  worker('PublishViewer', {
    description: 'contract run: publish the contract viewer',
    memorySize: 1024,
    timeout: Duration.minutes(15),
    // The manifest, the uploaded PDF (a copy is published), the pages it writes and replaces.
    blobAccess: { get: ['renders', 'uploads'], put: ['published'], delete: ['published'] },
    publishesPages: true,
  }),
  worker('AnalyseContract', {
    description: 'contract run: analyse a version',
    memorySize: 1024,
    timeout: Duration.minutes(5),
    // Reads the manifest, writes the analysis beside it.
    blobAccess: { get: ['renders'], put: ['renders'] },
  }),
  worker('RequestLawyerReview', {
    description: "contract run: keep the task token of the wait for the lawyer's review",
    memorySize: 256,
    timeout: Duration.minutes(1),
    blobAccess: NO_BLOBS,
  }),
  worker('PublishReview', {
    description: 'contract run (resumed by the lawyer) and review run: publish the review channels',
    memorySize: 1024,
    timeout: Duration.minutes(15),
    // The manifest, the lawyer's review and the uploaded PDF; the pages it writes and replaces.
    blobAccess: { get: ['renders', 'reviews', 'uploads'], put: ['published'], delete: ['published'] },
    publishesPages: true,
  }),
  worker('FinishRun', {
    description: 'both runs: record the outcome (and mark what failed)',
    memorySize: 256,
    timeout: Duration.minutes(1),
    // Records outcomes in the table only.
    blobAccess: NO_BLOBS,
  }),
];

/** The render queue's name; its construct id is `RenderQueue`, as the contract file sends to it (`${RenderQueueUrl}`). */
const RENDER = 'Render';
export const RENDER_QUEUE = `${RENDER}Queue` satisfies WorkflowQueueName;
/** The render consumer's construct id. */
export const RENDER_CONTRACTS = 'RenderContracts';
/** Receives of a render message before it goes to the dead-letter queue (each a whole render). */
export const RENDER_RECEIVES = 3;
/**
 * Renders at once in an environment: each takes a 3 GB function for up to 15 minutes, so this bounds
 * what a burst of uploads costs at once and its load on the table and the bucket; the rest of a burst
 * waits in the queue (the Process Task allows an hour, queue included). A contract of a few dozen pages
 * renders in seconds, so 10 at once keep such a burst's wait short.
 */
export const RENDERS_AT_ONCE = 10;

export class ContractPipeline extends Construct {
  /** Worker functions by construct id. */
  readonly workers: ReadonlyMap<WorkflowTaskName, ServiceFunction>;
  /** Reads versions: the render queue's consumer. */
  readonly render: ServiceFunction;
  /** The contract runs' Process state sends each attempt here, with its task token. */
  readonly renderQueue: Queue;
  readonly renderDeadLetters: Queue;
  /** The state machine of each kind of contract run (as `StateMachines` for the hosts that start runs). */
  readonly stateMachines: Readonly<Record<ContractRunKind, StateMachine>>;

  constructor(scope: Construct, id: string, resources: HostResources) {
    super(scope, id);
    const workers = new Map<WorkflowTaskName, ServiceFunction>();
    for (const worker of WORKERS) {
      const fn = new ServiceFunction(this, worker.id, {
        entry: worker.entry,
        description: worker.description,
        memorySize: worker.memorySize,
        timeout: worker.timeout,
        publishesPages: worker.publishesPages ?? false,
      });
      connectService(fn, resources, { table: 'worker', blobs: worker.blobAccess });
      workers.set(worker.id, fn);
    }
    this.workers = workers;

    // Rendering consumes its own queue (lambdas/hosts/queue-consumers/render-records.ts): a message is one attempt of a
    // contract run's Process step, with the token its Task waits on. Never a buyer's detail or a secret
    // beyond that token, which only ends that one wait.
    const render = alarmedWorkQueue(this, RENDER, {
      holds: 'Contract versions the renderer could not take (their runs time out and give up)',
      // Six times the consumer's 15 minutes exceeds SQS's 12 hours; a render under way keeps its
      // message for 1.5 times its longest run, and one that outlives that is answered once (the step is
      // idempotent, and an answer to a token already answered is ignored).
      visibilityTimeout: Duration.minutes(90),
      maxReceiveCount: RENDER_RECEIVES,
    });
    this.renderQueue = render.queue;
    this.renderDeadLetters = render.deadLetters;
    this.render = new ServiceFunction(this, RENDER_CONTRACTS, {
      entry: 'lambdas/hosts/aws/functions/render-contracts.ts',
      description: 'contract run: read a version (page images and text), from the render queue',
      // Rendering is CPU-bound: Lambda's CPU share grows with memory (about 1.7 vCPUs at 3008 MB).
      memorySize: 3008,
      timeout: Duration.minutes(15),
      renders: true,
    });
    // Reads the uploaded PDF, writes (and replaces) the version's pages and manifest.
    connectService(this.render, resources, {
      table: 'worker',
      blobs: { get: ['uploads'], put: ['renders'], delete: ['renders'] },
    });
    // An attempt over its organisation's share of the renders goes back to this queue for a while
    // (lambdas/hosts/queue-consumers/render-records.ts), so one organisation's burst never holds every render.
    this.renderQueue.grantSendMessages(this.render);
    this.render.addEnvironment('RENDER_QUEUE_URL', this.renderQueue.queueUrl);
    this.render.addEnvironment('RENDERS_PER_ORGANISATION', String(rendersPerOrganisation(RENDERS_AT_ONCE)));
    this.render.addEventSource(
      new SqsEventSource(this.renderQueue, {
        // One version a function: a render takes the whole function.
        batchSize: 1,
        reportBatchItemFailures: true,
        maxConcurrency: RENDERS_AT_ONCE,
      }),
    );

    const invoked = new Set<IFunction>();
    const stateMachine = (kind: ContractRunKind, name: string): StateMachine => {
      const machine = workflowStateMachine(
        this,
        name,
        kind,
        workers,
        new Map([[RENDER_QUEUE, this.renderQueue]]),
      );
      for (const fn of machine.invoked) invoked.add(fn);
      return machine.stateMachine;
    };
    this.stateMachines = {
      contract: stateMachine('contract', 'ContractRuns'),
      review: stateMachine('review', 'ReviewRuns'),
    };
    // The consumer answers the contract runs' Process Tasks with their tokens.
    this.stateMachines.contract.grantTaskResponse(this.render);
    const idle = WORKERS.filter((worker) => !invoked.has(workers.get(worker.id)!));
    if (idle.length > 0) throw new Error(`no workflow runs ${idle.map((worker) => worker.id).join(', ')}`);
  }
}
