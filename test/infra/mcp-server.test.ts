// infra -> the MCP server's function (lib/mcp-server.ts) in a stack of its own, as each stage's shared
// stack adds it (lib/shared-stack.ts): the two routes on the HTTP API, the settings
// lambdas/hosts/aws/mcp-services.ts reads (the identity provider's from the identity stack's SSM
// parameters), and exactly the access its tools need in both environments.
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { ENVIRONMENTS } from '../../lambdas/core/model';
import { IDENTITY_PARAMETERS, identityProviderFromParameters } from '../../lib/identity-context';
import { McpServer } from '../../lib/mcp-server';
import { namedEnvironment } from './synth';
import { testApp } from './test-app';

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
/** Whether an Allow statement grants `action` on a resource whose rendering is or holds `resource`. */
const grants = (statements: Statement[], action: string, resource: string): boolean =>
  statements.some(
    (statement) =>
      statement.Effect === 'Allow' &&
      actionsOf(statement).includes(action) &&
      [statement.Resource].flat().some((r) => r === resource || JSON.stringify(r).includes(resource)),
  );

const account = '111111111111';
const baseUrls = { sandbox: 'https://sandbox.api.example.com', production: 'https://api.example.com' };

/** The logical id of the template parameter holding the SSM parameter `name`'s value. */
const parameterOf = (template: Template, name: string): string => {
  const parameters = (template.toJSON() as { Parameters: Record<string, { Type: string; Default?: string }> })
    .Parameters;
  const found = Object.entries(parameters).find(([, p]) => p.Default === name);
  if (!found) throw new Error(`no template parameter reads ${name}`);
  expect(found[1].Type).toBe('AWS::SSM::Parameter::Value<String>');
  return found[0];
};

test('the function: routes, settings, and access to both environments and the identity table', () => {
  // Not bundled: nothing here reads the function's code.
  const app = testApp({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'Mcp', { env: { account, region: 'eu-west-1' } });
  const httpApi = new HttpApi(stack, 'Api');
  const mcp = new McpServer(stack, 'Mcp', {
    environment: 'sandbox',
    baseUrls,
    httpApi,
    identityProvider: identityProviderFromParameters(stack),
    environments: { sandbox: namedEnvironment('sandbox'), production: namedEnvironment('production') },
  });
  const template = Template.fromStack(stack);

  const routes = Object.values(resources(template))
    .filter((r) => r.Type === 'AWS::ApiGatewayV2::Route')
    .map((r) => r.Properties?.RouteKey);
  expect(routes.sort()).toEqual(['ANY /.well-known/oauth-protected-resource/mcp', 'ANY /mcp']);

  const fn = resources(template)[stack.getLogicalId(mcp.function.node.defaultChild as never)];
  if (!fn?.Properties) throw new Error('no MCP function in the template');
  const variables = (fn.Properties.Environment as { Variables: Record<string, string> }).Variables;
  const issuer = parameterOf(template, IDENTITY_PARAMETERS.issuer);
  const identityTable = parameterOf(template, IDENTITY_PARAMETERS.tableName);
  const identityKey = parameterOf(template, IDENTITY_PARAMETERS.tableKeyArn);
  expect(variables).toMatchObject({
    SERVICE_ENVIRONMENT: 'sandbox',
    IDENTITY_ISSUER: { Ref: issuer },
    IDENTITY_TABLE_NAME: { Ref: identityTable },
  });
  for (const environment of ENVIRONMENTS) {
    const prefix = environment.toUpperCase();
    const own = namedEnvironment(environment);
    expect(variables).toMatchObject({
      [`${prefix}_BASE_URL`]: baseUrls[environment],
      [`${prefix}_TABLE_NAME`]: own.tableName,
      [`${prefix}_BLOB_BUCKET`]: own.bucketName,
      [`${prefix}_PAGES_BASE_URL`]: own.pagesBaseUrl,
      [`${prefix}_DELIVERY_QUEUE_URL`]: own.deliveryQueueUrl,
      [`${prefix}_DELIVERY_STATE_MACHINE_ARN`]: own.deliveryStateMachineArn,
    });
  }

  const role = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const statements = statementsOfRole(template, role);
  for (const table of [{ Ref: identityTable }, 'service-sandbox', 'service-production']) {
    const at = typeof table === 'string' ? `table/${table}` : JSON.stringify(table);
    expect(grants(statements, 'dynamodb:PutItem', at)).toBe(true);
    expect(grants(statements, 'dynamodb:Query', typeof table === 'string' ? `${at}/index/gsi1` : at)).toBe(
      true,
    );
  }
  // Never a scan, nor a table-wide action the adapters do not use.
  expect(
    statements
      .flatMap(actionsOf)
      .filter(
        (a) =>
          a.startsWith('dynamodb:') &&
          !/^dynamodb:(GetItem|BatchGetItem|Query|PutItem|UpdateItem|BatchWriteItem|DeleteItem)$/.test(a),
      ),
  ).toEqual([]);
  expect(grants(statements, 'kms:Decrypt', JSON.stringify({ Ref: identityKey }))).toBe(true);
  for (const environment of ENVIRONMENTS) {
    const own = namedEnvironment(environment);
    expect(grants(statements, 'kms:Decrypt', own.tableKeyArn)).toBe(true);
    expect(grants(statements, 'sqs:SendMessage', own.deliveryQueueArn)).toBe(true);
    expect(grants(statements, 'states:StartExecution', own.deliveryStateMachineArn)).toBe(true);
  }
  // No blob access, no secret (it issues and checks no /v1 token), nothing beyond DynamoDB, the queues and the waits (and tracing).
  const actions = statements.flatMap(actionsOf);
  expect(actions.some((action) => action.startsWith('s3:'))).toBe(false);
  expect(actions.filter((a) => !/^(dynamodb|kms|sqs|states|xray):/.test(a))).toEqual([]);
});
