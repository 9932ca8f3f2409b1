// infra -> the back office deployed in the identity stack (decisions.md §11 "Where" and "Who", issue 28
// item 7): the staff user pool apart from the integrators' (no self sign-up, TOTP required, strong
// passwords, threat protection), its client returning to the back office's own address; that address's
// distribution over a private files bucket and the backend's API, which answers CloudFront alone; the
// backend's settings and every statement of its policy, listed; and the alarms on every function and API of
// the identity stack, notifying production's alarm topic.
import type { Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { ENVIRONMENTS } from '../../lambdas/core/model';
import { BackOfficeConfig } from '../../lambdas/hosts/aws/back-office-services';
import { BACK_OFFICE_BACKEND_PATHS } from '../../lib/back-office';
import { FUNCTION_P99_ALARM } from '../../lib/identity-alarms';
import { environmentParameter } from '../../lib/identity-context';
import type { IdentityStack } from '../../lib/identity-stack';
import { API_P99_ALARM } from '../../lib/operations';
import type { IdentityStacks } from '../../lib/service-app';
import { ServiceFunction } from '../../lib/service-function';
import { openExecuteApis } from '../../lib/template-checks';
import {
  logicalIdOf,
  resources,
  SYNTH_DEADLINE_MS,
  type SynthesisedApp,
  synthServiceApp,
  templateOf,
} from './synth';

let synthesised: SynthesisedApp;
let identity: IdentityStack;
let stateless: Record<string, Stack>;
let template: Template;

beforeAll(async () => {
  // Unbundled: no function's code is read here. The synthesis runs cdk-nag (lib/checks.ts).
  synthesised = await synthServiceApp({ bundle: 'none', identity: true });
  const { stages } = synthesised;
  identity = (synthesised.identity as IdentityStacks).identity;
  stateless = { sandbox: stages.sandbox.stateless, production: stages.production.stateless };
  template = templateOf(identity);
}, SYNTH_DEADLINE_MS);

afterAll(() => synthesised?.cleanUp());

type Json = Record<string, unknown>;

/** The names a rendering gives: SSM parameters by their name, the stack's own resources by construct. */
const namesOf = (): Map<string, string> => {
  const parameters = (template.toJSON() as { Parameters: Record<string, { Default?: string }> }).Parameters;
  const names = new Map(
    Object.entries(parameters).flatMap(([id, p]) => (p.Default ? [[id, `{${p.Default}}`] as const] : [])),
  );
  names.set(logicalIdOf(identity, identity.table), '{identity table}');
  const key = identity.table.encryptionKey;
  if (key) names.set(logicalIdOf(identity, key), '{identity table key}');
  names.set(logicalIdOf(identity, identity.backOffice.clientSecret), '{back office client secret}');
  return names;
};

/** A statement's value as text: `{/contract-service/sandbox/tableName}`, `arn:{partition}:s3:::…`. */
const render = (value: unknown, names: Map<string, string>): unknown => {
  if (Array.isArray(value)) return value.map((item) => render(item, names));
  if (typeof value !== 'object' || value === null) return value;
  const object = value as Json;
  if ('Fn::Join' in object) {
    const [separator, parts] = object['Fn::Join'] as [string, unknown[]];
    return parts.map((part) => render(part, names)).join(separator);
  }
  if ('Ref' in object) {
    const ref = object.Ref as string;
    return names.get(ref) ?? `{${ref.replace(/^AWS::/, '').toLowerCase()}}`;
  }
  if ('Fn::GetAtt' in object) {
    const [id] = object['Fn::GetAtt'] as [string, string];
    return names.get(id) ?? `{${id}}`;
  }
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, render(v, names)]));
};

const backendRole = (): string =>
  logicalIdOf(identity, identity.backOffice.backend.role as unknown as { node: { defaultChild?: unknown } });

/** Every statement of the backend's role's policies, rendered. */
const backendStatements = (): Json[] => {
  const role = backendRole();
  const names = namesOf();
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(`"${role}"`))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Json[])
    .map((statement) => render(statement, names) as Json);
};

