// infra -> what lies between the shared identity stack and the two stages, which CDK cannot reference
// across (each stage is an assembly of its own): SSM parameters, read at deployment. Each stage publishes
// its environment's resources under `/contract-service/<env>/…` (its stateless stack); the identity stack
// reads both environments' for the portal and publishes its issuer and identity table under
// `/contract-service/identity/…`; each stage's shared stack (lib/shared-stack.ts: the MCP server) reads
// all three. `npm run deploy` (bin/deploy.ts) deploys them in that order, so nothing is copied by hand.
import { type ITable, Table } from 'aws-cdk-lib/aws-dynamodb';
import { type IKey, Key } from 'aws-cdk-lib/aws-kms';
import { Bucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { contextObject, type Environment } from './environments';
import type { ServiceFunction } from './service-function';
import { useTable } from './wiring';

/** The CDK context key of where the identity stack deploys (`{"account": "…", "region": "…"}`), optional. */
export const IDENTITY_CONTEXT = 'service:identity';

/** The identity stack's SSM parameters, read by the stages (same account and region). */
export const IDENTITY_PARAMETERS = {
  issuer: '/contract-service/identity/issuer',
  tableName: '/contract-service/identity/table-name',
  tableKeyArn: '/contract-service/identity/table-key-arn',
} as const;

/** What the portal and the MCP servers reach of one environment, by name and ARN. */
export interface EnvironmentResources {
  readonly tableName: string;
  /** The table's customer-managed key (the stateful stack's `TableKey`). */
  readonly tableKeyArn: string;
  readonly bucketName: string;
  readonly pagesBaseUrl: string;
  readonly frameUrl: string;
  readonly deliveryQueueArn: string;
  readonly deliveryQueueUrl: string;
  readonly deliveryStateMachineArn: string;
}

/**
 * What a stage publishes: its environment's resources, its HTTP API (where the MCP server is routed), the
 * state machines a lawyer's publish in the back office resumes or starts, and the topic its alarms notify
 * (the identity stack's alarms notify production's).
 */
export interface PublishedEnvironment extends EnvironmentResources {
  readonly httpApiId: string;
  readonly contractStateMachineArn: string;
  readonly reviewStateMachineArn: string;
  readonly alarmTopicArn: string;
  /** Its origin authorizer, published only where the stage has no hosted zone (lib/origin-protection.ts). */
  readonly originAuthorizerId: string;
}

const PUBLISHED_FIELDS = [
  'tableName',
  'tableKeyArn',
  'bucketName',
  'pagesBaseUrl',
  'frameUrl',
  'deliveryQueueArn',
  'deliveryQueueUrl',
  'deliveryStateMachineArn',
  'httpApiId',
  'contractStateMachineArn',
  'reviewStateMachineArn',
  'alarmTopicArn',
  'originAuthorizerId',
] as const satisfies readonly (keyof PublishedEnvironment)[];

/**
 * What a stage's stateful stack holds that other stacks use: the identity stack and the MCP servers read
 * the table, its key and the bucket; the stage's stateless stack reads all of it (lib/stateful-stack.ts).
 */
export interface StatefulValues {
  readonly tableName: string;
  readonly tableKeyArn: string;
  readonly tableStreamArn: string;
  readonly bucketName: string;
  readonly tokenKeyArn: string;
  readonly answersKeySecretArn: string;
}

/** The SSM parameter of one published value, e.g. `/contract-service/sandbox/tableName`. */
export const environmentParameter = (
  environment: Environment,
  field: keyof PublishedEnvironment | keyof StatefulValues,
): string => `/contract-service/${environment}/${field}`;

/**
 * Publishes some of an environment's resources in SSM parameters: its stateful stack what it keeps, its
 * stateless stack what it runs. A reader resolves them at its own deployment, so a replaced resource is
 * read again at the reader's next deployment, never held by an export in use.
 */
export class EnvironmentParameters extends Construct {
  constructor(
    scope: Construct,
    id: string,
    environment: Environment,
    published: Partial<Record<keyof PublishedEnvironment | keyof StatefulValues, string>>,
  ) {
    super(scope, id);
    for (const [field, value] of Object.entries(published))
      new StringParameter(this, field, {
        parameterName: environmentParameter(environment, field as keyof StatefulValues),
        stringValue: value,
        description: `contract-service ${environment}: ${field}, read by other stacks at their deployment`,
      });
  }
}

/** A value another stack published, as a token resolved at the deployment of `scope`'s stack. */
export const publishedValue = (
  scope: Construct,
  environment: Environment,
  field: keyof PublishedEnvironment | keyof StatefulValues,
): string => StringParameter.valueForStringParameter(scope, environmentParameter(environment, field));

/**
 * An environment's published resources as tokens resolved at deployment of `scope`'s stack. Each value is
 * read (a template parameter made) only when used: an unused parameter is a template warning.
 */
export const environmentFromParameters = (scope: Construct, environment: Environment): PublishedEnvironment =>
  Object.defineProperties(
    {},
    Object.fromEntries(
      PUBLISHED_FIELDS.map((field) => [
        field,
        {
          enumerable: true,
          get: () => publishedValue(scope, environment, field),
        },
      ]),
    ),
  ) as PublishedEnvironment;

/** A stage's stateful resources as its stateless stack uses them (lib/wiring.ts's ServiceResources). */
export interface StatefulReferences {
  readonly table: ITable;
  readonly blobBucket: IBucket;
  readonly tokenKey: IKey;
  readonly answersKeySecret: ISecret;
}

/**
 * The stateful stack's resources, referenced through its SSM parameters (read when `scope`'s stack
 * deploys): no export ties the two stacks, so a replaced key or table never blocks a deployment.
 */
export const statefulFromParameters = (scope: Construct, environment: Environment): StatefulReferences => {
  const value = (field: keyof StatefulValues) => publishedValue(scope, environment, field);
  return {
    table: Table.fromTableAttributes(scope, 'StatefulTable', {
      tableName: value('tableName'),
      tableStreamArn: value('tableStreamArn'),
      encryptionKey: Key.fromKeyArn(scope, 'StatefulTableKey', value('tableKeyArn')),
    }),
    blobBucket: Bucket.fromBucketName(scope, 'StatefulBlobs', value('bucketName')),
    tokenKey: Key.fromKeyArn(scope, 'StatefulAccessTokenKey', value('tokenKeyArn')),
    answersKeySecret: Secret.fromSecretCompleteArn(scope, 'StatefulAnswersKey', value('answersKeySecretArn')),
  };
};

/** `service:identity` as written in context: where the identity stack deploys, if pinned. */
export interface IdentityContext {
  readonly account?: string;
  readonly region?: string;
  /** The user pools' sender through Amazon SES (`email`); none: Cognito's own, 50 emails a day. */
  readonly email?: IdentityEmail;
}

/** `{"from": "no-reply@mail.acme-homes.co.uk", "region": "eu-west-1"}`: an address of an SES-verified domain, and SES's region. */
export interface IdentityEmail {
  readonly from: string;
  /** Where the domain is verified in SES; the identity stack's region when not given. */
  readonly region?: string;
}

const emailOf = (value: unknown): IdentityEmail => {
  const { from, region } = (typeof value === 'object' && value !== null ? value : {}) as Record<
    string,
    unknown
  >;
  if (typeof from !== 'string' || !/^[^@\s]+@[a-z0-9.-]+\.[a-z]{2,}$/.test(from))
    throw new Error(
      `CDK context ${IDENTITY_CONTEXT}.email.from must be an address of an SES-verified domain`,
    );
  if (region !== undefined && (typeof region !== 'string' || !/^[a-z]{2}(-[a-z]+)+-\d$/.test(region)))
    throw new Error(`CDK context ${IDENTITY_CONTEXT}.email.region must be a region name such as eu-west-1`);
  return { from, ...(region !== undefined && { region: region as string }) };
};

/** The context, or an empty one (the identity stack deploys where the CLI's credentials point). */
export const identityContextOf = (scope: Construct): IdentityContext => {
  const value: unknown = contextObject(scope, IDENTITY_CONTEXT) ?? {};
  if (typeof value !== 'object' || value === null)
    throw new Error(`CDK context ${IDENTITY_CONTEXT} must be an object`);
  const { account, region, email } = value as Record<string, unknown>;
  if ((typeof account === 'string') !== (typeof region === 'string'))
    throw new Error(`CDK context ${IDENTITY_CONTEXT} must give both account and region, or neither`);
  return {
    ...(typeof account === 'string' && { account, region: region as string }),
    ...(email !== undefined && { email: emailOf(email) }),
  };
};

/** The identity provider as a stage sees it: SSM values resolved at deployment. */
export interface IdentityProviderReference {
  readonly issuer: string;
  readonly tableName: string;
  readonly tableKeyArn: string;
}

export const identityProviderFromParameters = (scope: Construct): IdentityProviderReference => ({
  issuer: StringParameter.valueForStringParameter(scope, IDENTITY_PARAMETERS.issuer),
  tableName: StringParameter.valueForStringParameter(scope, IDENTITY_PARAMETERS.tableName),
  tableKeyArn: StringParameter.valueForStringParameter(scope, IDENTITY_PARAMETERS.tableKeyArn),
});

const capitalised = (environment: Environment): string =>
  environment.charAt(0).toUpperCase() + environment.slice(1);

/**
 * Gives `fn` one environment's resources under `{ENVIRONMENT}_…` settings (lambdas/hosts/aws/
 * environment-services.ts): the table's endpoint actions and its key, sending to the delivery queue and
 * starting the deliveries' waits (a test event, a redelivery). The bucket is named only: nothing reads it.
 */
export function useNamedEnvironment(
  scope: Construct,
  fn: ServiceFunction,
  environment: Environment,
  resources: Omit<EnvironmentResources, 'frameUrl'>,
): void {
  const name = capitalised(environment);
  const prefix = environment.toUpperCase();
  const table = Table.fromTableAttributes(scope, `${name}Table`, {
    tableName: resources.tableName,
    encryptionKey: Key.fromKeyArn(scope, `${name}TableKey`, resources.tableKeyArn),
  });
  useTable(fn, table, 'endpoint', `${prefix}_TABLE_NAME`);
  fn.addEnvironment(`${prefix}_BLOB_BUCKET`, resources.bucketName);
  fn.addEnvironment(`${prefix}_PAGES_BASE_URL`, resources.pagesBaseUrl);
  Queue.fromQueueArn(scope, `${name}DeliveryQueue`, resources.deliveryQueueArn).grantSendMessages(fn);
  StateMachine.fromStateMachineArn(
    scope,
    `${name}DeliveryWaits`,
    resources.deliveryStateMachineArn,
  ).grantStartExecution(fn);
  fn.addEnvironment(`${prefix}_DELIVERY_QUEUE_URL`, resources.deliveryQueueUrl);
  fn.addEnvironment(`${prefix}_DELIVERY_STATE_MACHINE_ARN`, resources.deliveryStateMachineArn);
}
