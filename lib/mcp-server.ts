// infra -> the MCP server of one environment's API address (decisions.md §10): one function, routed at
// `/mcp` and `/.well-known/oauth-protected-resource/mcp` on the environment's HTTP API (the API's
// CloudFront distribution sends every path there). Its tools act in both environments, so it is given
// both environments' tables and delivery hand-on (no access-token key: it issues and checks no /v1
// token), and the identity provider it trusts: the identity stack's issuer and identity table, read from
// that stack's SSM parameters at deployment (lib/identity-context.ts), as both environments' resources are
// read from theirs. It lives in the stage's shared stack (lib/shared-stack.ts), deployed after the identity
// stack; until then the two paths answer the API's 404.
import {
  HttpAuthorizer,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  type IHttpApi,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { ENVIRONMENTS } from '../lambdas/core/model';
import { acknowledgeFindings } from './checks';
import type { BaseUrls, Environment } from './environments';
import {
  type EnvironmentResources,
  type IdentityProviderReference,
  useNamedEnvironment,
} from './identity-context';
import { ServiceFunction } from './service-function';
import { useTable } from './wiring';

/** The two paths the function answers on the API address. */
export const MCP_ROUTES = ['/mcp', '/.well-known/oauth-protected-resource/mcp'] as const;

/** What the MCP server reaches of one environment (the portal's needs less its frame address). */
export type McpEnvironmentResources = Omit<EnvironmentResources, 'frameUrl'>;

export interface McpServerProps {
  /** The environment whose API address serves this MCP server. */
  readonly environment: Environment;
  readonly baseUrls: BaseUrls;
  readonly httpApi: IHttpApi;
  /**
   * The API's origin authorizer, where its `execute-api` address stays on (no hosted zone): the MCP routes
   * then admit only CloudFront, as the API's own do (lib/origin-protection.ts).
   */
  readonly originAuthorizerId?: string;
  readonly identityProvider: IdentityProviderReference;
  readonly environments: Readonly<Record<Environment, McpEnvironmentResources>>;
}

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
    const authorizer =
      props.originAuthorizerId === undefined
        ? undefined
        : HttpAuthorizer.fromHttpAuthorizerAttributes(this, 'OriginSecret', {
            authorizerId: props.originAuthorizerId,
            // The route's authorization type (an imported authorizer's binding answers it): a Lambda's.
            authorizerType: 'CUSTOM',
          });
    for (const [index, path] of MCP_ROUTES.entries())
      new HttpRoute(this, `Route${index}`, {
        httpApi: props.httpApi,
        routeKey: HttpRouteKey.with(path, HttpMethod.ANY),
        integration,
        ...(authorizer && { authorizer }),
      });
    acknowledgeFindings(
      this,
      /AwsSolutions-APIG4/,
      'The MCP server authenticates its calls itself (OAuth access tokens of the identity provider) and answers in the MCP error shape; an authorizer would answer in API Gateway’s.',
    );
    this.function = fn;
  }
}
