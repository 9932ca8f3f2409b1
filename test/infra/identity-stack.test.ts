// infra -> the whole app with the shared identity stack (lib/identity-stack.ts), as `cdk synth` builds it:
// cdk-nag clean, each environment's resources read from its stage's SSM parameters, the identity table
// retained and granted only to the identity provider, the portal's and the back office's backends and the
// two MCP servers (in the stages' shared stacks), the portal's bucket private behind origin access control,
// the portal's client secret read by its backend and the provider alone, HSTS on the new distributions, the
// SSM parameters the stages read, and the Cognito user pool people sign in at (the provider's upstream).
// The back office's own part is test/infra/back-office.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { TTL_ATTRIBUTE } from '../../lambdas/adapters/dynamodb/table-schema';
import { ENVIRONMENTS } from '../../lambdas/core/model';
import { UPSTREAM_CALLBACK_PATH } from '../../lambdas/core/settings';
import { EdgeStack } from '../../lib/edge-stack';
import { baseUrlsFromContext } from '../../lib/environments';
import {
  environmentParameter,
  IDENTITY_PARAMETERS,
  type IdentityEmail,
  identityContextOf,
} from '../../lib/identity-context';
import { type IdentityAssets, IdentityStack } from '../../lib/identity-stack';
import { PORTAL_BACKEND_PATHS } from '../../lib/portal-site';
import type { IdentityStacks } from '../../lib/service-app';
import { openExecuteApis } from '../../lib/template-checks';
import {
  actionsOf,
  cdkJsonContext,
  logicalIdOf,
  type PolicyStatement,
  resources,
  SYNTH_DEADLINE_MS,
  type SynthesisedApp,
  synthServiceApp,
  templateOf,
} from './synth';
import { testApp } from './test-app';

let synthesised: SynthesisedApp;
let identity: IdentityStack;
let added: IdentityStacks;
let template: Template;
let identityAssets: IdentityAssets;

beforeAll(async () => {
  // No function's code is read here: nothing is bundled. The synthesis runs cdk-nag (lib/checks.ts): an
  // unacknowledged finding anywhere throws here.
  synthesised = await synthServiceApp({ bundle: 'none', identity: true });
  added = synthesised.identity as IdentityStacks;
  identityAssets = synthesised.identityAssets as IdentityAssets;
  identity = added.identity;
  template = templateOf(identity);
}, SYNTH_DEADLINE_MS);

afterAll(() => synthesised?.cleanUp());

type Policy = { Properties: { Roles: unknown[]; PolicyDocument: { Statement: PolicyStatement[] } } };

/** The roles (their rendering) of every policy with an Allow statement on a resource mentioning `needle`. */
const rolesGranted = (of: Template, needle: string, action?: string): string[] =>
  Object.values(of.findResources('AWS::IAM::Policy') as Record<string, Policy>)
    .filter((policy) =>
      policy.Properties.PolicyDocument.Statement.some(
        (statement) =>
          statement.Effect === 'Allow' &&
          JSON.stringify(statement.Resource).includes(needle) &&
          (action === undefined || actionsOf(statement).includes(action)),
      ),
    )
    .flatMap((policy) => policy.Properties.Roles.map((role) => JSON.stringify(role)))
    .sort();

const roleOf = (stack: Stack, fn: { role?: unknown; node: { defaultChild?: unknown } }): string => {
  const role = (fn as { role: { node: { defaultChild: unknown } } }).role;
  return JSON.stringify({ Ref: logicalIdOf(stack, role) });
};

it('keeps the identity table: retained, deletion-protected, point-in-time recovery, its own key, TTL on', () => {
  const tableId = logicalIdOf(identity, identity.table);
  const table = (template.toJSON() as { Resources: Record<string, Record<string, unknown>> }).Resources[
    tableId
  ];
  expect(table).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  expect(table?.Properties).toMatchObject({
    DeletionProtectionEnabled: true,
    PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    SSESpecification: { SSEEnabled: true, SSEType: 'KMS' },
    TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
  });
});

it('grants the identity table to the identity provider and the portal’s and back office’s backends only, in its stack', () => {
  const tableId = logicalIdOf(identity, identity.table);
  const expected = [
    roleOf(identity, identity.provider),
    roleOf(identity, identity.portal.backend),
    roleOf(identity, identity.backOffice.backend),
  ].sort();
  expect(rolesGranted(template, tableId)).toEqual(expected);
  expect(rolesGranted(template, tableId, 'dynamodb:Scan')).toEqual([]);
});

