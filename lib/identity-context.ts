// infra -> what lies between the shared identity stack and the two stages, which CDK cannot reference
// across (each stage is an assembly of its own): the identity stack publishes its issuer and identity
// table in SSM parameters that the stages' MCP servers read at deployment; each environment's resources,
// which the portal (in the identity stack) and the other stage's MCP server use, are named in CDK context
// (`service:identity`, README "Deploying"). Its presence is what adds the identity stack.
import { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { ENVIRONMENTS } from '../lambdas/core/model';
import type { Environment } from './environments';
import type { ServiceFunction } from './service-function';
import { useTable } from './wiring';

/** The CDK context key that adds the identity stack and names each environment's resources. */
export const IDENTITY_CONTEXT = 'service:identity';

/** The identity stack's SSM parameters, read by the stages (same account and region). */
export const IDENTITY_PARAMETERS = {
  issuer: '/contract-service/identity/issuer',
  tableName: '/contract-service/identity/table-name',
  tableKeyArn: '/contract-service/identity/table-key-arn',
} as const;

/** What the portal and the MCP servers reach of one environment, by name and ARN (its stage's outputs). */
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

/** `service:identity` as written in context. */
export interface IdentityContext {
  readonly account?: string;
  readonly region?: string;
  readonly environments?: Partial<Record<Environment, EnvironmentResources>>;
}

/** The context, or undefined when there is none (no identity stack, no portal, no MCP server). */
export const identityContextOf = (scope: Construct): IdentityContext | undefined => {
  const value: unknown = scope.node.tryGetContext(IDENTITY_CONTEXT);
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null)
    throw new Error(`CDK context ${IDENTITY_CONTEXT} must be an object`);
  const context = value as IdentityContext;
  for (const environment of ENVIRONMENTS) {
    const named = context.environments?.[environment];
    if (!named) continue;
    for (const [name, url] of Object.entries({ pagesBaseUrl: named.pagesBaseUrl, frameUrl: named.frameUrl }))
      if (typeof url !== 'string' || !url.startsWith('https://'))
        throw new Error(
          `CDK context ${IDENTITY_CONTEXT}.environments.${environment}.${name} must be an https URL`,
        );
  }
  return context;
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
