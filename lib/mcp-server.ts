// infra -> the MCP server of one environment's API address (decisions.md §10): one function, routed at
// `/mcp` and `/.well-known/oauth-protected-resource/mcp` on the environment's HTTP API (the API's
// CloudFront distribution sends every path there). Its tools act in both environments, so it is given
// both environments' tables and delivery hand-on (no access-token key: it issues and checks no /v1
// token), and the identity provider it trusts
// (its issuer, and the identity table holding people, organisations and grants). This environment's
// resources are the stage's own constructs; the other environment's, and the identity provider's, are
// deployed elsewhere and named in CDK context (`service:mcp`): without that context no MCP server is
// deployed, and the two paths answer the API's 404.
import { type HttpApi, HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Table } from 'aws-cdk-lib/aws-dynamodb';
import { type IQueue, Queue } from 'aws-cdk-lib/aws-sqs';
import { type IStateMachine, StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { ENVIRONMENTS } from '../lambdas/core/model';
import type { BaseUrls, Environment } from './environments';
import { ServiceFunction } from './service-function';
import type { HostResources } from './wiring';

/** The CDK context key naming the identity provider and the other environment's resources. */
export const MCP_CONTEXT = 'service:mcp';

/** The two paths the function answers on the API address. */
export const MCP_ROUTES = ['/mcp', '/.well-known/oauth-protected-resource/mcp'] as const;

/** What the MCP server reaches of one environment, by name and ARN. */
export interface McpEnvironmentResources {
  readonly tableName: string;
  readonly bucketName: string;
  readonly pagesBaseUrl: string;
  readonly deliveryQueueArn: string;
  readonly deliveryQueueUrl: string;
  readonly deliveryStateMachineArn: string;
}

/** The identity provider the MCP server trusts, deployed beside the stages. */
export interface McpIdentityProvider {
  /** Its issuer identifier (https); the JWKS is at `{issuer}/jwks`. */
  readonly issuer: string;
  readonly tableName: string;
}

export interface McpServerProps {
  /** The environment whose API address serves this MCP server. */
  readonly environment: Environment;
  readonly baseUrls: BaseUrls;
  readonly httpApi: HttpApi;
  readonly identityProvider: McpIdentityProvider;
  readonly environments: Readonly<Record<Environment, McpEnvironmentResources>>;
}

/** `service:mcp` as written in context: the identity provider, and each environment's resources. */
interface McpContext {
  identityProvider?: McpIdentityProvider;
  environments?: Partial<Record<Environment, McpEnvironmentResources>>;
}

/**
 * The identity provider and the other environment's resources named in context, with this environment's
 * own; undefined (no MCP server) when the context does not name them.
 */
export const mcpResourcesFromContext = (
  scope: Construct,
  environment: Environment,
  own: McpEnvironmentResources,
): Pick<McpServerProps, 'identityProvider' | 'environments'> | undefined => {
  const context = scope.node.tryGetContext(MCP_CONTEXT) as McpContext | undefined;
  const other = ENVIRONMENTS.find((e) => e !== environment) as Environment;
  const theirs = context?.environments?.[other];
  if (!context?.identityProvider || !theirs) return undefined;
  if (!context.identityProvider.issuer.startsWith('https://'))
    throw new Error(`CDK context ${MCP_CONTEXT}.identityProvider.issuer must be an https URL`);
  return {
    identityProvider: context.identityProvider,
    environments: { [environment]: own, [other]: theirs } as Record<Environment, McpEnvironmentResources>,
  };
};

export class McpServer extends Construct {
  readonly function: ServiceFunction;

  constructor(scope: Construct, id: string, props: McpServerProps) {
    super(scope, id);
    const fn = new ServiceFunction(this, 'Function', {
      entry: 'lambdas/hosts/aws/functions/mcp.ts',
      description: `MCP server at ${props.baseUrls[props.environment]}/mcp`,
    });
    fn.addEnvironment('SERVICE_ENVIRONMENT', props.environment);
    fn.addEnvironment('IDENTITY_ISSUER', props.identityProvider.issuer);
    fn.addEnvironment('IDENTITY_TABLE_NAME', props.identityProvider.tableName);
    // People, organisations, integrations and grants: read and written (organisations, integrations).
    Table.fromTableAttributes(this, 'IdentityTable', {
      tableName: props.identityProvider.tableName,
      grantIndexPermissions: true,
    }).grantReadWriteData(fn);
    for (const environment of ENVIRONMENTS) {
      const resources = props.environments[environment];
      const prefix = environment.toUpperCase();
      const name = environment.charAt(0).toUpperCase() + environment.slice(1);
      fn.addEnvironment(`${prefix}_BASE_URL`, props.baseUrls[environment]);
      fn.addEnvironment(`${prefix}_TABLE_NAME`, resources.tableName);
      // Named only: no tool reads or writes a blob.
      fn.addEnvironment(`${prefix}_BLOB_BUCKET`, resources.bucketName);
      fn.addEnvironment(`${prefix}_PAGES_BASE_URL`, resources.pagesBaseUrl);
      fn.addEnvironment(`${prefix}_DELIVERY_QUEUE_URL`, resources.deliveryQueueUrl);
      fn.addEnvironment(`${prefix}_DELIVERY_STATE_MACHINE_ARN`, resources.deliveryStateMachineArn);
      Table.fromTableAttributes(this, `${name}Table`, {
        tableName: resources.tableName,
        grantIndexPermissions: true,
      }).grantReadWriteData(fn);
      // A test event and a redelivery hand their message on, as the portal's do.
      Queue.fromQueueArn(this, `${name}DeliveryQueue`, resources.deliveryQueueArn).grantSendMessages(fn);
      StateMachine.fromStateMachineArn(
        this,
        `${name}DeliveryWaits`,
        resources.deliveryStateMachineArn,
      ).grantStartExecution(fn);
    }
    const integration = new HttpLambdaIntegration('McpIntegration', fn);
    for (const path of MCP_ROUTES) props.httpApi.addRoutes({ path, methods: [HttpMethod.ANY], integration });
    this.function = fn;
  }
}

/** What `addMcpServer` takes of a stateless stack: its environment's resources and the constructs it made. */
export interface McpHostStack {
  readonly resources: HostResources;
  readonly httpApi: HttpApi;
  readonly deliveryQueue: IQueue;
  readonly deliveryStateMachine: IStateMachine;
}

/** The stateless stack's hook: its MCP server, when context names what it needs (else undefined). */
export const addMcpServer = (scope: Construct, stack: McpHostStack): McpServer | undefined => {
  const { resources } = stack;
  const named = mcpResourcesFromContext(scope, resources.environment, {
    tableName: resources.table.tableName,
    bucketName: resources.blobBucket.bucketName,
    pagesBaseUrl: resources.pagesBaseUrl,
    deliveryQueueArn: stack.deliveryQueue.queueArn,
    deliveryQueueUrl: stack.deliveryQueue.queueUrl,
    deliveryStateMachineArn: stack.deliveryStateMachine.stateMachineArn,
  });
  if (!named) return undefined;
  return new McpServer(scope, 'Mcp', {
    environment: resources.environment,
    baseUrls: resources.baseUrls,
    httpApi: stack.httpApi,
    ...named,
  });
};
