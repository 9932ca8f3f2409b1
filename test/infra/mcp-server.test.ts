// infra -> the MCP server's function (lib/mcp-server.ts) in a stack of its own, as the stateless stack
// adds it when context names the identity provider and the other environment: the two routes on the
// HTTP API, the settings lambdas/hosts/aws/mcp-services.ts reads, and exactly the access its tools need
// in both environments; without that context, no MCP server.
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { ENVIRONMENTS } from '../../lambdas/core/model';
import {
  MCP_CONTEXT,
  type McpEnvironmentResources,
  McpServer,
  mcpResourcesFromContext,
} from '../../lib/mcp-server';

// Not ./synth's helpers: importing it builds the sign-up form's files, which this stack does not need.
type Statement = { Effect: string; Action: string | string[]; Resource: unknown };
type Resource = { Type: string; Properties?: Record<string, unknown> };
const resources = (template: Template) =>
  (template.toJSON() as { Resources: Record<string, Resource> }).Resources;
const actionsOf = (statement: Statement): string[] =>
  Array.isArray(statement.Action) ? statement.Action : [statement.Action];
const statementsOfRole = (template: Template, role: string): Statement[] =>
  Object.values(template.findResources('AWS::IAM::Policy')).flatMap((policy) =>
    JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: role }])
      ? (policy.Properties.PolicyDocument.Statement as Statement[])
      : [],
  );
/** Whether an Allow statement grants `action` on a resource whose rendering ends with `resource`. */
const grants = (statements: Statement[], action: string, resource: string): boolean =>
  statements.some(
    (statement) =>
      statement.Effect === 'Allow' &&
      actionsOf(statement).includes(action) &&
      [statement.Resource]
        .flat()
        .some((r) => JSON.stringify(r).endsWith(`${resource}"]]}`) || r === resource),
  );

const account = '111111111111';
const named = (environment: string): McpEnvironmentResources => ({
  tableName: `service-${environment}`,
  bucketName: `blobs-${environment}`,
  signingSecretArn: `arn:aws:secretsmanager:eu-west-1:${account}:secret:signing-${environment}-AbCdEf`,
  pagesBaseUrl: `https://pages-${environment}.example.com`,
  deliveryQueueArn: `arn:aws:sqs:eu-west-1:${account}:delivery-${environment}`,
  deliveryQueueUrl: `https://sqs.eu-west-1.amazonaws.com/${account}/delivery-${environment}`,
  deliveryStateMachineArn: `arn:aws:states:eu-west-1:${account}:stateMachine:delivery-${environment}`,
});
const identityProvider = { issuer: 'https://id.example.com', tableName: 'service-identity' };
const baseUrls = { sandbox: 'https://sandbox.api.example.com', production: 'https://api.example.com' };

test('without context naming the identity provider and the other environment, no MCP server', () => {
  const stack = new Stack(new App(), 'Bare');
  expect(mcpResourcesFromContext(stack, 'sandbox', named('sandbox'))).toBeUndefined();
  const half = new Stack(new App({ context: { [MCP_CONTEXT]: { identityProvider } } }), 'Half');
  expect(mcpResourcesFromContext(half, 'sandbox', named('sandbox'))).toBeUndefined();
});

test('the function: routes, settings, and access to both environments and the identity table', () => {
  const app = new App({
    context: { [MCP_CONTEXT]: { identityProvider, environments: { production: named('production') } } },
  });
  const stack = new Stack(app, 'Mcp', { env: { account, region: 'eu-west-1' } });
  const httpApi = new HttpApi(stack, 'Api');
  const resolved = mcpResourcesFromContext(stack, 'sandbox', named('sandbox'));
  expect(resolved).toEqual({
    identityProvider,
    environments: { sandbox: named('sandbox'), production: named('production') },
  });
  if (!resolved) throw new Error('unreachable');
  const mcp = new McpServer(stack, 'Mcp', { environment: 'sandbox', baseUrls, httpApi, ...resolved });
  const template = Template.fromStack(stack);

  const routes = Object.values(resources(template))
    .filter((r) => r.Type === 'AWS::ApiGatewayV2::Route')
    .map((r) => r.Properties?.RouteKey);
  expect(routes.sort()).toEqual(['ANY /.well-known/oauth-protected-resource/mcp', 'ANY /mcp']);

  const fn = resources(template)[stack.getLogicalId(mcp.function.node.defaultChild as never)];
  if (!fn?.Properties) throw new Error('no MCP function in the template');
  const variables = (fn.Properties.Environment as { Variables: Record<string, string> }).Variables;
  expect(variables).toMatchObject({
    SERVICE_ENVIRONMENT: 'sandbox',
    IDENTITY_ISSUER: identityProvider.issuer,
    IDENTITY_TABLE_NAME: identityProvider.tableName,
  });
  for (const environment of ENVIRONMENTS) {
    const prefix = environment.toUpperCase();
    const own = named(environment);
    expect(variables).toMatchObject({
      [`${prefix}_BASE_URL`]: baseUrls[environment],
      [`${prefix}_TABLE_NAME`]: own.tableName,
      [`${prefix}_BLOB_BUCKET`]: own.bucketName,
      [`${prefix}_SIGNING_SECRET_ARN`]: own.signingSecretArn,
      [`${prefix}_PAGES_BASE_URL`]: own.pagesBaseUrl,
      [`${prefix}_DELIVERY_QUEUE_URL`]: own.deliveryQueueUrl,
      [`${prefix}_DELIVERY_STATE_MACHINE_ARN`]: own.deliveryStateMachineArn,
    });
  }

  const role = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const statements = statementsOfRole(template, role);
  for (const table of ['service-identity', 'service-sandbox', 'service-production']) {
    expect(grants(statements, 'dynamodb:PutItem', `table/${table}`)).toBe(true);
    expect(grants(statements, 'dynamodb:Query', `table/${table}/index/*`)).toBe(true);
  }
  for (const environment of ENVIRONMENTS) {
    const own = named(environment);
    expect(grants(statements, 'secretsmanager:GetSecretValue', own.signingSecretArn)).toBe(true);
    expect(grants(statements, 'sqs:SendMessage', own.deliveryQueueArn)).toBe(true);
    expect(grants(statements, 'states:StartExecution', own.deliveryStateMachineArn)).toBe(true);
  }
  // No blob access, and nothing beyond DynamoDB, the two secrets, the queues and the waits (and tracing).
  const actions = statements.flatMap(actionsOf);
  expect(actions.some((action) => action.startsWith('s3:'))).toBe(false);
  expect(actions.filter((a) => !/^(dynamodb|secretsmanager|sqs|states|xray):/.test(a))).toEqual([]);
});
