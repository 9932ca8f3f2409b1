// infra -> connects a function or container to the environment's resources: each helper sets the
// setting the code reads and grants exactly the access it needs, so the two cannot drift apart.
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IPrincipal } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { RUN_KINDS, type RunKind } from '../lambdas/core/ports';
import type { BaseUrls, Environment } from './environments';

/** A Lambda function or an ECS container: something with settings and an identity. */
export interface ResourceUser {
  addEnvironment(key: string, value: string): unknown;
  readonly grantPrincipal: IPrincipal;
}

/** Sets `TABLE_NAME` and grants reading and writing items (and the table's key, if any). */
export function useTable(user: ResourceUser, table: ITable): void {
  user.addEnvironment('TABLE_NAME', table.tableName);
  table.grantReadWriteData(user.grantPrincipal);
}

/**
 * `none`: the setting only; `read`: get objects; `read-put`: get and put (uploads, analysis);
 * `read-put-delete`: also delete objects (the workers that publish pages and replace what they wrote).
 */
export type BlobAccess = 'none' | 'read' | 'read-put' | 'read-put-delete';

/** Sets `BLOB_BUCKET` and grants the given access to the bucket's objects. */
export function useBucket(user: ResourceUser, bucket: IBucket, access: BlobAccess): void {
  user.addEnvironment('BLOB_BUCKET', bucket.bucketName);
  if (access === 'none') return;
  bucket.grantRead(user.grantPrincipal);
  if (access === 'read-put' || access === 'read-put-delete') bucket.grantPut(user.grantPrincipal);
  if (access === 'read-put-delete') bucket.grantDelete(user.grantPrincipal);
}

/** Sets `<setting>` to the secret's ARN and grants reading its value. */
export function useSecret(user: ResourceUser, setting: string, secret: ISecret): void {
  user.addEnvironment(setting, secret.secretArn);
  secret.grantRead(user.grantPrincipal);
}

/**
 * Grants ending the waits of contract runs (their task tokens): what a host that accepts versions
 * needs, as a new version ends the previous one's wait for the lawyer. The token names the execution.
 */
export function endsReviewWaits(user: ResourceUser, stateMachines: StateMachines): void {
  stateMachines.contract?.grantTaskResponse(user.grantPrincipal);
}

/** The state machine of each kind of run (lib/contract-pipeline.ts). */
export type StateMachines = Readonly<Partial<Record<RunKind, IStateMachine>>>;

/** The setting holding the ARN of the state machine of a kind of run, e.g. `CONTRACT_STATE_MACHINE_ARN`. */
export const stateMachineSetting = (kind: RunKind): string => `${kind.toUpperCase()}_STATE_MACHINE_ARN`;

/** Sets `<KIND>_STATE_MACHINE_ARN` of each kind of run and grants starting executions of it (nothing more). */
export function useStateMachines(user: ResourceUser, stateMachines: StateMachines): void {
  for (const kind of RUN_KINDS) {
    const stateMachine = stateMachines[kind];
    if (stateMachine === undefined) continue;
    user.addEnvironment(stateMachineSetting(kind), stateMachine.stateMachineArn);
    stateMachine.grantStartExecution(user.grantPrincipal);
  }
}

/** The stateful resources of one environment, and what every piece of service code is told. */
export interface ServiceResources {
  readonly environment: Environment;
  readonly baseUrls: BaseUrls;
  readonly table: ITable;
  readonly blobBucket: IBucket;
  readonly signingSecret: ISecret;
  /** The sign-up form answers' key: only the frame API's functions are given it (`useSecret`). */
  readonly answersKeySecret: ISecret;
}

/** What a handler host is connected to: the stateful resources, and what the stateless stack adds. */
export interface HostResources extends ServiceResources {
  /** The environment's hosted pages address (`https://{domain}`, no trailing slash). */
  readonly pagesBaseUrl: string;
}

/** Gives a handler host (function or container) every setting the service's configuration requires. */
export function connectService(user: ResourceUser, resources: HostResources, blobAccess: BlobAccess): void {
  user.addEnvironment('SERVICE_ENVIRONMENT', resources.environment);
  user.addEnvironment('SANDBOX_BASE_URL', resources.baseUrls.sandbox);
  user.addEnvironment('PRODUCTION_BASE_URL', resources.baseUrls.production);
  user.addEnvironment('PAGES_BASE_URL', resources.pagesBaseUrl);
  user.addEnvironment('RATE_LIMITS', 'on');
  useTable(user, resources.table);
  useBucket(user, resources.blobBucket, blobAccess);
  useSecret(user, 'SIGNING_SECRET_ARN', resources.signingSecret);
}

/**
 * Sets `DELIVERY_QUEUE_URL` and grants sending to the delivery queue, and with `waits` sets
 * `DELIVERY_STATE_MACHINE_ARN` and grants starting the deliveries' waits: what a function needs to hand
 * webhook deliveries on (lambdas/adapters/queues/delivery-queue.ts). The waits' own task gets no `waits`:
 * it hands on only what is due, and its state machine's ARN in its settings would be a cycle.
 */
export function handsOnDeliveries(user: ResourceUser, queue: IQueue, waits?: IStateMachine): void {
  user.addEnvironment('DELIVERY_QUEUE_URL', queue.queueUrl);
  queue.grantSendMessages(user.grantPrincipal);
  if (waits) useStateMachines(user, { delivery: waits });
}
