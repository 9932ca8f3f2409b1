// infra -> the stateless stack of each stage, from the real app (both stages synthesised once, the
// handlers unbundled: their code is no part of what is checked here): functions, routes, grants, the
// workflows (contract pipeline and webhook delivery) and who starts their runs, upload ingest, and the
// API's and the hosted pages' CloudFront distributions.
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import type { CfnRole, IRole } from 'aws-cdk-lib/aws-iam';
import { BUS_RULES } from '../../lambdas/adapters/events/bus-rules';
import { FRAME_ROUTES } from '../../lambdas/api/frame-routes';
import { FALLBACK_HANDLER, ROUTES } from '../../lambdas/api/routes';
import { RUN_KINDS, type RunKind } from '../../lambdas/core/ports';
import { renderNotFound, renderWithdrawn } from '../../lambdas/pages/plain';
import { PAGE_SECURITY_HEADERS } from '../../lambdas/pages/security';
import {
  RENDER_CONTRACTS,
  RENDER_QUEUE,
  RENDER_RECEIVES,
  RENDERS_AT_ONCE,
  WORKERS,
} from '../../lib/contract-pipeline';
import type { Environment } from '../../lib/environments';
import { KVS_IMPORT } from '../../lib/hosted-pages';
import { ACCEPT_ONBOARDING, GIVE_UP_ACCEPTANCE } from '../../lib/onboarding-acceptance';
import { FRAME_SUBMIT_HANDLER, LOADER_PATH } from '../../lib/onboarding-frame';
import { ORIGIN_VERIFY_HEADER } from '../../lib/origin-secret-rotation';
import { fromRoot } from '../../lib/paths';
import { REDRIVE_MINUTES } from '../../lib/run-redrive';
import type { ServiceFunction } from '../../lib/service-function';
import type { ServiceStage } from '../../lib/service-stage';
import {
  DELIVER,
  DELIVERY_RECEIVES,
  FAN_OUT,
  FAN_OUT_RECEIVES,
  GIVE_UP_DELIVERY_WAIT,
  HAND_BACK_DELIVERY,
  PUBLISH_EVENTS,
  PUBLISH_MINUTES,
} from '../../lib/webhook-delivery';
import { VENDED_LOGS_PREFIX, WORKFLOW_FILES } from '../../lib/workflow-state-machine';
import {
  actionsOf,
  assetPathOf,
  cdkJsonContext,
  flattenedTemplate,
  grants,
  logicalIdOf,
  type PolicyStatement,
  resources,
  SYNTH_DEADLINE_MS,
  type SynthesisedApp,
  statementsOfRole,
  synthServiceApp,
} from './synth';

/** The settings every handler host is given (lambdas/hosts/aws/services.ts reads them). */
const SERVICE_SETTINGS = [
  'SERVICE_ENVIRONMENT',
  'TABLE_NAME',
  'BLOB_BUCKET',
  'SANDBOX_BASE_URL',
  'PRODUCTION_BASE_URL',
  'PAGES_BASE_URL',
  'RATE_LIMITS',
];
/** The re-drive of recorded runs, by the name the tests give it among the functions. */
const REDRIVE = 'RedriveRuns';
/** The setting naming each kind's state machine (only the hosts that start runs of that kind have it). */
const STATE_MACHINE_SETTINGS: Readonly<Record<RunKind, string>> = {
  contract: 'CONTRACT_STATE_MACHINE_ARN',
  review: 'REVIEW_STATE_MACHINE_ARN',
  delivery: 'DELIVERY_STATE_MACHINE_ARN',
  acceptance: 'ACCEPTANCE_STATE_MACHINE_ARN',
};
/** Which function each Task state of the ASL files runs, by the function's construct id. */
const TASK_WORKERS: Readonly<Record<RunKind, Readonly<Record<string, string>>>> = {
  contract: {
    Process: RENDER_QUEUE,
    PublishViewer: 'PublishViewer',
    Analyse: 'AnalyseContract',
    AwaitLawyerReview: 'RequestLawyerReview',
    PublishReview: 'PublishReview',
    ReviewPublished: 'FinishRun',
    Completed: 'FinishRun',
    Superseded: 'FinishRun',
    GiveUp: 'FinishRun',
  },
  review: { PublishReview: 'PublishReview', Finished: 'FinishRun', GiveUp: 'FinishRun' },
  delivery: { HandBack: HAND_BACK_DELIVERY, GiveUp: GIVE_UP_DELIVERY_WAIT },
  acceptance: { AcceptWhenDue: ACCEPT_ONBOARDING, GiveUp: GIVE_UP_ACCEPTANCE },
};
/** The Tasks that invoke their function and wait for their task token (the function is a parameter). */
const WAITING_TASKS = ['AwaitLawyerReview'];
const INVOKE_AND_WAIT = 'arn:aws:states:::lambda:invoke.waitForTaskToken';
/** The Tasks that send their task token on a queue and wait for it (the queue is a parameter). */
const QUEUED_TASKS = ['Process'];
const SEND_AND_WAIT = 'arn:aws:states:::sqs:sendMessage.waitForTaskToken';
/** Memory (MB) and timeout (s) of each worker. */
const WORKER_SIZES: Readonly<Record<string, { MemorySize: number; Timeout: number }>> = {
  PublishViewer: { MemorySize: 1024, Timeout: 900 },
  AnalyseContract: { MemorySize: 1024, Timeout: 300 },
  RequestLawyerReview: { MemorySize: 256, Timeout: 60 },
  PublishReview: { MemorySize: 1024, Timeout: 900 },
  FinishRun: { MemorySize: 256, Timeout: 60 },
};
/** The workers that replace what they publish, and so may delete objects. */
const DELETING_WORKERS = ['PublishViewer', 'PublishReview'];
/** The workers that touch no blob. */
const BLOBLESS_WORKERS = ['RequestLawyerReview', 'FinishRun'];
/** CloudFront's managed CachingOptimized policy. */
const CACHING_OPTIMIZED = '658327ea-f89d-4fab-a63d-7e88639e58f6';
/** CloudFront's managed policies: CachingDisabled and AllViewerExceptHostHeader. */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';
const ALL_METHODS = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'];

let synthesised: SynthesisedApp;

beforeAll(async () => {
  // No function's code is read here (app.test.ts and onboarding-frame.test.ts read the bundles).
  synthesised = await synthServiceApp({ bundle: 'none' });
}, SYNTH_DEADLINE_MS);

afterAll(() => synthesised?.cleanUp());

