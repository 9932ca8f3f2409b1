// infra -> connects a function or container to the environment's resources: each helper sets the
// setting the code reads and grants exactly the access it needs, so the two cannot drift apart.
import { Stack } from 'aws-cdk-lib';
import type { ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type IPrincipal, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { GLOBAL_INDEXES } from '../lambdas/adapters/dynamodb/table-schema';
import { RUN_KINDS, type RunKind } from '../lambdas/core/ports';
import { acknowledgeFindings } from './checks';
import type { BaseUrls, Environment, StageDomains } from './environments';

/** A Lambda function or an ECS container: something with settings and an identity. */
export interface ResourceUser {
  addEnvironment(key: string, value: string): unknown;
  readonly grantPrincipal: IPrincipal;
}

/**
 * What a host does with the table: `endpoint` (the API and frame API functions, the ingest service) also
 * deletes items (idempotency keys, webhook endpoints) and batch-writes the request history; `worker`
 * (workflow tasks, queue consumers, scheduled jobs) reads, puts and updates items, nothing more. Neither
 * scans, and transactions need no action of their own (only their puts' and updates').
 */
export type TableAccess = 'endpoint' | 'worker';

const WORKER_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
];

/** The DynamoDB actions granted for each kind of table access (lambdas/adapters/dynamodb uses no other). */
export const TABLE_ACTIONS: Readonly<Record<TableAccess, readonly string[]>> = {
  worker: WORKER_TABLE_ACTIONS,
  endpoint: [...WORKER_TABLE_ACTIONS, 'dynamodb:BatchWriteItem', 'dynamodb:DeleteItem'],
};

/**
 * What DynamoDB asks of a caller's identity for a table under a customer-managed key, and only through
 * DynamoDB (`kms:ViaService`): the key cannot be used directly.
 */
export const TABLE_KEY_ACTIONS = ['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey', 'kms:DescribeKey'];

/** Sets `setting` (`TABLE_NAME`) and grants the table's actions of `access` on the table and its indexes, named. */
export function useTable(
  user: ResourceUser,
  table: ITable,
  access: TableAccess,
  setting = 'TABLE_NAME',
): void {
  user.addEnvironment(setting, table.tableName);
  const stack = Stack.of(table);
  user.grantPrincipal.addToPrincipalPolicy(
    new PolicyStatement({
      actions: [...TABLE_ACTIONS[access]],
      resources: [table.tableArn, ...GLOBAL_INDEXES.map((index) => `${table.tableArn}/index/${index.name}`)],
    }),
  );
  if (table.encryptionKey) {
    user.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({
        actions: TABLE_KEY_ACTIONS,
        resources: [table.encryptionKey.keyArn],
        conditions: { StringEquals: { 'kms:ViaService': `dynamodb.${stack.region}.${stack.urlSuffix}` } },
      }),
    );
  }
}

/**
 * The blob bucket's folders (lambdas/core): `uploads/` the received PDFs (api/http/receive-upload.ts),
 * `renders/` what the pipeline keeps between its steps (core/contracts/artifacts.ts), `reviews/` the
 * lawyers' reviews (the same), `published/` the hosted pages (core/publications.ts).
 */
export const BLOB_PREFIXES = ['uploads', 'renders', 'reviews', 'published'] as const;
export type BlobPrefix = (typeof BLOB_PREFIXES)[number];

/** The folders a host reads (`get`), writes (`put`) and deletes in (`delete`); none by default. */
export interface BlobAccess {
  readonly get?: readonly BlobPrefix[];
  readonly put?: readonly BlobPrefix[];
  readonly delete?: readonly BlobPrefix[];
}

/** No object access: the setting only (a host that needs the bucket's name, not its objects). */
export const NO_BLOBS: BlobAccess = {};

/**
 * What an upload does with blobs: streams the PDF into `uploads/`, reads it back to inspect it, and
 * deletes it when the upload is refused (core/contracts/send.ts).
 */
export const UPLOAD_BLOBS: BlobAccess = { get: ['uploads'], put: ['uploads'], delete: ['uploads'] };

/**
 * Sets `BLOB_BUCKET` and grants exactly the given access, folder by folder. Reading also lists the
 * folders read, so that a missing object is S3's 404 rather than its 403; a put may be multipart, and
 * an interrupted one is aborted.
 */