it('keeps the staff in a user pool of their own: no self sign-up, TOTP required, strong passwords, threat protection, retained', () => {
  const pools = template.findResources('AWS::Cognito::UserPool');
  expect(Object.keys(pools)).toHaveLength(2);
  const staff = pools[logicalIdOf(identity, identity.backOffice.staffPool)];
  expect(staff).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  expect(staff?.Properties).toMatchObject({
    UserPoolName: 'contract-service-staff',
    AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
    MfaConfiguration: 'ON',
    EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
    Policies: {
      PasswordPolicy: {
        MinimumLength: 14,
        RequireLowercase: true,
        RequireUppercase: true,
        RequireNumbers: true,
        RequireSymbols: true,
      },
    },
    UserPoolTier: 'PLUS',
    UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' },
    DeletionProtection: 'ACTIVE',
  });
  // The integrators' pool is another, which people sign up to themselves.
  const people = pools[logicalIdOf(identity, identity.userPool)];
  expect(people?.Properties).toMatchObject({ AdminCreateUserConfig: { AllowAdminCreateUserOnly: false } });
  // Roles are the staff records' alone (README): the pool has no groups to disagree with them.
  expect(template.findResources('AWS::Cognito::UserPoolGroup')).toEqual({});
});

it('signs staff in at the pool’s managed login as the back office’s client, returning to its own address', () => {
  const distribution = logicalIdOf(identity, identity.backOffice.distribution);
  const address = (path: string) => ({
    'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distribution, 'DomainName'] }, path]],
  });
  const clients = Object.values(template.findResources('AWS::Cognito::UserPoolClient')).filter(
    (client) =>
      JSON.stringify(client.Properties.UserPoolId) ===
      JSON.stringify({ Ref: logicalIdOf(identity, identity.backOffice.staffPool) }),
  );
  expect(clients).toHaveLength(1);
  expect(clients[0]?.Properties).toMatchObject({
    GenerateSecret: true,
    AllowedOAuthFlows: ['code'],
    AllowedOAuthScopes: ['openid', 'email'],
    CallbackURLs: [address('/auth/callback')],
    LogoutURLs: [address('/')],
    SupportedIdentityProviders: ['COGNITO'],
    PreventUserExistenceErrors: 'ENABLED',
  });
  template.hasResourceProperties('AWS::Cognito::UserPoolDomain', {
    UserPoolId: { Ref: logicalIdOf(identity, identity.backOffice.staffPool) },
    ManagedLoginVersion: 2,
  });
  template.resourceCountIs('AWS::Cognito::ManagedLoginBranding', 1);
  // The client secret: read by the back office's backend alone.
  const secretId = logicalIdOf(identity, identity.backOffice.clientSecret);
  const readers = Object.values(template.findResources('AWS::IAM::Policy')).filter((policy) =>
    JSON.stringify(policy.Properties.PolicyDocument).includes(`"${secretId}"`),
  );
  expect(readers.map((policy) => policy.Properties.Roles)).toEqual([[{ Ref: backendRole() }]]);
});

it('serves the back office at its own address: private files behind origin access control, its backend behind the origin secret', () => {
  const all = resources(template);
  const distributionId = logicalIdOf(identity, identity.backOffice.distribution);
  const config = all[distributionId]?.Properties?.DistributionConfig as {
    WebACLId?: unknown;
    Origins: Array<{
      DomainName: unknown;
      S3OriginConfig?: unknown;
      OriginAccessControlId?: unknown;
      OriginCustomHeaders?: unknown;
    }>;
    CacheBehaviors: Array<{ PathPattern: string }>;
  };
  expect(distributionId).not.toBe(logicalIdOf(identity, identity.portal.distribution));
  expect(config.WebACLId).toBeDefined();
  expect(config.CacheBehaviors.map((behaviour) => behaviour.PathPattern).sort()).toEqual(
    [...BACK_OFFICE_BACKEND_PATHS].sort(),
  );
  const s3 = config.Origins.filter((origin) => origin.S3OriginConfig);
  expect(s3).toHaveLength(1);
  expect(s3[0]?.OriginAccessControlId).toBeDefined();
  const api = config.Origins.filter((origin) => JSON.stringify(origin.DomainName).includes('execute-api'));
  expect(JSON.stringify(api[0]?.DomainName)).toContain(logicalIdOf(identity, identity.backOffice.httpApi));
  expect(JSON.stringify(api[0]?.OriginCustomHeaders)).toContain(
    logicalIdOf(identity, identity.originProtection.secret),
  );
  const bucket = all[logicalIdOf(identity, identity.backOffice.bucket)];
  expect(bucket?.Properties?.PublicAccessBlockConfiguration).toMatchObject({ RestrictPublicBuckets: true });
  // Every route of the backend's API behind the origin authorizer; none open.
  const routes = Object.values(all).filter(
    (resource) =>
      resource.Type === 'AWS::ApiGatewayV2::Route' &&
      JSON.stringify(resource.Properties?.ApiId) ===
        JSON.stringify({ Ref: logicalIdOf(identity, identity.backOffice.httpApi) }),
  );
  expect(routes.length).toBeGreaterThan(0);
  for (const route of routes) expect(route.Properties).toMatchObject({ AuthorizationType: 'CUSTOM' });
  expect(openExecuteApis(template.toJSON())).toEqual([]);
});