/** `{"Ref":"<the template parameter reading SSM parameter name>"}`, as it renders in a statement. */
const ssmRef = (of: Template, name: string): string => {
  const parameters = (of.toJSON() as { Parameters: Record<string, { Type: string; Default?: string }> })
    .Parameters;
  const parameter = Object.entries(parameters).find(([, p]) => p.Default === name);
  if (!parameter) throw new Error(`no template parameter reads ${name}`);
  expect(parameter[1].Type).toBe('AWS::SSM::Parameter::Value<String>');
  return JSON.stringify({ Ref: parameter[0] });
};

it('in the stages, grants the identity table (by its SSM parameter) to the MCP server alone, in the shared stack', () => {
  for (const environment of ENVIRONMENTS) {
    const stack = added.shared[environment];
    const shared = templateOf(stack);
    const tableRef = ssmRef(shared, IDENTITY_PARAMETERS.tableName);
    expect(rolesGranted(shared, tableRef)).toEqual([roleOf(stack, stack.mcp.function)]);
    // The stateless stack, deployed before the identity stack, reads none of its parameters.
    const stateless = templateOf(added.shared[environment].node.scope?.node.findChild('Stateless') as Stack);
    expect(JSON.stringify(stateless.toJSON().Parameters ?? {})).not.toContain('/contract-service/identity/');
  }
});

it('lets only the portal’s backend and the identity provider read the portal’s client secret', () => {
  const secretId = logicalIdOf(identity, identity.portalClientSecret);
  const readers = [roleOf(identity, identity.provider), roleOf(identity, identity.portal.backend)].sort();
  expect(rolesGranted(template, secretId, 'secretsmanager:GetSecretValue')).toEqual(readers);
  // The provider's own keys: the provider alone, which writes its signing keys once.
  const keysId = logicalIdOf(identity, identity.providerKeys);
  expect(rolesGranted(template, keysId)).toEqual([roleOf(identity, identity.provider)]);
});

it('keeps the portal’s files in a private bucket that only its distribution reads (origin access control)', () => {
  const bucketId = logicalIdOf(identity, identity.portal.bucket);
  const bucket = resources(template)[bucketId];
  expect(bucket?.Properties?.PublicAccessBlockConfiguration).toEqual({
    BlockPublicAcls: true,
    BlockPublicPolicy: true,
    IgnorePublicAcls: true,
    RestrictPublicBuckets: true,
  });
  const distributionId = logicalIdOf(identity, identity.portal.distribution);
  const policy = Object.values(template.findResources('AWS::S3::BucketPolicy')).find(
    (candidate) => JSON.stringify(candidate.Properties.Bucket) === JSON.stringify({ Ref: bucketId }),
  );
  const statements = policy?.Properties.PolicyDocument.Statement as Array<Record<string, unknown>>;
  // Nobody reads the files but CloudFront (the other Allow is CDK's emptying of the bucket on deletion).
  expect(JSON.stringify(statements)).not.toContain('"Principal":"*"');
  const reads = statements.filter(
    (statement) => statement.Effect === 'Allow' && [statement.Action].flat().includes('s3:GetObject'),
  );
  expect(reads).toHaveLength(1);
  expect(reads[0]).toMatchObject({
    Action: 's3:GetObject',
    Principal: { Service: 'cloudfront.amazonaws.com' },
  });
  expect(JSON.stringify(reads[0]?.Condition)).toContain(distributionId);
  const config = resources(template)[distributionId]?.Properties?.DistributionConfig as {
    Origins: Array<{ S3OriginConfig?: unknown; OriginAccessControlId?: unknown }>;
    CacheBehaviors: Array<{ PathPattern: string }>;
  };
  const s3Origins = config.Origins.filter((origin) => origin.S3OriginConfig);
  expect(s3Origins).toHaveLength(1);
  expect(s3Origins[0]?.OriginAccessControlId).toBeDefined();
  expect(config.CacheBehaviors.map((behaviour) => behaviour.PathPattern).sort()).toEqual(
    [...PORTAL_BACKEND_PATHS].sort(),
  );
});

it('sends HSTS on every behaviour of the identity provider’s, the portal’s and the back office’s distributions, behind the web ACL', () => {
  const distributions = Object.values(template.findResources('AWS::CloudFront::Distribution'));
  expect(distributions).toHaveLength(3);
  const policies = template.findResources('AWS::CloudFront::ResponseHeadersPolicy');
  for (const distribution of distributions) {
    const config = distribution.Properties.DistributionConfig;
    expect(config.WebACLId).toBeDefined();
    for (const behaviour of [config.DefaultCacheBehavior, ...(config.CacheBehaviors ?? [])]) {
      const policy = policies[behaviour.ResponseHeadersPolicyId?.Ref as string];
      expect(
        policy?.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.StrictTransportSecurity,
      ).toMatchObject({ AccessControlMaxAgeSec: 31536000, IncludeSubdomains: true, Override: true });
    }
  }
});