export function useBucket(user: ResourceUser, bucket: IBucket, access: BlobAccess): void {
  user.addEnvironment('BLOB_BUCKET', bucket.bucketName);
  const objects = (prefixes: readonly BlobPrefix[] = []) =>
    prefixes.map((prefix) => bucket.arnForObjects(`${prefix}/*`));
  const grant = (actions: string[], prefixes: readonly BlobPrefix[] | undefined) => {
    if (!prefixes?.length) return;
    user.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions, resources: objects(prefixes) }));
  };
  if (access.get?.length || access.put?.length || access.delete?.length) {
    const principal = user.grantPrincipal;
    if (principal instanceof Construct)
      acknowledgeFindings(
        principal,
        new RegExp(`AwsSolutions-IAM5\\[Resource::.+/(${BLOB_PREFIXES.join('|')})/\\*\\]`),
        'Objects of the blob bucket’s folders this host uses (lib/wiring.ts): S3 grants name a folder, not each object.',
      );
  }
  grant(['s3:GetObject'], access.get);
  grant(['s3:PutObject', 's3:AbortMultipartUpload'], access.put);
  grant(['s3:DeleteObject'], access.delete);
  if (access.get?.length) {
    user.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [bucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': access.get.map((prefix) => `${prefix}/*`) } },
      }),
    );
  }
}

/** Sets `<setting>` to the secret's ARN and grants reading its value. */
export function useSecret(user: ResourceUser, setting: string, secret: ISecret): void {
  user.addEnvironment(setting, secret.secretArn);
  secret.grantRead(user.grantPrincipal);
}

/**
 * Sets `TOKEN_KEY_ARN` and grants reading the access-token key's public half (kms:GetPublicKey, which
 * signs nothing): only for the hosts that check access tokens (the API's functions and the ingest
 * service). The others are not told of it, and their composition root never reads it
 * (lambdas/hosts/aws/services.ts). The public key is read by each instance on first use rather than
 * given as a deploy-time setting: CloudFormation cannot read a KMS public key without a custom resource,
 * and a replaced key then needs no redeploy of its readers' settings.
 */
export function checksAccessTokens(user: ResourceUser, resources: ServiceResources): void {
  user.addEnvironment('TOKEN_KEY_ARN', resources.tokenKey.keyArn);
  resources.tokenKey.grant(user.grantPrincipal, 'kms:GetPublicKey');
}

/**
 * Sets `TOKEN_SIGNING_KEY_ARN` and grants kms:Sign with the access-token key: for the token function
 * (`POST /v1/token`) alone, so no other host can make a token (test/infra/hardening.test.ts).
 */
export function issuesAccessTokens(user: ResourceUser, resources: ServiceResources): void {
  user.addEnvironment('TOKEN_SIGNING_KEY_ARN', resources.tokenKey.keyArn);
  resources.tokenKey.grant(user.grantPrincipal, 'kms:Sign');
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
  /** The access tokens' ES256 key (KMS): `checksAccessTokens`, `issuesAccessTokens`. */
  readonly tokenKey: IKey;
  /** The sign-up form answers' key: only the frame API's functions are given it (`useSecret`). */
  readonly answersKeySecret: ISecret;
  /** CloudFront's web ACL of the stage (lib/edge-stack.ts): every distribution is behind it. */
  readonly webAclArn: string;
  /** The stage's domain names and their certificate (us-east-1), when it has its own. */
  readonly domains?: StageDomains & { readonly certificate: ICertificate };
}

/** What a handler host is connected to: the stateful resources, and what the stateless stack adds. */
export interface HostResources extends ServiceResources {
  /** The environment's hosted pages address (`https://{domain}`, no trailing slash). */
  readonly pagesBaseUrl: string;
  /** CloudFront's and the load balancer's logs (lib/distribution-defaults.ts). */
  readonly logBucket: IBucket;
}

/** What a host may do with the stateful resources: its table actions and its blob folders. */
export interface HostAccess {
  readonly table: TableAccess;
  readonly blobs: BlobAccess;
}

/** A worker that touches no blob: most tasks, consumers and jobs. */
export const TABLE_WORKER: HostAccess = { table: 'worker', blobs: NO_BLOBS };

/**
 * Gives a handler host (function or container) every setting the service's configuration requires, and
 * the table and blob access it is declared to need (nothing else: the token key is `checksAccessTokens`,
 * a state machine `useStateMachines`, a queue `handsOnDeliveries`).
 */
export function connectService(user: ResourceUser, resources: HostResources, access: HostAccess): void {
  user.addEnvironment('SERVICE_ENVIRONMENT', resources.environment);
  user.addEnvironment('SANDBOX_BASE_URL', resources.baseUrls.sandbox);
  user.addEnvironment('PRODUCTION_BASE_URL', resources.baseUrls.production);
  user.addEnvironment('PAGES_BASE_URL', resources.pagesBaseUrl);
  user.addEnvironment('RATE_LIMITS', 'on');
  useTable(user, resources.table, access.table);
  useBucket(user, resources.blobBucket, access.blobs);
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