it('gives the backend exactly the settings its composition root reads', () => {
  const backend = resources(template)[logicalIdOf(identity, identity.backOffice.backend)];
  const variables = (backend?.Properties?.Environment as { Variables: Json } | undefined)?.Variables ?? {};
  expect(Object.keys(variables).sort()).toEqual(
    Object.keys(BackOfficeConfig.shape)
      .filter((name) => name !== 'AWS_REGION')
      .sort(),
  );
});

it('grants the backend exactly what the back office’s use cases do, per environment, and nothing else', () => {
  const via = { StringEquals: { 'kms:ViaService': 'dynamodb.{region}.{urlsuffix}' } };
  const keyActions = ['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey', 'kms:DescribeKey'];
  const perEnvironment = ENVIRONMENTS.flatMap((environment) => {
    const Name = environment.charAt(0).toUpperCase() + environment.slice(1);
    const ssm = (field: Parameters<typeof environmentParameter>[1]) =>
      `{${environmentParameter(environment, field)}}`;
    const table = `arn:{partition}:dynamodb:{region}:{accountid}:table/${ssm('tableName')}`;
    const bucket = `arn:{partition}:s3:::${ssm('bucketName')}`;
    return [
      {
        Sid: `${Name}Records`,
        Effect: 'Allow',
        Action: [
          'dynamodb:GetItem',
          'dynamodb:BatchGetItem',
          'dynamodb:Query',
          'dynamodb:PutItem',
          'dynamodb:UpdateItem',
        ],
        Resource: [table, `${table}/index/gsi1`, `${table}/index/gsi2`],
      },
      {
        Sid: `${Name}TableKeyThroughDynamoDb`,
        Effect: 'Allow',
        Action: keyActions,
        Resource: ssm('tableKeyArn'),
        Condition: via,
      },
      {
        Sid: `${Name}ReadRendersAndPdfs`,
        Effect: 'Allow',
        Action: 's3:GetObject',
        Resource: [`${bucket}/renders/*`, `${bucket}/uploads/*`],
      },
      {
        Sid: `${Name}AMissingBlobIsA404`,
        Effect: 'Allow',
        Action: 's3:ListBucket',
        Resource: bucket,
        Condition: { StringLike: { 's3:prefix': ['renders/*', 'uploads/*'] } },
      },
      {
        Sid: `${Name}WriteReviewsAndWithdrawals`,
        Effect: 'Allow',
        Action: ['s3:PutObject', 's3:AbortMultipartUpload'],
        Resource: [`${bucket}/reviews/*`, `${bucket}/published/*/withdrawn`],
      },
      {
        Sid: `${Name}RemoveARefusedPublishsText`,
        Effect: 'Allow',
        Action: 's3:DeleteObject',
        Resource: `${bucket}/reviews/*`,
      },
      {
        Sid: `${Name}OpenSignUpAnswers`,
        Effect: 'Allow',
        Action: 'secretsmanager:GetSecretValue',
        Resource: ssm('answersKeySecretArn'),
      },
      {
        Sid: `${Name}StartReviewRuns`,
        Effect: 'Allow',
        Action: 'states:StartExecution',
        Resource: ssm('reviewStateMachineArn'),
      },
      {
        Sid: `${Name}EndALawyerReviewWait`,
        Effect: 'Allow',
        Action: 'states:SendTaskSuccess',
        Resource: ssm('contractStateMachineArn'),
      },
    ];
  });
  const expected = [
    // Active tracing (ServiceFunction): actions that take no resource.
    { Effect: 'Allow', Action: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'], Resource: '*' },
    {
      Sid: 'ReadStaffOrganisationsAuditAndSessions',
      Effect: 'Allow',
      Action: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
      Resource: ['{identity table}', '{identity table}/index/gsi1', '{identity table}/index/gsi2'],
    },
    {
      Sid: 'WriteStaffAuditEntriesAndSessionsOnly',
      Effect: 'Allow',
      Action: ['dynamodb:PutItem', 'dynamodb:DeleteItem'],
      Resource: '{identity table}',
      Condition: {
        'ForAllValues:StringLike': {
          'dynamodb:LeadingKeys': ['STAFF#*', 'AUDIT#*', 'BACKOFFICESESSION#*', 'BACKOFFICESIGNIN#*'],
        },
      },
    },
    {
      Sid: 'IdentityTableKeyThroughDynamoDb',
      Effect: 'Allow',
      Action: keyActions,
      Resource: '{identity table key}',
      Condition: via,
    },
    ...perEnvironment,
    {
      Effect: 'Allow',
      Action: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'],
      Resource: '{back office client secret}',
    },
  ];
  expect(backendStatements()).toEqual(expected);
});

it('alarms on every function and HTTP API of the identity stack, each notifying production’s alarm topic', () => {
  const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).map(
    (alarm) => alarm.Properties,
  );
  const parameters = (template.toJSON() as { Parameters: Record<string, { Default?: string }> }).Parameters;
  const topic = Object.entries(parameters).find(
    ([, p]) => p.Default === environmentParameter('production', 'alarmTopicArn'),
  )?.[0];
  expect(topic).toBeDefined();
  for (const alarm of alarms) expect(alarm.AlarmActions).toEqual([{ Ref: topic }]);
  const watched = (metric: string, dimension: string, statistic?: string) =>
    alarms
      .filter(
        (alarm) =>
          alarm.MetricName === metric && (statistic === undefined || alarm.ExtendedStatistic === statistic),
      )
      .map((alarm) => JSON.stringify((alarm.Dimensions as Json[]).find((d) => d.Name === dimension)?.Value))
      .sort();
  const functions = identity.node
    .findAll()
    .filter((node): node is ServiceFunction => node instanceof ServiceFunction)
    .map((fn) => JSON.stringify({ Ref: logicalIdOf(identity, fn) }))
    .sort();
  // The provider, the portal's and the back office's backends, the origin authorizer and its rotation.
  expect(functions).toHaveLength(5);
  expect(functions).toContain(JSON.stringify({ Ref: logicalIdOf(identity, identity.backOffice.backend) }));
  expect(watched('Errors', 'FunctionName')).toEqual(functions);
  expect(watched('Throttles', 'FunctionName')).toEqual(functions);
  expect(watched('Duration', 'FunctionName', 'p99')).toEqual(functions);
  const apis = [identity.providerApi, identity.portal.httpApi, identity.backOffice.httpApi]
    .map((api) => JSON.stringify({ Ref: logicalIdOf(identity, api) }))
    .sort();
  expect(watched('Latency', 'ApiId', 'p99')).toEqual(apis);
  const rates = alarms.filter((alarm) => JSON.stringify(alarm.Metrics ?? []).includes('5xx'));
  expect(
    rates.map((alarm) => JSON.stringify(alarm.Metrics)).filter((m) => apis.some((api) => m.includes(api))),
  ).toHaveLength(3);
  const thresholds = alarms
    .filter((alarm) => alarm.ExtendedStatistic === 'p99')
    .map((alarm) => alarm.Threshold as number);
  expect(new Set(thresholds)).toEqual(
    new Set([FUNCTION_P99_ALARM.toMilliseconds(), API_P99_ALARM.toMilliseconds()]),
  );
});

it('has each stage publish what the back office and the identity stack’s alarms read of it', () => {
  for (const environment of ENVIRONMENTS) {
    const names = Object.values(
      templateOf(stateless[environment] as Stack).findResources('AWS::SSM::Parameter'),
    ).map((parameter) => parameter.Properties.Name);
    for (const field of ['contractStateMachineArn', 'reviewStateMachineArn', 'alarmTopicArn'] as const)
      expect(names).toContain(environmentParameter(environment, field));
  }
});