it('gives the portal’s backend each environment’s table, delivery queue and waits, and the provider its settings', () => {
  const backendRole = roleOf(identity, identity.portal.backend);
  // The back office's backend has the tables too (test/infra/back-office.test.ts lists its grants).
  const tableUsers = [backendRole, roleOf(identity, identity.backOffice.backend)].sort();
  for (const environment of ENVIRONMENTS) {
    const own = (field: Parameters<typeof environmentParameter>[1]) =>
      ssmRef(template, environmentParameter(environment, field));
    expect(rolesGranted(template, own('tableName'), 'dynamodb:PutItem')).toEqual(tableUsers);
    expect(rolesGranted(template, own('tableKeyArn'), 'kms:Decrypt')).toEqual(tableUsers);
    expect(rolesGranted(template, own('deliveryQueueArn'), 'sqs:SendMessage')).toEqual([backendRole]);
    expect(rolesGranted(template, own('deliveryStateMachineArn'), 'states:StartExecution')).toEqual([
      backendRole,
    ]);
  }
  const provider = resources(template)[logicalIdOf(identity, identity.provider)];
  const environment = provider?.Properties?.Environment as { Variables: Record<string, unknown> } | undefined;
  const variables = environment?.Variables ?? {};
  expect(Object.keys(variables).sort()).toEqual(
    [
      'IDENTITY_ISSUER',
      'IDENTITY_TABLE_NAME',
      'PORTAL_CLIENT_SECRET_ARN',
      'PORTAL_URL',
      'PRODUCTION_BASE_URL',
      'PROVIDER_KEYS_SECRET_ARN',
      'SANDBOX_BASE_URL',
      'UPSTREAM_CLIENT_ID',
      'UPSTREAM_CLIENT_SECRET_ARN',
      'UPSTREAM_ISSUER',
    ].sort(),
  );
  // What lambdas/hosts/aws/portal-services.ts reads, each environment's under its prefix.
  const backend = resources(template)[logicalIdOf(identity, identity.portal.backend)];
  const backendEnvironment = backend?.Properties?.Environment as
    | { Variables: Record<string, unknown> }
    | undefined;
  const perEnvironment = [
    'BASE_URL',
    'TABLE_NAME',
    'BLOB_BUCKET',
    'PAGES_BASE_URL',
    'FRAME_URL',
    'DELIVERY_QUEUE_URL',
    'DELIVERY_STATE_MACHINE_ARN',
  ];
  expect(Object.keys(backendEnvironment?.Variables ?? {}).sort()).toEqual(
    [
      'IDENTITY_ISSUER',
      'IDENTITY_TABLE_NAME',
      'PORTAL_CLIENT_SECRET_ARN',
      'PORTAL_URL',
      ...ENVIRONMENTS.flatMap((environment) =>
        perEnvironment.map((name) => `${environment.toUpperCase()}_${name}`),
      ),
    ].sort(),
  );
  const parameters = Object.values(template.findResources('AWS::SSM::Parameter')).map(
    (parameter) => parameter.Properties.Name,
  );
  expect(parameters.sort()).toEqual(Object.values(IDENTITY_PARAMETERS).sort());
});

it('signs people in at a Cognito user pool upstream, whose client secret only the provider reads', () => {
  const distribution = logicalIdOf(identity, identity.providerDistribution);
  template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
    GenerateSecret: true,
    AllowedOAuthFlows: ['code'],
    AllowedOAuthScopes: ['openid', 'email'],
    CallbackURLs: [
      {
        'Fn::Join': [
          '',
          ['https://', { 'Fn::GetAtt': [distribution, 'DomainName'] }, UPSTREAM_CALLBACK_PATH],
        ],
      },
    ],
  });
  template.hasResource('AWS::Cognito::UserPool', { DeletionPolicy: 'Retain' });
  const secret = Object.entries(template.findResources('AWS::SecretsManager::Secret')).find(([id]) =>
    id.startsWith('UpstreamClientSecret'),
  );
  if (!secret) throw new Error('no upstream client secret');
  expect(rolesGranted(template, secret[0])).toEqual([roleOf(identity, identity.provider)]);
});

