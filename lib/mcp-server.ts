// infra -> the MCP server of one environment's API address (decisions.md §10): one function, routed at
// `/mcp` and `/.well-known/oauth-protected-resource/mcp` on the environment's HTTP API (the API's
// CloudFront distribution sends every path there). Its tools act in both environments, so it is given
// both environments' tables and delivery hand-on (no access-token key: it issues and checks no /v1
// token), and the identity provider it trusts: the identity stack's issuer and identity table, read from
// that stack's SSM parameters at deployment (lib/identity-context.ts). This environment's resources are
// the stage's own constructs; the other environment's are named in CDK context (`service:identity`):
// without them no MCP server is deployed, and the two paths answer the API's 404.
import { type HttpApi, HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { ENVIRONMENTS } from '../lambdas/core/model';
import type { BaseUrls, Environment } from './environments';
import {
  type EnvironmentResources,
  type IdentityProviderReference,
  identityContextOf,
  identityProviderFromParameters,
  useNamedEnvironment,
} from './identity-context';
import { ServiceFunction } from './service-function';
import { type HostResources, useTable } from './wiring';

/** The two paths the function answers on the API address. */
export const MCP_ROUTES = ['/mcp', '/.well-known/oauth-protected-resource/mcp'] as const;

/** What the MCP server reaches of one environment (the portal's needs less its frame address). */
export type McpEnvironmentResources = Omit<EnvironmentResources, 'frameUrl'>;

export interface McpServerProps {
  /** The environment whose API address serves this MCP server. */
  readonly environment: Environment;
  readonly baseUrls: BaseUrls;
  readonly httpApi: HttpApi;
  readonly identityProvider: IdentityProviderReference;
  readonly environments: Readonly<Record<Environment, McpEnvironmentResources>>;
}

/**
 * The other environment's resources named in context, with this environment's own, and the identity
 * stack's parameters; undefined (no MCP server) when the context does not name the other environment.
 */
export const mcpResourcesFromContext = (
  scope: Construct,
  environment: Environment,
  own: McpEnvironmentResources,
): Pick<McpServerProps, 'identityProvider' | 'environments'> | undefined => {
  const other = ENVIRONMENTS.find((e) => e !== environment) as Environment;
  const theirs = identityContextOf(scope)?.environments?.[other];
  if (!theirs) return undefined;
  return {
    identityProvider: identityProviderFromParameters(scope),
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
    // People, organisations, integrations and grants: read and written (organisations, integrations).
    const identityTable = Table.fromTableAttributes(this, 'IdentityTable', {
      tableName: props.identityProvider.tableName,
      encryptionKey: Key.fromKeyArn(this, 'IdentityTableKey', props.identityProvider.tableKeyArn),
    });
    useTable(fn, identityTable, 'endpoint', 'IDENTITY_TABLE_NAME');
    for (const environment of ENVIRONMENTS) {
      fn.addEnvironment(`${environment.toUpperCase()}_BASE_URL`, props.baseUrls[environment]);
      useNamedEnvironment(this, fn, environment, props.environments[environment]);
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

/** The stateless stack's hook: its MCP server, when context names the other environment (else undefined). */
export const addMcpServer = (scope: Construct, stack: McpHostStack): McpServer | undefined => {
  const { resources } = stack;
  const tableKey = resources.table.encryptionKey;
  if (!tableKey) throw new Error("the environment's table has no key of its own");
  const named = mcpResourcesFromContext(scope, resources.environment, {
    tableName: resources.table.tableName,
    tableKeyArn: tableKey.keyArn,
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