describe.each<Environment>(['sandbox', 'production'])('stateless stack (%s)', (environment) => {
  let stage: ServiceStage;
  let template: Template;
  /** Every function: endpoints by handler name, workers by construct id. */
  let functions: Map<string, ServiceFunction>;
  /** Logical id of each function, by the same names. */
  let functionIds: Map<string, string>;

  /** A read of the same stage's SSM parameter of `field` (the stateful stack's, lib/identity-context.ts). */
  const parameterName = (field: string) =>
    `^SsmParameterValuecontractservice${environment}${field}[0-9A-F]+Parameter$`;
  const importOf = (field: string) => ({ Ref: Match.stringLikeRegexp(parameterName(field)) });
  const expectImportOf = (field: string) => ({ Ref: expect.stringMatching(parameterName(field)) });
  /** The bucket's ARN, as CDK makes it of the name read. */
  const expectBucketArn = () => ({
    'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::', expectImportOf(BUCKET)]],
  });
  /** What a grant's resource names of the parameter of `field`. */
  const readOf = (field: string) => `SsmParameterValuecontractservice${environment}${field}`;
  const TABLE = 'tableName';
  const BUCKET = 'bucketName';
  const TOKEN_KEY = 'tokenKeyArn';

  interface FunctionProperties {
    Environment: { Variables: Record<string, unknown> };
    LoggingConfig?: { LogGroup?: { Ref: string } };
  }
  const functionOf = (name: string) => {
    const id = functionIds.get(name);
    const resource = id ? resources(template)[id] : undefined;
    if (!id || !resource) throw new Error(`no function for ${name}`);
    return { id, properties: resource.Properties as unknown as FunctionProperties };
  };
  const roleIdOf = (role: IRole | undefined): string => {
    if (!role) throw new Error('no role');
    return stage.stateless.getLogicalId(role.node.defaultChild as CfnRole);
  };
  const stateMachineOf = (kind: RunKind) => {
    const machine = stage.stateless.stateMachines[kind];
    const id = logicalIdOf(stage.stateless, machine);
    const properties = resources(template)[id]?.Properties;
    if (!properties) throw new Error(`no state machine for ${kind}`);
    return { machine, id, properties };
  };
  const queueIdOf = (queue: { node: { defaultChild?: unknown } }) =>
    stage.stateless.getLogicalId(queue.node.defaultChild as never);
  const statementsOfFunction = (name: string): PolicyStatement[] =>
    statementsOfRole(template, roleIdOf(functions.get(name)?.role));
  const bucketActionsOf = (name: string): string[] =>
    statementsOfFunction(name).flatMap((s) => actionsOf(s).filter((a) => a.startsWith('s3:')));
  /** The pages' distribution's address, as the template builds it. */
  const pagesBaseUrl = () => ({
    'Fn::Join': [
      '',
      [
        'https://',
        { 'Fn::GetAtt': [logicalIdOf(stage.stateless, stage.stateless.pages.distribution), 'DomainName'] },
      ],
    ],
  });

  beforeAll(() => {
    stage = synthesised.stages[environment];
    template = flattenedTemplate(stage.stateless);
    functions = new Map([
      ...stage.stateless.api.functions,
      ...stage.stateless.pipeline.workers,
      [RENDER_CONTRACTS, stage.stateless.pipeline.render],
      [DELIVER, stage.stateless.delivery.deliver],
      [HAND_BACK_DELIVERY, stage.stateless.delivery.handBack],
      [GIVE_UP_DELIVERY_WAIT, stage.stateless.delivery.giveUp],
      [FAN_OUT, stage.stateless.delivery.fanOut],
      [PUBLISH_EVENTS, stage.stateless.delivery.publish],
      [REDRIVE, stage.stateless.redrive],
      [ACCEPT_ONBOARDING, stage.stateless.acceptance.accept],
      [GIVE_UP_ACCEPTANCE, stage.stateless.acceptance.giveUp],
    ]);
    functionIds = new Map([...functions].map(([name, fn]) => [name, logicalIdOf(stage.stateless, fn)]));
  });

  describe('functions', () => {
    it('has exactly one function per endpoint, the fallback, one per worker, the render consumer, the delivery consumer, its hand-back and give-up, the fan-out, the publisher, the re-drive, the acceptance, the withdrawal gate and its backfill (with CDK’s trigger provider), the frame API’s and the form files’ deployment and bucket emptying, the origin secret’s rotation and (no hosted zone here) its authorizer, and no other', () => {
      // The frame API's functions and the two of the form's files are tested in onboarding-frame.test.ts;
      // then CDK's custom resource function that looks up CloudFront's prefix list, and the APIs' origin
      // authorizer (tests/infra/origin-protection.test.ts).
      const form = FRAME_ROUTES.length + 1 + 2;
      template.resourceCountIs(
        'AWS::Lambda::Function',
        ROUTES.length + 1 + WORKERS.length + 1 + 5 + 1 + 2 + 1 + 2 + form + 1 + 1 + 1,
      );
      expect([...stage.stateless.api.functions.keys()].sort()).toEqual(
        [...ROUTES.map((r) => r.name), FALLBACK_HANDLER].sort(),
      );
      expect([...stage.stateless.pipeline.workers.keys()].sort()).toEqual(Object.keys(WORKER_SIZES).sort());
    });

    it('runs every function on nodejs24.x, arm64, with X-Ray tracing and JSON logs, its source map read on demand', () => {
      for (const name of functionIds.keys()) {
        const { properties } = functionOf(name);
        expect(properties).toMatchObject({
          Runtime: 'nodejs24.x',
          Architectures: ['arm64'],
          Handler: 'index.handler',
          TracingConfig: { Mode: 'Active' },
          LoggingConfig: { LogFormat: 'JSON', ApplicationLogLevel: 'INFO', SystemLogLevel: 'WARN' },
        });
        // Node's --enable-source-maps would read the map at every cold start (source-mapped-stacks.ts).
        expect(properties.Environment?.Variables?.NODE_OPTIONS).toBeUndefined();
      }
    });

    it('gives every function the service settings of its own environment', () => {
      const urls = cdkJsonContext();
      for (const name of functionIds.keys()) {
        const variables = functionOf(name).properties.Environment.Variables;
        expect(Object.keys(variables)).toEqual(expect.arrayContaining(SERVICE_SETTINGS));
        expect(variables).toMatchObject({
          SERVICE_ENVIRONMENT: environment,
          RATE_LIMITS: 'on',
          SANDBOX_BASE_URL: urls['service:sandboxBaseUrl'],
          PRODUCTION_BASE_URL: urls['service:productionBaseUrl'],
        });
        expect(variables.TABLE_NAME).toEqual(expectImportOf(TABLE));
        expect(variables.BLOB_BUCKET).toEqual(expectImportOf(BUCKET));
        // Only the hosts that check access tokens are told of the token key, and only the token function
        // is told it may sign with it (hardening.test.ts).
        if (stage.stateless.api.functions.has(name))
          expect(variables.TOKEN_KEY_ARN).toEqual(expectImportOf(TOKEN_KEY));
        else expect(variables.TOKEN_KEY_ARN).toBeUndefined();
        if (name === 'token') expect(variables.TOKEN_SIGNING_KEY_ARN).toEqual(expectImportOf(TOKEN_KEY));
        else expect(variables.TOKEN_SIGNING_KEY_ARN).toBeUndefined();
        expect(variables.PAGES_BASE_URL).toEqual(pagesBaseUrl());
      }
    });

    it('keeps each function’s logs for one month', () => {
      for (const name of functionIds.keys()) {
        const logGroup = functionOf(name).properties.LoggingConfig?.LogGroup;
        expect(logGroup?.Ref).toBeDefined();
        expect(resources(template)[logGroup?.Ref ?? '']?.Properties).toMatchObject({ RetentionInDays: 30 });
      }
    });
  });

  describe('HTTP API', () => {
    it('has one route per endpoint, with its method and path, to that endpoint’s function', () => {
      const all = resources(template);
      const functionOfRoute = (routeKey: string): string | undefined => {
        const apiId = logicalIdOf(stage.stateless, stage.stateless.api.httpApi);
        const route = Object.values(all).find(
          (r) =>
            r.Type === 'AWS::ApiGatewayV2::Route' &&
            r.Properties?.RouteKey === routeKey &&
            JSON.stringify(r.Properties?.ApiId) === JSON.stringify({ Ref: apiId }),
        );
        const target = JSON.stringify(route?.Properties?.Target);
        const integrationId = Object.keys(all).find((id) => target.includes(`"Ref":"${id}"`));
        const uri = all[integrationId ?? '']?.Properties?.IntegrationUri as {
          'Fn::GetAtt': [string, string];
        };
        return uri?.['Fn::GetAtt'][0];
      };
      // And the frame API's, with its routes (onboarding-frame.test.ts).
      template.resourceCountIs('AWS::ApiGatewayV2::Api', 2);
      template.resourceCountIs('AWS::ApiGatewayV2::Route', ROUTES.length + 1 + FRAME_ROUTES.length + 1);
      for (const route of ROUTES) {
        expect(functionOfRoute(`${route.method} ${route.path}`)).toBe(functionIds.get(route.name));
      }
      expect(functionOfRoute('$default')).toBe(functionIds.get(FALLBACK_HANDLER));
    });

    it('sends API Gateway v2 (payload 2.0) events', () => {
      template.allResourcesProperties('AWS::ApiGatewayV2::Integration', {
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
      });
    });
  });

  describe('grants', () => {
    it('lets every function read and write the table (and use its key), only the API’s functions read the token key’s public half, and only the token function sign', () => {
      for (const name of functionIds.keys()) {
        const statements = statementsOfFunction(name);
        for (const action of [
          'dynamodb:GetItem',
          'dynamodb:PutItem',
          'dynamodb:Query',
          'dynamodb:UpdateItem',
        ]) {
          expect([name, action, grants(statements, action, readOf('tableName'))]).toEqual([
            name,
            action,
            true,
          ]);
        }
        expect(grants(statements, 'kms:Decrypt', readOf('tableKeyArn'))).toBe(true);
        expect([name, grants(statements, 'kms:GetPublicKey', readOf(TOKEN_KEY))]).toEqual([
          name,
          stage.stateless.api.functions.has(name),
        ]);
        expect([name, grants(statements, 'kms:Sign', readOf(TOKEN_KEY))]).toEqual([name, name === 'token']);
      }
    });

    it('lets the upload functions put, read and delete (a refused upload) blobs under uploads/, and no other endpoint touch the bucket', () => {
      for (const route of ROUTES) {
        const statements = statementsOfFunction(route.name);
        const bucketActions = bucketActionsOf(route.name);
        if (route.upload) {
          expect(bucketActions).toEqual(
            expect.arrayContaining(['s3:PutObject', 's3:GetObject', 's3:DeleteObject']),
          );
          expect(grants(statements, 's3:PutObject', readOf('bucketName'))).toBe(true);
          expect(grants(statements, 's3:PutObject', '/uploads/*')).toBe(true);
        } else {
          expect(bucketActions).toEqual([]);
        }
      }
    });
  });

  describe('upload ingest service', () => {
    it('runs the image from ingest/Dockerfile on Fargate, ARM64, with the same settings and the origin secret', () => {
      template.hasResourceProperties('AWS::ECS::TaskDefinition', {
        RequiresCompatibilities: ['FARGATE'],
        RuntimePlatform: { CpuArchitecture: 'ARM64', OperatingSystemFamily: 'LINUX' },
        ContainerDefinitions: [
          Match.objectLike({
            PortMappings: [Match.objectLike({ ContainerPort: 8080 })],
            // In the order the construct sets them (arrayWith is ordered).
            Environment: Match.arrayWith([
              { Name: 'ORIGIN_VERIFY_HEADER', Value: ORIGIN_VERIFY_HEADER },
              { Name: 'SERVICE_ENVIRONMENT', Value: environment },
              { Name: 'PAGES_BASE_URL', Value: pagesBaseUrl() },
              { Name: 'RATE_LIMITS', Value: 'on' },
              { Name: 'TABLE_NAME', Value: importOf(TABLE) },
              { Name: 'BLOB_BUCKET', Value: importOf(BUCKET) },
              { Name: 'TOKEN_KEY_ARN', Value: importOf(TOKEN_KEY) },
              {
                Name: 'CONTRACT_STATE_MACHINE_ARN',
                Value: { Ref: Match.stringLikeRegexp('^PipelineContractRuns') },
              },
              { Name: 'ORIGIN_VERIFY_SECRET_ARN', Value: { Ref: Match.stringLikeRegexp('OriginVerify') } },
            ]),
          }),
        ],
      });
      template.hasResourceProperties('AWS::ECS::Service', {
        // Placed by capacity provider (Fargate Spot): test/infra/upload-ingest.test.ts.
        LaunchType: Match.absent(),
        DesiredCount: environment === 'production' ? 2 : 1,
        DeploymentConfiguration: Match.objectLike({
          DeploymentCircuitBreaker: { Enable: true, Rollback: true },
        }),
        NetworkConfiguration: { AwsvpcConfiguration: Match.objectLike({ AssignPublicIp: 'ENABLED' }) },
      });
    });

    it('grants the task the table, the bucket (put), the origin secret and the token key’s public half (no signing)', () => {
      const [taskRoleId] = Object.keys(template.findResources('AWS::IAM::Role')).filter((id) =>
        id.includes('TaskTaskRole'),
      );
      const statements = statementsOfRole(template, taskRoleId ?? '');
      expect(grants(statements, 'dynamodb:PutItem', readOf('tableName'))).toBe(true);
      expect(grants(statements, 's3:PutObject', readOf('bucketName'))).toBe(true);
      expect(grants(statements, 'kms:GetPublicKey', readOf('tokenKeyArn'))).toBe(true);
      expect(grants(statements, 'kms:Sign', readOf('tokenKeyArn'))).toBe(false);
      expect(grants(statements, 'secretsmanager:GetSecretValue', 'OriginVerify')).toBe(true);
    });

    it('sits behind an internal load balancer that forwards only requests carrying the origin secret, health-checked on /healthz', () => {
      template.hasResourceProperties('AWS::ElasticLoadBalancingV2::LoadBalancer', {
        Scheme: 'internal',
      });
      template.hasResourceProperties('AWS::ElasticLoadBalancingV2::TargetGroup', {
        TargetType: 'ip',
        Port: 8080,
        HealthCheckPath: '/healthz',
      });
      template.hasResourceProperties('AWS::ElasticLoadBalancingV2::Listener', {
        Port: 80,
        DefaultActions: [
          Match.objectLike({
            Type: 'fixed-response',
            FixedResponseConfig: Match.objectLike({ StatusCode: '403' }),
          }),
        ],
      });
      template.hasResourceProperties('AWS::ElasticLoadBalancingV2::ListenerRule', {
        Conditions: [
          {
            Field: 'http-header',
            HttpHeaderConfig: {
              HttpHeaderName: ORIGIN_VERIFY_HEADER,
              Values: [
                Match.objectLike({ 'Fn::Join': ['', Match.arrayWith(['{{resolve:secretsmanager:'])] }),
              ],
            },
          },
        ],
        Actions: [Match.objectLike({ Type: 'forward' })],
      });
    });

    describe('rotation of the origin secret', () => {
      const rotation = () => stage.stateless.ingest.node.findChild('RotateOriginSecret') as ServiceFunction;
      const secretId = () => logicalIdOf(stage.stateless, stage.stateless.ingest.originVerifySecret);
      const ruleId = () => logicalIdOf(stage.stateless, stage.stateless.ingest.ingestRule);
      const distributionId = () => logicalIdOf(stage.stateless, stage.stateless.distribution);
      const frameDistributionId = () => logicalIdOf(stage.stateless, stage.stateless.onboarding.distribution);

      it('rotates every 30 days with its own function, not at once on deployment, told of the secret, header, rule and distribution', () => {
        template.resourceCountIs('AWS::SecretsManager::RotationSchedule', 1);
        template.hasResourceProperties('AWS::SecretsManager::RotationSchedule', {
          SecretId: { Ref: secretId() },
          RotationLambdaARN: { 'Fn::GetAtt': [logicalIdOf(stage.stateless, rotation()), 'Arn'] },
          RotationRules: { ScheduleExpression: 'rate(30 days)' },
          RotateImmediatelyOnUpdate: false,
        });
        const fn = resources(template)[logicalIdOf(stage.stateless, rotation())];
        expect(fn?.Properties).toMatchObject({
          Timeout: 720,
          Environment: {
            Variables: {
              ORIGIN_VERIFY_SECRET_ARN: { Ref: secretId() },
              ORIGIN_VERIFY_HEADER: ORIGIN_VERIFY_HEADER,
              INGEST_RULE_ARN: { Ref: ruleId() },
              // The frame's distribution too: without a hosted zone it sends the secret to the frame API.
              DISTRIBUTION_IDS: {
                'Fn::Join': [',', [{ Ref: distributionId() }, { Ref: frameDistributionId() }]],
              },
            },
          },
        });
        // Secrets Manager, and nothing else, may invoke it.
        const invokers = Object.values(template.findResources('AWS::Lambda::Permission'))
          .filter((p) =>
            JSON.stringify(p.Properties.FunctionName).includes(logicalIdOf(stage.stateless, rotation())),
          )
          .map((p) => p.Properties.Principal);
        expect(invokers).toEqual(['secretsmanager.amazonaws.com']);
      });

      it('may modify only the ingest listener rule, update only the API distribution and rotate only this secret', () => {
        const statements = statementsOfRole(template, roleIdOf(rotation().role));
        const byAction = new Map<string, unknown[]>();
        for (const statement of statements)
          for (const action of actionsOf(statement))
            byAction.set(action, [...(byAction.get(action) ?? []), statement.Resource]);
        expect(byAction.get('elasticloadbalancing:ModifyRule')).toEqual([{ Ref: ruleId() }]);
        const distributionArn = JSON.stringify(byAction.get('cloudfront:UpdateDistribution'));
        expect(distributionArn).toContain(`"Ref":"${distributionId()}"`);
        expect(distributionArn).toContain(`"Ref":"${frameDistributionId()}"`);
        expect(distributionArn).toContain(':distribution/');
        for (const action of ['cloudfront:GetDistribution', 'cloudfront:GetDistributionConfig'])
          expect(JSON.stringify(byAction.get(action))).toBe(distributionArn);
        for (const action of [
          'secretsmanager:DescribeSecret',
          'secretsmanager:GetSecretValue',
          'secretsmanager:PutSecretValue',
          'secretsmanager:UpdateSecretVersionStage',
        ])
          expect(byAction.get(action)).toEqual([{ Ref: secretId() }]);
        expect(byAction.get('secretsmanager:GetRandomPassword')).toEqual(['*']);
        // Nothing else of ELB, CloudFront or Secrets Manager (logs and X-Ray are every function's).
        expect([...byAction.keys()].filter((action) => !/^(xray|logs):/.test(action)).sort()).toEqual(
          [
            'cloudfront:GetDistribution',
            'cloudfront:GetDistributionConfig',
            'cloudfront:UpdateDistribution',
            'elasticloadbalancing:ModifyRule',
            'secretsmanager:DescribeSecret',
            'secretsmanager:GetRandomPassword',
            'secretsmanager:GetSecretValue',
            'secretsmanager:PutSecretValue',
            'secretsmanager:UpdateSecretVersionStage',
          ].sort(),
        );
      });

      it('has CloudFront’s header and the rule resolve the secret’s current value at each deployment (a dynamic reference, no version pinned)', () => {
        const reference = ['{{resolve:secretsmanager:', { Ref: secretId() }, ':SecretString:::}}'];
        const rule = resources(template)[ruleId()]?.Properties as unknown as {
          Conditions: { HttpHeaderConfig: { Values: unknown[] } }[];
        };
        expect(rule.Conditions).toHaveLength(1);
        expect(rule.Conditions[0]?.HttpHeaderConfig.Values).toEqual([{ 'Fn::Join': ['', reference] }]);
        const front = resources(template)[distributionId()]?.Properties as unknown as {
          DistributionConfig: { Origins: { OriginCustomHeaders?: { HeaderValue: unknown }[] }[] };
        };
        const headers = front.DistributionConfig.Origins.flatMap(
          (origin) => origin.OriginCustomHeaders ?? [],
        );
        // The API origin's and the ingest's: without a hosted zone the API admits only CloudFront too.
        expect(headers.map((header) => header.HeaderValue)).toEqual([
          { 'Fn::Join': ['', reference] },
          { 'Fn::Join': ['', reference] },
        ]);
      });
    });
  });

  describe('workflows', () => {
    /** The logical ids a policy statement's resources name through `Fn::GetAtt` (`*` as itself). */
    const resourceIdsOf = (statement: PolicyStatement): string[] =>
      [...JSON.stringify(statement.Resource).matchAll(/"Fn::GetAtt":\["([^"]+)"|^"(\*)"$/g)].map(
        (match) => match[1] ?? match[2] ?? '',
      );
    /** The logical ids of the functions a role may invoke. */
    const invokedBy = (roleId: string): string[] => [
      ...new Set(
        statementsOfRole(template, roleId)
          .filter((statement) => actionsOf(statement).some((action) => action.startsWith('lambda:')))
          .flatMap(resourceIdsOf),
      ),
    ];
    const kinds = RUN_KINDS;

    it('has a Standard state machine per kind of run, logging every event without execution data for a month, traced', () => {
      template.resourceCountIs('AWS::StepFunctions::StateMachine', kinds.length);
      for (const kind of kinds) {
        const { properties } = stateMachineOf(kind);
        expect([kind, properties]).toMatchObject([
          kind,
          {
            StateMachineType: 'STANDARD',
            TracingConfiguration: { Enabled: true },
            LoggingConfiguration: { Level: 'ALL', IncludeExecutionData: false },
          },
        ]);
        const [destination] = (
          properties.LoggingConfiguration as {
            Destinations: { CloudWatchLogsLogGroup: { LogGroupArn: { 'Fn::GetAtt': [string, string] } } }[];
          }
        ).Destinations;
        const logGroupId = destination?.CloudWatchLogsLogGroup.LogGroupArn['Fn::GetAtt'][0] ?? '';
        expect(resources(template)[logGroupId]).toMatchObject({
          Type: 'AWS::Logs::LogGroup',
          Properties: { RetentionInDays: 30 },
        });
        // Under the vended logs prefix: the account's log resource policy does not grow per redeploy.
        const name = resources(template)[logGroupId]?.Properties?.LogGroupName as {
          'Fn::Join': [string, unknown[]];
        };
        expect(name['Fn::Join'][1][0]).toBe(
          `${VENDED_LOGS_PREFIX}contract-service-${environment}-stateless/${kind}-`,
        );
      }
    });

    it('deploys each ASL file as it is, every placeholder replaced by the ARN of the function its Task runs', () => {
      for (const kind of kinds) {
        const { properties } = stateMachineOf(kind);
        const source = readFileSync(fromRoot(WORKFLOW_FILES[kind]), 'utf8');
        const location = properties.DefinitionS3Location as { Key: string };
        expect(readFileSync(assetPathOf(synthesised, stage.stateless.stackName, location.Key), 'utf8')).toBe(
          source,
        );

        // What Step Functions runs: each `${Name}` replaced by its substitution, a function's ARN.
        const substitutions = properties.DefinitionSubstitutions as Record<string, unknown>;
        const used = new Set<string>();
        const definition = JSON.parse(
          source.replace(/\$\{([A-Za-z0-9_]+)\}/g, (_placeholder, name: string) => {
            used.add(name);
            const value = substitutions[name] as
              | { 'Fn::GetAtt'?: [string, string]; Ref?: string }
              | undefined;
            // A queue's URL is its Ref.
            if (value?.Ref !== undefined) return `url-of:${value.Ref}`;
            const [id, attribute] = value?.['Fn::GetAtt'] ?? [];
            if (attribute !== 'Arn') throw new Error(`\${${name}} is not replaced by a function ARN`);
            return `arn-of:${id}`;
          }),
        ) as {
          States: Record<
            string,
            { Type: string; Resource?: string; Parameters?: { FunctionName?: string; QueueUrl?: string } }
          >;
        };
        expect(Object.keys(substitutions).sort()).toEqual([...used].sort());
        // A waiting Task names the integration as its resource and its function as a parameter.
        const tasks = Object.fromEntries(
          Object.entries(definition.States)
            .filter(([, state]) => state.Type === 'Task')
            .map(([name, state]) => [
              name,
              state.Resource === INVOKE_AND_WAIT
                ? `waits for a token: ${state.Parameters?.FunctionName}`
                : state.Resource === SEND_AND_WAIT
                  ? `sends a token: ${state.Parameters?.QueueUrl}`
                  : state.Resource,
            ]),
        );
        expect([kind, tasks]).toEqual([
          kind,
          Object.fromEntries(
            Object.entries(TASK_WORKERS[kind]).map(([state, worker]) => [
              state,
              QUEUED_TASKS.includes(state)
                ? `sends a token: url-of:${queueIdOf(stage.stateless.pipeline.renderQueue)}`
                : `${WAITING_TASKS.includes(state) ? 'waits for a token: ' : ''}arn-of:${functionIds.get(worker)}`,
            ]),
          ),
        ]);
      }
    });

    it('lets each state machine invoke exactly the functions its file runs, and all together the five workers, the delivery wait’s two and the acceptance’s two', () => {
      const invoked = kinds.map((kind) => {
        const ids = invokedBy(roleIdOf(stateMachineOf(kind).machine.role));
        const workers = [...new Set(Object.values(TASK_WORKERS[kind]))].filter(
          (worker) => worker !== RENDER_QUEUE,
        );
        expect([kind, ids.sort()]).toEqual([kind, workers.map((worker) => functionIds.get(worker)).sort()]);
        return ids;
      });
      expect([...new Set(invoked.flat())].sort()).toEqual(
        [
          ...WORKERS.map((worker) => worker.id),
          HAND_BACK_DELIVERY,
          GIVE_UP_DELIVERY_WAIT,
          ACCEPT_ONBOARDING,
          GIVE_UP_ACCEPTANCE,
        ]
          .map((id) => functionIds.get(id))
          .sort(),
      );
      // And nothing else in the stack may invoke a function.
      const invokers = Object.values(template.findResources('AWS::IAM::Policy')).filter((policy) =>
        (policy.Properties.PolicyDocument.Statement as PolicyStatement[]).some((statement) =>
          actionsOf(statement).some((action) => action.startsWith('lambda:')),
        ),
      );
      expect(invokers.map((policy) => policy.Properties.Roles).sort()).toEqual(
        kinds.map((kind) => [{ Ref: roleIdOf(stateMachineOf(kind).machine.role) }]).sort(),
      );
    });

    it('sizes each worker, with the default ephemeral storage, on ARM64 like every function', () => {
      for (const worker of WORKERS) {
        const { properties } = functionOf(worker.id) as unknown as { properties: Record<string, unknown> };
        expect([worker.id, properties]).toEqual([
          worker.id,
          expect.objectContaining({ ...WORKER_SIZES[worker.id], Architectures: ['arm64'] }),
        ]);
        expect(properties.EphemeralStorage).toBeUndefined();
      }
    });

    it('lets the page-writing workers read, put and delete blobs, the token keeper and the outcome recorder none, and the others only read and put', () => {
      for (const worker of WORKERS) {
        const actions = bucketActionsOf(worker.id);
        if (BLOBLESS_WORKERS.includes(worker.id)) {
          expect([worker.id, actions]).toEqual([worker.id, []]);
          continue;
        }
        const statements = statementsOfFunction(worker.id);
        expect([worker.id, actions]).toEqual([
          worker.id,
          expect.arrayContaining(['s3:GetObject', 's3:PutObject']),
        ]);
        expect(grants(statements, 's3:PutObject', readOf('bucketName'))).toBe(true);
        // The page writers write and replace under published/ only (hardening.test.ts checks the folders).
        if (DELETING_WORKERS.includes(worker.id))
          expect(grants(statements, 's3:PutObject', '/published/*')).toBe(true);
        const deletes = actions.filter((action) => action.startsWith('s3:Delete'));
        expect([worker.id, deletes]).toEqual([
          worker.id,
          DELETING_WORKERS.includes(worker.id) ? ['s3:DeleteObject'] : [],
        ]);
      }
    });

    it('tells each host exactly the state machines of the runs it starts, and lets it start exactly those', () => {
      const machineRef = (kind: RunKind) => ({ Ref: stateMachineOf(kind).id });
      const uploads = ROUTES.filter((route) => route.upload).map((route) => route.name);
      /**
       * The kinds of run each function starts: uploads accept versions; the fan-out, the delivery consumer
       * and the re-drive may start a delivery's wait (its hand-back only hands on what is due).
       */
      const startedBy = (name: string): readonly RunKind[] => {
        if (name === REDRIVE) return kinds;
        if (name === FAN_OUT || name === DELIVER) return ['delivery'];
        return (uploads as readonly string[]).includes(name) ? ['contract'] : [];
      };
      const settingsOf = (kinds: readonly RunKind[]) =>
        Object.fromEntries(kinds.map((kind) => [STATE_MACHINE_SETTINGS[kind], machineRef(kind)]));
      const allSettings = Object.values(STATE_MACHINE_SETTINGS);
      for (const name of functionIds.keys()) {
        const variables = functionOf(name).properties.Environment.Variables;
        const told = Object.fromEntries(
          allSettings.filter((s) => s in variables).map((s) => [s, variables[s]]),
        );
        expect([name, told]).toEqual([name, settingsOf(startedBy(name))]);
      }
      // The ingest service accepts uploads too.
      const [taskDefinition] = Object.values(template.findResources('AWS::ECS::TaskDefinition'));
      const [container] = (taskDefinition?.Properties.ContainerDefinitions ?? []) as {
        Environment: { Name: string; Value: unknown }[];
      }[];
      const containerSettings = (container?.Environment ?? []).filter((setting) =>
        allSettings.includes(setting.Name),
      );
      expect(Object.fromEntries(containerSettings.map((s) => [s.Name, s.Value]))).toEqual(
        settingsOf(['contract']),
      );

      const starters = Object.values(template.findResources('AWS::IAM::Policy')).flatMap((policy) => {
        const statements = (policy.Properties.PolicyDocument.Statement as PolicyStatement[]).filter(
          (statement) => actionsOf(statement).includes('states:StartExecution'),
        );
        return statements.length === 0 ? [] : [{ roles: policy.Properties.Roles, statements }];
      });
      expect(starters.every((starter) => starter.roles.length === 1)).toBe(true);
      const [taskRoleId] = Object.keys(template.findResources('AWS::IAM::Role')).filter((id) =>
        id.includes('TaskTaskRole'),
      );
      const expected: [string, readonly RunKind[]][] = [
        ...uploads.map((name): [string, RunKind[]] => [roleIdOf(functions.get(name)?.role), ['contract']]),
        [taskRoleId as string, ['contract']],
        [roleIdOf(stage.stateless.delivery.fanOut.role), ['delivery']],
        [roleIdOf(stage.stateless.delivery.deliver.role), ['delivery']],
        [roleIdOf(stage.stateless.redrive.role), kinds],
        [roleIdOf(stage.stateless.onboarding.functions.get(FRAME_SUBMIT_HANDLER)?.role), ['acceptance']],
      ];
      // Each role's statements in a stable order: which state machines, not the order they were granted in.
      const inOrder = (statements: unknown[][]) =>
        [...statements].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
      const started = starters.map(({ roles, statements }) => [
        (roles as { Ref: string }[])[0]?.Ref,
        inOrder(statements.map((statement) => [actionsOf(statement), statement.Resource])),
      ]);
      const byRole = (entries: unknown[][]) =>
        [...entries].sort((a, b) => String(a[0]).localeCompare(String(b[0])));
      expect(byRole(started)).toEqual(
        byRole(
          expected.map(([role, kinds]) => [
            role,
            inOrder(kinds.map((kind) => [['states:StartExecution'], machineRef(kind)])),
          ]),
        ),
      );
    });

    it('lets exactly the hosts that accept versions (a new version ends the previous one’s wait) and the render consumer answer contract runs’ tokens', () => {
      const uploads = ROUTES.filter((route) => route.upload).map((route) => route.name);
      const [taskRoleId] = Object.keys(template.findResources('AWS::IAM::Role')).filter((id) =>
        id.includes('TaskTaskRole'),
      );
      const enders = Object.values(template.findResources('AWS::IAM::Policy')).flatMap((policy) =>
        (policy.Properties.PolicyDocument.Statement as PolicyStatement[])
          .filter((statement) => actionsOf(statement).some((action) => action.startsWith('states:SendTask')))
          .map((statement) => [
            (policy.Properties.Roles as { Ref: string }[]).map((role) => role.Ref),
            [...actionsOf(statement)].sort(),
            statement.Resource,
          ]),
      );
      // And the render consumer, which answers the Process Tasks.
      const expected = [
        ...uploads.map((name) => roleIdOf(functions.get(name)?.role)),
        taskRoleId,
        roleIdOf(functions.get(RENDER_CONTRACTS)?.role),
      ].map((role) => [
        [role],
        ['states:SendTaskFailure', 'states:SendTaskHeartbeat', 'states:SendTaskSuccess'],
        { Ref: stateMachineOf('contract').id },
      ]);
      const byRole = (entries: unknown[][]) =>
        [...entries].sort((a, b) => JSON.stringify(a[0]).localeCompare(JSON.stringify(b[0])));
      expect(byRole(enders)).toEqual(byRole(expected));
    });

    it('re-drives recorded runs every few minutes', () => {
      template.hasResourceProperties('AWS::Events::Rule', {
        ScheduleExpression: `rate(${REDRIVE_MINUTES} minutes)`,
        State: 'ENABLED',
        Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [functionOf(REDRIVE).id, 'Arn'] } })],
      });
    });

    it('outputs every state machine’s ARN', () => {
      template.hasOutput('ContractStateMachineArn', { Value: { Ref: stateMachineOf('contract').id } });
      template.hasOutput('ReviewStateMachineArn', { Value: { Ref: stateMachineOf('review').id } });
      template.hasOutput('DeliveryStateMachineArn', { Value: { Ref: stateMachineOf('delivery').id } });
    });
  });

  describe('webhook delivery', () => {
    interface Properties extends FunctionProperties {
      MemorySize: number;
      Timeout: number;
      VpcConfig?: unknown;
    }
    const propertiesOf = (name: string) => functionOf(name).properties as Properties;

    it('gives the consumer 30 s and 512 MB, the hand-back and the give-up their Tasks’ 30 s, and runs the five functions outside any VPC', () => {
      const definition = JSON.parse(readFileSync(fromRoot(WORKFLOW_FILES.delivery), 'utf8')) as {
        States: Record<string, { Type: string; TimeoutSeconds?: number }>;
      };
      expect(propertiesOf(DELIVER)).toMatchObject({ MemorySize: 512, Timeout: 30 });
      expect(propertiesOf(HAND_BACK_DELIVERY)).toMatchObject({
        MemorySize: 256,
        Timeout: definition.States.HandBack?.TimeoutSeconds,
      });
      expect(propertiesOf(GIVE_UP_DELIVERY_WAIT)).toMatchObject({
        MemorySize: 256,
        Timeout: definition.States.GiveUp?.TimeoutSeconds,
      });
      expect(propertiesOf(FAN_OUT)).toMatchObject({ MemorySize: 256, Timeout: 30 });
      expect(propertiesOf(PUBLISH_EVENTS)).toMatchObject({ MemorySize: 256, Timeout: 120 });
      // Public https endpoints are reached directly; the SSRF guard is in the consumer's code.
      for (const name of [DELIVER, HAND_BACK_DELIVERY, GIVE_UP_DELIVERY_WAIT, FAN_OUT, PUBLISH_EVENTS])
        expect([name, propertiesOf(name).VpcConfig]).toEqual([name, undefined]);
    });

    it('lets none of the functions, nor the re-drive, touch the bucket', () => {
      for (const name of [
        DELIVER,
        HAND_BACK_DELIVERY,
        GIVE_UP_DELIVERY_WAIT,
        FAN_OUT,
        PUBLISH_EVENTS,
        REDRIVE,
      ])
        expect([name, bucketActionsOf(name)]).toEqual([name, []]);
    });

    it('starts the delivery state machine only for waits: it waits until the attempt is due, then hands the run back, or gives up into a recorded failure', () => {
      const definition = JSON.parse(readFileSync(fromRoot(WORKFLOW_FILES.delivery), 'utf8')) as {
        StartAt: string;
        States: Record<string, { Type: string; TimestampPath?: string; Next?: string; Catch?: unknown }>;
      };
      expect(definition.StartAt).toBe('WaitUntilDue');
      expect(definition.States.WaitUntilDue).toMatchObject({
        Type: 'Wait',
        TimestampPath: '$.dueAt',
        Next: 'HandBack',
      });
      expect(definition.States.HandBack).toMatchObject({ Type: 'Task', Next: 'HandedBack' });
      expect(definition.States.HandedBack?.Type).toBe('Succeed');
      // Its failures: test/adapters/delivery-wait-give-up.test.ts.
      expect(definition.States.HandBack?.Catch).toEqual([
        { ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'GiveUp' },
      ]);
      expect(definition.States.GiveUp).toMatchObject({ Type: 'Task', Next: 'GaveUp' });
      expect(definition.States.GaveUp?.Type).toBe('Fail');
      expect(Object.keys(definition.States)).toHaveLength(5);
    });

    it('lets exactly the fan-out, the consumer, the hand-back and the re-drive send to the delivery queue, told its address', () => {
      const queueId = queueIdOf(stage.stateless.delivery.deliveryQueue);
      const senders = Object.values(template.findResources('AWS::IAM::Policy')).filter((policy) =>
        (policy.Properties.PolicyDocument.Statement as PolicyStatement[]).some(
          (statement) =>
            actionsOf(statement).includes('sqs:SendMessage') &&
            JSON.stringify(statement.Resource).includes(queueId),
        ),
      );
      const expected = [FAN_OUT, DELIVER, HAND_BACK_DELIVERY, REDRIVE];
      expect(senders.map((policy) => policy.Properties.Roles[0].Ref).sort()).toEqual(
        expected.map((name) => roleIdOf(functions.get(name)?.role)).sort(),
      );
      for (const name of functionIds.keys()) {
        const told = functionOf(name).properties.Environment.Variables.DELIVERY_QUEUE_URL;
        expect([name, told]).toEqual([name, expected.includes(name) ? { Ref: queueId } : undefined]);
      }
    });

    const mappings = () =>
      Object.values(template.findResources('AWS::Lambda::EventSourceMapping')).map(
        (mapping) => mapping.Properties as Record<string, unknown>,
      );
    /** The event source mappings that read `queue`. */
    const mappingsFrom = (queue: { node: { defaultChild?: unknown } }) =>
      mappings().filter((m) => JSON.stringify(m.EventSourceArn).includes(queueIdOf(queue)));

    it('runs the publisher from the table’s stream, only for inserted outbox events, in batches split and retried a bounded number of times', () => {
      const fromStream = mappings().filter((m) => JSON.stringify(m.EventSourceArn).includes('StreamArn'));
      expect(fromStream).toHaveLength(1);
      const properties = fromStream[0] as Record<string, unknown> & {
        FilterCriteria: { Filters: { Pattern: string }[] };
      };
      expect(properties).toMatchObject({
        FunctionName: { Ref: functionOf(PUBLISH_EVENTS).id },
        EventSourceArn: expectImportOf('tableStreamArn'),
        StartingPosition: 'LATEST',
        BatchSize: 100,
        BisectBatchOnFunctionError: true,
        MaximumRetryAttempts: 3,
        MaximumRecordAgeInSeconds: 3600,
      });
      expect(properties.FilterCriteria.Filters.map((filter) => JSON.parse(filter.Pattern))).toEqual([
        { eventName: ['INSERT'], dynamodb: { NewImage: { type: { S: ['event'] } } } },
      ]);
    });

    it('lets only the publisher read the table’s stream (and decrypt it with the table’s key)', () => {
      const statements = statementsOfFunction(PUBLISH_EVENTS);
      for (const action of ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator']) {
        expect([action, grants(statements, action, 'StreamArn')]).toEqual([action, true]);
      }
      expect(grants(statements, 'kms:Decrypt', readOf('tableKeyArn'))).toBe(true);
      const readers = Object.values(template.findResources('AWS::IAM::Policy')).filter((policy) =>
        (policy.Properties.PolicyDocument.Statement as PolicyStatement[]).some(
          (statement) =>
            actionsOf(statement).includes('dynamodb:GetRecords') &&
            JSON.stringify(statement.Resource).includes('StreamArn'),
        ),
      );
      expect(readers.map((policy) => policy.Properties.Roles)).toEqual([
        [{ Ref: roleIdOf(stage.stateless.delivery.publish.role) }],
      ]);
    });

    it('lets only the publisher put events, on its own environment’s bus, which it is told', () => {
      const busId = stage.stateless.getLogicalId(stage.stateless.delivery.bus.node.defaultChild as never);
      expect(functionOf(PUBLISH_EVENTS).properties.Environment.Variables.EVENT_BUS_NAME).toEqual({
        Ref: busId,
      });
      const putters = Object.values(template.findResources('AWS::IAM::Policy')).filter((policy) =>
        (policy.Properties.PolicyDocument.Statement as PolicyStatement[]).some((statement) =>
          actionsOf(statement).includes('events:PutEvents'),
        ),
      );
      expect(putters.map((policy) => policy.Properties.Roles)).toEqual([
        [{ Ref: roleIdOf(stage.stateless.delivery.publish.role) }],
      ]);
      expect(grants(statementsOfFunction(PUBLISH_EVENTS), 'events:PutEvents', busId)).toBe(true);
    });

    it('routes every interface event from the bus to the fan-out queue by the rule the local bus uses', () => {
      const busId = stage.stateless.getLogicalId(stage.stateless.delivery.bus.node.defaultChild as never);
      const onBus = Object.values(template.findResources('AWS::Events::Rule')).filter(
        (rule) => rule.Properties.EventBusName !== undefined,
      );
      expect(onBus).toHaveLength(1);
      const rule = onBus[0]?.Properties as {
        EventBusName: unknown;
        EventPattern: Record<string, unknown>;
        Targets: Array<{ Arn: unknown; DeadLetterConfig?: { Arn: unknown } }>;
      };
      expect(rule.EventBusName).toEqual({ Ref: busId });
      expect(rule.EventPattern).toEqual(BUS_RULES.find((r) => r.name === 'webhook-fan-out')?.pattern);
      expect(rule.Targets).toEqual([
        expect.objectContaining({
          Arn: { 'Fn::GetAtt': [queueIdOf(stage.stateless.delivery.fanOutQueue), 'Arn'] },
          DeadLetterConfig: {
            Arn: { 'Fn::GetAtt': [queueIdOf(stage.stateless.delivery.fanOutDeadLetters), 'Arn'] },
          },
        }),
      ]);
    });

    it('runs the fan-out from its queue: batches of 10, failed records reported, at most 10 at once', () => {
      const fromQueue = mappingsFrom(stage.stateless.delivery.fanOutQueue);
      expect(fromQueue).toEqual([
        expect.objectContaining({
          FunctionName: { Ref: functionOf(FAN_OUT).id },
          EventSourceArn: { 'Fn::GetAtt': [queueIdOf(stage.stateless.delivery.fanOutQueue), 'Arn'] },
          BatchSize: 10,
          MaximumBatchingWindowInSeconds: 1,
          FunctionResponseTypes: ['ReportBatchItemFailures'],
          ScalingConfig: { MaximumConcurrency: 10 },
        }),
      ]);
    });

    it('runs the delivery consumer from its queue: batches of 10 with no window, failed records reported, at most 50 at once', () => {
      const queueId = queueIdOf(stage.stateless.delivery.deliveryQueue);
      const fromQueue = mappingsFrom(stage.stateless.delivery.deliveryQueue);
      expect(fromQueue).toEqual([
        expect.objectContaining({
          FunctionName: { Ref: functionOf(DELIVER).id },
          EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
          BatchSize: 10,
          FunctionResponseTypes: ['ReportBatchItemFailures'],
          ScalingConfig: { MaximumConcurrency: 50 },
        }),
      ]);
      expect(fromQueue[0]?.MaximumBatchingWindowInSeconds).toBeUndefined();
      expect(mappings()).toHaveLength(4);
    });

    it('renders from the render queue, which only the contract state machine and the render consumer (an attempt waiting its organisation’s turn) send to: one version a function, failed records reported, a bounded number at once, half of them for one organisation', () => {
      const queueId = queueIdOf(stage.stateless.pipeline.renderQueue);
      const fromQueue = mappingsFrom(stage.stateless.pipeline.renderQueue);
      expect(fromQueue).toEqual([
        expect.objectContaining({
          FunctionName: { Ref: functionOf(RENDER_CONTRACTS).id },
          EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
          BatchSize: 1,
          FunctionResponseTypes: ['ReportBatchItemFailures'],
          ScalingConfig: { MaximumConcurrency: RENDERS_AT_ONCE },
        }),
      ]);
      expect(functionOf(RENDER_CONTRACTS).properties).toMatchObject({ MemorySize: 3008, Timeout: 900 });
      expect(bucketActionsOf(RENDER_CONTRACTS)).toEqual(
        expect.arrayContaining(['s3:GetObject', 's3:PutObject', 's3:DeleteObject']),
      );
      const senders = Object.values(template.findResources('AWS::IAM::Policy')).filter((policy) =>
        (policy.Properties.PolicyDocument.Statement as PolicyStatement[]).some(
          (statement) =>
            actionsOf(statement).includes('sqs:SendMessage') &&
            JSON.stringify(statement.Resource).includes(queueId),
        ),
      );
      const roles = (list: unknown[]) => list.map((roles) => JSON.stringify(roles)).sort();
      expect(roles(senders.map((policy) => policy.Properties.Roles))).toEqual(
        roles([
          [{ Ref: roleIdOf(stateMachineOf('contract').machine.role) }],
          [{ Ref: roleIdOf(stage.stateless.pipeline.render.role) }],
        ]),
      );
      expect(functionOf(RENDER_CONTRACTS).properties.Environment.Variables).toMatchObject({
        RENDER_QUEUE_URL: { Ref: queueId },
        RENDERS_PER_ORGANISATION: String(RENDERS_AT_ONCE / 2),
      });
    });

    it('gives every queue a dead-letter queue, and every dead-letter queue (kept 14 days) an alarm; TLS only, encrypted', () => {
      const queues = template.findResources('AWS::SQS::Queue');
      const workQueues = Object.entries(queues).filter(([, queue]) => queue.Properties.RedrivePolicy);
      const deadLetterIds = Object.keys(queues).filter((id) => !queues[id]?.Properties.RedrivePolicy);
      const receivesOf: Record<string, number> = {
        [queueIdOf(stage.stateless.delivery.fanOutQueue)]: FAN_OUT_RECEIVES,
        [queueIdOf(stage.stateless.delivery.deliveryQueue)]: DELIVERY_RECEIVES,
        [queueIdOf(stage.stateless.pipeline.renderQueue)]: RENDER_RECEIVES,
      };
      for (const [id, queue] of workQueues) {
        const { deadLetterTargetArn, maxReceiveCount } = queue.Properties.RedrivePolicy as {
          deadLetterTargetArn: { 'Fn::GetAtt': [string] };
          maxReceiveCount: number;
        };
        expect([id, deadLetterIds.includes(deadLetterTargetArn['Fn::GetAtt'][0])]).toEqual([id, true]);
        expect([id, maxReceiveCount]).toEqual([id, receivesOf[id]]);
      }
      expect(workQueues.map(([id]) => id).sort()).toEqual(Object.keys(receivesOf).sort());
      // The queues' alarms (lib/operations.ts alarms on much else, some on metric expressions).
      const alarmed = Object.values(template.findResources('AWS::CloudWatch::Alarm')).map((alarm) => [
        alarm.Properties.MetricName,
        alarm.Properties.Threshold,
        (alarm.Properties.Dimensions as Array<{ Value: { 'Fn::GetAtt'?: [string] } }> | undefined)?.[0]
          ?.Value['Fn::GetAtt']?.[0],
      ]);
      for (const id of deadLetterIds) {
        expect([id, queues[id]?.Properties.MessageRetentionPeriod]).toEqual([id, 14 * 24 * 3600]);
        expect(alarmed).toContainEqual(['ApproximateNumberOfMessagesVisible', 1, id]);
      }
      for (const [id, queue] of Object.entries(queues))
        expect([id, queue.Properties.SqsManagedSseEnabled]).toEqual([id, true]);
      template.resourcePropertiesCountIs(
        'AWS::SQS::QueuePolicy',
        {
          PolicyDocument: Match.objectLike({
            Statement: Match.arrayWith([
              Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
            ]),
          }),
        },
        Object.keys(queues).length,
      );
    });

    it('also publishes every minute: the only schedules are the publisher’s and the re-drive’s', () => {
      const schedules = Object.values(template.findResources('AWS::Events::Rule'))
        .filter((rule) => rule.Properties.ScheduleExpression !== undefined)
        .map((rule) => [
          rule.Properties.ScheduleExpression,
          rule.Properties.State,
          (rule.Properties.Targets as { Arn: { 'Fn::GetAtt': [string, string] } }[]).map(
            (target) => target.Arn['Fn::GetAtt'][0],
          ),
        ])
        .sort();
      expect(schedules).toEqual(
        [
          [`rate(${PUBLISH_MINUTES} minute)`, 'ENABLED', [functionOf(PUBLISH_EVENTS).id]],
          [`rate(${REDRIVE_MINUTES} minutes)`, 'ENABLED', [functionOf(REDRIVE).id]],
        ].sort(),
      );
      for (const name of [PUBLISH_EVENTS, REDRIVE]) {
        template.hasResourceProperties('AWS::Lambda::Permission', {
          Action: 'lambda:InvokeFunction',
          FunctionName: { 'Fn::GetAtt': [functionOf(name).id, 'Arn'] },
          Principal: 'events.amazonaws.com',
        });
      }
    });
  });

  describe('hosted pages', () => {
    interface Behaviour {
      PathPattern?: string;
      AllowedMethods: string[];
      CachePolicyId: unknown;
      ResponseHeadersPolicyId: { Ref: string };
      FunctionAssociations: { EventType: string; FunctionARN: { 'Fn::GetAtt': [string, string] } }[];
      ViewerProtocolPolicy: string;
    }
    interface PagesDistribution {
      Origins: {
        DomainName: unknown;
        OriginPath: string;
        OriginAccessControlId: unknown;
        S3OriginConfig: unknown;
      }[];
      DefaultCacheBehavior: Behaviour;
      CacheBehaviors: Behaviour[];
    }
    const pages = (): PagesDistribution =>
      resources(template)[logicalIdOf(stage.stateless, stage.stateless.pages.distribution)]?.Properties
        ?.DistributionConfig as PagesDistribution;
    const functionCode = (): string => {
      const [fn] = Object.values(template.findResources('AWS::CloudFront::Function'));
      return fn?.Properties.FunctionCode;
    };
    type Answer = {
      uri?: string;
      statusCode?: number;
      headers?: Record<string, { value: string }>;
      body?: { data: string };
    };
    /** The slugs the key value store handle was asked about, by the last `viewerRequest`. */
    let asked: string[] = [];
    /**
     * Runs the viewer-request function as CloudFront would, on a request for `uri`, its key value store
     * holding the `withdrawn` slugs: the runtime's `cloudfront` module (the first line's import) is a fake
     * whose `kvs()` handle answers `exists` as the store would.
     */
    const viewerRequest = async (uri: string, withdrawn: string[] = []): Promise<Answer> => {
      const code = functionCode();
      if (!code.startsWith(`${KVS_IMPORT}\n`))
        throw new Error('the function does not import its key value store');
      asked = [];
      const handle = {
        exists: async (key: string) => {
          asked.push(key);
          return withdrawn.includes(key);
        },
      };
      const handler = runInNewContext(`var cf = fakeCloudfront;${code.slice(KVS_IMPORT.length)}\nhandler;`, {
        fakeCloudfront: { kvs: () => handle },
      }) as (event: unknown) => Promise<Answer>;
      return JSON.parse(JSON.stringify(await handler({ request: { uri, method: 'GET', headers: {} } })));
    };
    /** The headers a response headers policy sets, by name. */
    const headersOfPolicy = (id: string): Record<string, string> => {
      const config = resources(template)[id]?.Properties?.ResponseHeadersPolicyConfig as {
        SecurityHeadersConfig: {
          ContentSecurityPolicy: { ContentSecurityPolicy: string; Override: boolean };
          ContentTypeOptions: { Override: boolean };
          ReferrerPolicy: { ReferrerPolicy: string; Override: boolean };
          FrameOptions: { FrameOption: string; Override: boolean };
        };
        CustomHeadersConfig: { Items: { Header: string; Value: string; Override: boolean }[] };
      };
      const security = config.SecurityHeadersConfig;
      for (const header of Object.values(security)) expect(header.Override).toBe(true);
      for (const header of config.CustomHeadersConfig.Items) expect(header.Override).toBe(true);
      return {
        'Content-Security-Policy': security.ContentSecurityPolicy.ContentSecurityPolicy,
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': security.ReferrerPolicy.ReferrerPolicy,
        'X-Frame-Options': security.FrameOptions.FrameOption,
        ...Object.fromEntries(config.CustomHeadersConfig.Items.map((item) => [item.Header, item.Value])),
      };
    };

    it('serves only the blob bucket’s published/ folder, through origin access control', () => {
      const origins = pages().Origins;
      expect(origins).toHaveLength(1);
      expect(origins[0]).toMatchObject({
        DomainName: {
          'Fn::Join': [
            '',
            [expectImportOf(BUCKET), '.s3.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }],
          ],
        },
        OriginPath: '/published',
        OriginAccessControlId: { 'Fn::GetAtt': [expect.any(String), 'Id'] },
      });
      template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
        OriginAccessControlConfig: {
          OriginAccessControlOriginType: 's3',
          SigningBehavior: 'always',
          SigningProtocol: 'sigv4',
        },
      });
    });

    it('serves GET and HEAD over HTTPS, every path through the viewer-request function', () => {
      const [fnId] = Object.keys(template.findResources('AWS::CloudFront::Function'));
      template.hasResourceProperties('AWS::CloudFront::Function', {
        FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }),
      });
      for (const behaviour of [pages().DefaultCacheBehavior, ...pages().CacheBehaviors]) {
        expect(behaviour).toMatchObject({
          AllowedMethods: ['GET', 'HEAD'],
          ViewerProtocolPolicy: 'redirect-to-https',
          FunctionAssociations: [
            { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [fnId, 'FunctionARN'] } },
          ],
        });
      }
    });

    it('resolves paths as the pages host does: /{slug}/ is index.html, /{slug} moves there, the rest is 404', async () => {
      expect(await viewerRequest('/abc_D-9/')).toMatchObject({ uri: '/abc_D-9/index.html' });
      expect(await viewerRequest('/abc/v3/page-1.webp')).toMatchObject({ uri: '/abc/v3/page-1.webp' });
      expect(await viewerRequest('/abc/v3/viewer-1a2b.css')).toMatchObject({
        uri: '/abc/v3/viewer-1a2b.css',
      });
      expect(await viewerRequest('/abc')).toMatchObject({
        statusCode: 301,
        headers: { location: { value: '/abc/' } },
      });
      for (const uri of [
        '/',
        '/a.b/',
        '/abc/withdrawn',
        '/abc/../x.html',
        '/abc/.hidden.html',
        '/abc/v1/x.exe',
        '//x.html',
      ]) {
        const answer = await viewerRequest(uri);
        expect([uri, answer.statusCode, answer.body?.data]).toEqual([uri, 404, renderNotFound()]);
        for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) {
          expect(answer.headers?.[name.toLowerCase()]?.value).toBe(value);
        }
      }
    });

    it('looks slugs up in a key value store of its own, in code within CloudFront’s 10 KB', () => {
      const stores = Object.keys(template.findResources('AWS::CloudFront::KeyValueStore'));
      expect(stores).toEqual([logicalIdOf(stage.stateless, stage.stateless.pages.withdrawnSlugs)]);
      const [fn] = Object.values(template.findResources('AWS::CloudFront::Function'));
      expect(fn?.Properties.FunctionConfig.KeyValueStoreAssociations).toEqual([
        { KeyValueStoreARN: { 'Fn::GetAtt': [stores[0], 'Arn'] } },
      ]);
      expect(functionCode().startsWith(`${KVS_IMPORT}\n`)).toBe(true);
      expect(functionCode()).toContain('const WITHDRAWN_SLUGS = cf.kvs();');
      expect(functionCode()).not.toMatch(/__[A-Z_]+__|^\/\//m);
      expect(Buffer.byteLength(functionCode())).toBeLessThan(10 * 1024);
    });

    it('answers 410 with the plain withdrawn page for the page and every file of a withdrawn publication', async () => {
      for (const uri of [
        '/abc/',
        '/abc/index.html',
        '/abc/v3/page-1.webp',
        '/abc/v3/viewer-1a2b.css',
        '/abc/v3/contract.pdf',
        '/abc/review.html',
      ]) {
        const answer = await viewerRequest(uri, ['abc', 'other']);
        expect([uri, answer.statusCode, answer.body?.data, answer.uri]).toEqual([
          uri,
          410,
          renderWithdrawn(),
          undefined,
        ]);
        expect(asked).toEqual(['abc']);
        for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) {
          expect([uri, name, answer.headers?.[name.toLowerCase()]?.value]).toEqual([uri, name, value]);
        }
        expect(answer.headers?.['cache-control']?.value).toBe('no-store');
        expect(answer.headers?.['content-type']?.value).toBe('text/html; charset=utf-8');
      }
    });

    it('passes other publications’ paths through, and moves or refuses malformed ones before any look-up', async () => {
      expect(await viewerRequest('/abcd/v3/page-1.webp', ['abc'])).toMatchObject({
        uri: '/abcd/v3/page-1.webp',
      });
      expect(asked).toEqual(['abcd']);
      expect(await viewerRequest('/ab/', ['abc'])).toMatchObject({ uri: '/ab/index.html' });
      expect(await viewerRequest('/abc', ['abc'])).toMatchObject({ statusCode: 301 });
      expect(asked).toEqual([]);
      expect(await viewerRequest('/abc/withdrawn', ['abc'])).toMatchObject({ statusCode: 404 });
      expect(asked).toEqual([]);
    });

    const storeArnOf = () => ({
      'Fn::GetAtt': [logicalIdOf(stage.stateless, stage.stateless.pages.withdrawnSlugs), 'Arn'],
    });

    describe('withdrawal gate', () => {
      const gateId = () => logicalIdOf(stage.stateless, stage.stateless.pages.withdrawalGate);
      const storeArn = () => ({
        'Fn::GetAtt': [logicalIdOf(stage.stateless, stage.stateless.pages.withdrawnSlugs), 'Arn'],
      });

      it('receives the S3 events of every withdrawal marker of the blob bucket, created or deleted', () => {
        const rules = Object.values(template.findResources('AWS::Events::Rule')).filter((rule) =>
          JSON.stringify(rule.Properties.Targets).includes(`"${gateId()}"`),
        );
        expect(rules).toHaveLength(1);
        expect(rules[0]?.Properties).toMatchObject({
          State: 'ENABLED',
          EventPattern: {
            source: ['aws.s3'],
            'detail-type': ['Object Created', 'Object Deleted'],
            detail: {
              bucket: { name: [expectImportOf(BUCKET)] },
              object: { key: [{ wildcard: 'published/*/withdrawn' }] },
            },
          },
          Targets: [{ Arn: { 'Fn::GetAtt': [gateId(), 'Arn'] }, Id: expect.any(String) }],
        });
        template.hasResourceProperties('AWS::Lambda::Permission', {
          Action: 'lambda:InvokeFunction',
          FunctionName: { 'Fn::GetAtt': [gateId(), 'Arn'] },
          Principal: 'events.amazonaws.com',
        });
      });

      it('is told the store, the distribution and the bucket, and keeps failed events', () => {
        const gate = resources(template)[gateId()]?.Properties as Record<string, unknown> &
          FunctionProperties;
        expect(gate).toMatchObject({
          Runtime: 'nodejs24.x',
          Architectures: ['arm64'],
          MemorySize: 256,
          Timeout: 60,
        });
        expect(gate.Environment.Variables).toEqual({
          WITHDRAWN_SLUGS_STORE_ARN: storeArn(),
          PAGES_DISTRIBUTION_ID: { Ref: logicalIdOf(stage.stateless, stage.stateless.pages.distribution) },
          BLOB_BUCKET: expectImportOf(BUCKET),
        });
        const queue = (gate.DeadLetterConfig as { TargetArn: { 'Fn::GetAtt': [string, string] } }).TargetArn;
        expect(resources(template)[queue['Fn::GetAtt'][0]]?.Type).toBe('AWS::SQS::Queue');
      });

      it('may list only marker keys, write only the store and invalidate only the pages’ distribution', () => {
        const statements = statementsOfRole(
          template,
          roleIdOf(stage.stateless.pages.withdrawalGate.role),
        ).filter((statement) => !actionsOf(statement).some((action) => /^(xray|sqs):/.test(action)));
        expect(statements).toEqual([
          {
            Effect: 'Allow',
            Action: 's3:ListBucket',
            Resource: expectBucketArn(),
            Condition: { StringLike: { 's3:prefix': 'published/*/withdrawn' } },
          },
          {
            Effect: 'Allow',
            Action: [
              'cloudfront-keyvaluestore:DescribeKeyValueStore',
              'cloudfront-keyvaluestore:PutKey',
              'cloudfront-keyvaluestore:DeleteKey',
            ],
            Resource: storeArn(),
          },
          {
            Effect: 'Allow',
            Action: 'cloudfront:CreateInvalidation',
            Resource: {
              'Fn::Join': [
                '',
                [
                  'arn:',
                  { Ref: 'AWS::Partition' },
                  ':cloudfront::',
                  { Ref: 'AWS::AccountId' },
                  ':distribution/',
                  { Ref: logicalIdOf(stage.stateless, stage.stateless.pages.distribution) },
                ],
              ],
            },
          },
        ]);
        // And nothing else may write the store or invalidate a distribution.
        const writers = Object.values(template.findResources('AWS::IAM::Policy')).filter((policy) =>
          (policy.Properties.PolicyDocument.Statement as PolicyStatement[]).some((statement) =>
            actionsOf(statement).some((action) =>
              /^cloudfront(-keyvaluestore:|:CreateInvalidation$)/.test(action),
            ),
          ),
        );
        // (The origin secret's rotation changes the API distribution's header: tested with it.)
        expect(writers.map((policy) => policy.Properties.Roles)).toEqual([
          [{ Ref: roleIdOf(stage.stateless.pages.withdrawalGate.role) }],
          [{ Ref: roleIdOf(stage.stateless.pages.withdrawalBackfill.role) }],
        ]);
      });
    });

    describe('withdrawal backfill', () => {
      const backfillId = () => logicalIdOf(stage.stateless, stage.stateless.pages.withdrawalBackfill);

      it('runs during each deployment that makes the store or changes the function, after both exist', () => {
        const triggers = Object.entries(template.findResources('Custom::Trigger'));
        expect(triggers).toHaveLength(1);
        const [, trigger] = triggers[0] as [
          string,
          { Properties: Record<string, unknown>; DependsOn?: string[] },
        ];
        // The function's current version: a change of its code or settings runs it again.
        const version = (trigger.Properties.HandlerArn as { Ref: string }).Ref;
        expect(resources(template)[version]).toMatchObject({
          Type: 'AWS::Lambda::Version',
          Properties: { FunctionName: { Ref: backfillId() } },
        });
        expect(trigger.Properties).toMatchObject({ InvocationType: 'RequestResponse' });
        expect(trigger.DependsOn).toEqual(
          expect.arrayContaining([
            logicalIdOf(stage.stateless, stage.stateless.pages.withdrawnSlugs),
            backfillId(),
          ]),
        );
      });

      it('is told the store and the bucket, and may list the published folder and put keys, nothing more', () => {
        const backfill = resources(template)[backfillId()]?.Properties as unknown as FunctionProperties;
        expect(backfill.Environment.Variables).toMatchObject({
          WITHDRAWN_SLUGS_STORE_ARN: storeArnOf(),
          BLOB_BUCKET: expectImportOf(BUCKET),
        });
        const statements = statementsOfRole(
          template,
          roleIdOf(stage.stateless.pages.withdrawalBackfill.role),
        ).filter((statement) => !actionsOf(statement).some((action) => /^xray:/.test(action)));
        expect(statements).toEqual([
          {
            Effect: 'Allow',
            Action: 's3:ListBucket',
            Resource: expectBucketArn(),
            Condition: { StringEquals: { 's3:prefix': 'published/' } },
          },
          {
            Effect: 'Allow',
            Action: ['cloudfront-keyvaluestore:DescribeKeyValueStore', 'cloudfront-keyvaluestore:PutKey'],
            Resource: storeArnOf(),
          },
        ]);
      });
    });

    it('answers with the pages’ security headers, revalidating the stable page and caching a version’s files for good', () => {
      const byPattern = new Map(
        pages().CacheBehaviors.map((behaviour) => [behaviour.PathPattern, behaviour]),
      );
      expect([...byPattern.keys()]).toEqual(['/*/v*/*.pdf', '/*/v*/*']);
      const stable = pages().DefaultCacheBehavior;
      expect(headersOfPolicy(stable.ResponseHeadersPolicyId.Ref)).toEqual({
        ...PAGE_SECURITY_HEADERS,
        'Cache-Control': 'no-cache',
      });
      const revalidate = stable.CachePolicyId as { Ref: string };
      expect(resources(template)[revalidate.Ref]?.Properties?.CachePolicyConfig).toMatchObject({
        MinTTL: 0,
        DefaultTTL: 0,
      });
      const immutable = 'public, max-age=31536000, immutable';
      const files = byPattern.get('/*/v*/*');
      expect(files?.CachePolicyId).toBe(CACHING_OPTIMIZED);
      expect(headersOfPolicy(files?.ResponseHeadersPolicyId.Ref ?? '')).toEqual({
        ...PAGE_SECURITY_HEADERS,
        'Cache-Control': immutable,
      });
      const download = byPattern.get('/*/v*/*.pdf');
      expect(download?.CachePolicyId).toBe(CACHING_OPTIMIZED);
      expect(headersOfPolicy(download?.ResponseHeadersPolicyId.Ref ?? '')).toEqual({
        ...PAGE_SECURITY_HEADERS,
        'Cache-Control': immutable,
        'Content-Disposition': 'attachment',
      });
    });

    it('outputs the pages’ address', () => {
      template.hasOutput('PagesBaseUrl', { Value: pagesBaseUrl() });
    });
  });

  describe('CloudFront', () => {
    interface Origin {
      Id: string;
      DomainName: unknown;
      OriginCustomHeaders?: unknown;
    }
    interface DistributionConfig {
      Origins: Origin[];
      DefaultCacheBehavior: Record<string, unknown>;
      CacheBehaviors: { PathPattern: string }[];
    }
    const distribution = (): DistributionConfig =>
      resources(template)[logicalIdOf(stage.stateless, stage.stateless.distribution)]?.Properties
        ?.DistributionConfig as DistributionConfig;
    const originOf = (domain: string): Origin | undefined =>
      distribution().Origins.find((origin) => JSON.stringify(origin.DomainName).includes(domain));

    it('sends everything by default to the HTTP API, uncached, every header but Host', () => {
      // This one, the hosted pages' one and the sign-up form's.
      template.resourceCountIs('AWS::CloudFront::Distribution', 3);
      expect(distribution().DefaultCacheBehavior).toMatchObject({
        TargetOriginId: originOf('execute-api')?.Id,
        AllowedMethods: ALL_METHODS,
        CachePolicyId: CACHING_DISABLED,
        OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST,
        ViewerProtocolPolicy: 'https-only',
      });
    });

    it('sends the two upload paths to the load balancer, with the origin secret header', () => {
      const origin = originOf('LoadBalancer');
      expect(origin).toBeDefined();
      expect(origin?.OriginCustomHeaders).toEqual([
        {
          HeaderName: ORIGIN_VERIFY_HEADER,
          HeaderValue: expect.objectContaining({ 'Fn::Join': expect.anything() }),
        },
      ]);
      expect(JSON.stringify(origin?.OriginCustomHeaders)).toContain('OriginVerify');
      // (And `/onboarding.js`, the loader from S3: onboarding-frame.test.ts.)
      const behaviours = distribution().CacheBehaviors.filter((b) => b.PathPattern !== LOADER_PATH);
      expect(behaviours.map((b) => b.PathPattern).sort()).toEqual(
        ['/v1/contract-reviews', '/v1/contract-reviews/*/versions'].sort(),
      );
      for (const behaviour of behaviours) {
        expect(behaviour).toMatchObject({
          TargetOriginId: origin?.Id,
          AllowedMethods: ALL_METHODS,
          CachePolicyId: CACHING_DISABLED,
          OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST,
        });
      }
    });

    it('outputs the distribution domain and the API URL', () => {
      template.hasOutput('DistributionDomainName', {
        Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Front'), 'DomainName'] },
      });
      template.hasOutput('ApiUrl', {
        Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('HttpApi'), 'ApiEndpoint'] },
      });
    });
  });
});