it('lets only CloudFront call the provider’s, the portal backend’s and the back office backend’s APIs: every route behind the origin authorizer, each distribution sending the secret', () => {
  const apis = [identity.providerApi, identity.portal.httpApi, identity.backOffice.httpApi].map((api) =>
    logicalIdOf(identity, api),
  );
  const all = resources(template);
  const authorizers = Object.entries(all).filter(
    ([, resource]) => resource.Type === 'AWS::ApiGatewayV2::Authorizer',
  );
  expect(authorizers.map(([, authorizer]) => authorizer.Properties?.ApiId).sort()).toEqual(
    apis.map((id) => ({ Ref: id })).sort(),
  );
  for (const [, authorizer] of authorizers)
    expect(authorizer.Properties).toMatchObject({
      AuthorizerType: 'REQUEST',
      IdentitySource: ['$request.header.x-origin-verify'],
      EnableSimpleResponses: true,
      AuthorizerResultTtlInSeconds: 300,
    });
  for (const api of apis) {
    const routes = Object.values(all).filter(
      (resource) =>
        resource.Type === 'AWS::ApiGatewayV2::Route' &&
        JSON.stringify(resource.Properties?.ApiId) === JSON.stringify({ Ref: api }),
    );
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) expect(route.Properties).toMatchObject({ AuthorizationType: 'CUSTOM' });
  }
  expect(openExecuteApis(template.toJSON())).toEqual([]);
  // The authorizer reads the secret CloudFront sends, by dynamic reference, to both APIs' origins.
  const secretId = logicalIdOf(identity, identity.originProtection.secret);
  const authorizerFunction = all[logicalIdOf(identity, identity.originProtection.function)];
  expect(authorizerFunction?.Properties?.Environment).toMatchObject({
    Variables: { ORIGIN_VERIFY_SECRET_ARN: { Ref: secretId }, ORIGIN_VERIFY_HEADER: 'x-origin-verify' },
  });
  for (const distribution of [
    identity.providerDistribution,
    identity.portal.distribution,
    identity.backOffice.distribution,
  ]) {
    const config = all[logicalIdOf(identity, distribution)]?.Properties?.DistributionConfig as {
      Origins: Array<{
        DomainName: unknown;
        OriginCustomHeaders?: Array<{ HeaderName: string; HeaderValue: unknown }>;
      }>;
    };
    const apiOrigins = config.Origins.filter((origin) =>
      JSON.stringify(origin.DomainName).includes('execute-api'),
    );
    expect(apiOrigins).toHaveLength(1);
    expect(apiOrigins[0]?.OriginCustomHeaders).toEqual([
      {
        HeaderName: 'x-origin-verify',
        HeaderValue: {
          'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']],
        },
      },
    ]);
  }
});

it('sends both user pools’ mail through SES from service:identity’s email, and Cognito’s own sender without it', async () => {
  const emailOf = (stack: Template) =>
    Object.values(stack.findResources('AWS::Cognito::UserPool')).map(
      (pool) => pool.Properties.EmailConfiguration,
    );
  expect(emailOf(template)).toEqual([undefined, undefined]);
  const app = testApp({
    outdir: mkdtempSync(join(tmpdir(), 'identity-email-')),
    context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] },
  });
  try {
    const withEmail = (email: IdentityEmail) =>
      new IdentityStack(app, `Identity${app.node.children.length}`, {
        baseUrls: baseUrlsFromContext(app),
        assets: identityAssets,
        edge: new EdgeStack(app, `Edge${app.node.children.length}`, { environment: 'identity' }),
        email,
      });
    const configs = emailOf(
      Template.fromStack(withEmail({ from: 'no-reply@mail.acme-homes.co.uk', region: 'eu-west-1' })),
    );
    expect(configs).toHaveLength(2);
    for (const config of configs) {
      expect(config).toMatchObject({
        EmailSendingAccount: 'DEVELOPER',
        From: 'Contract service <no-reply@mail.acme-homes.co.uk>',
      });
      expect(JSON.stringify(config.SourceArn)).toMatch(/ses:eu-west-1:.*identity\/mail\.acme-homes\.co\.uk/);
    }
    // Unpinned, the stack's region is unknown at synthesis: SES's must be given.
    expect(() => withEmail({ from: 'no-reply@mail.acme-homes.co.uk' })).toThrow(/email\.region is needed/);
    const contextWith = (email: unknown) =>
      identityContextOf(testApp({ context: { 'service:identity': { email } } }));
    expect(contextWith({ from: 'no-reply@mail.acme-homes.co.uk' }).email).toEqual({
      from: 'no-reply@mail.acme-homes.co.uk',
    });
    expect(() => contextWith({ from: 'nobody' })).toThrow(/email\.from must be an address/);
    expect(() => contextWith({ from: 'a@b.co', region: 'Ireland' })).toThrow(
      /email\.region must be a region/,
    );
  } finally {
    rmSync(app.outdir, { recursive: true, force: true });
  }
});
