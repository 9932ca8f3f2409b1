// infra -> the stateless stack of each stage, from the real app (both stages synthesised once, with
// real esbuild bundling of every handler): functions, routes, grants, upload ingest and CloudFront.
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { CfnRole } from 'aws-cdk-lib/aws-iam';
import { FALLBACK_HANDLER, ROUTES } from '../../lambdas/api/routes';
import type { Environment } from '../../lib/environments';
import type { ServiceStage } from '../../lib/service-stage';
import { ORIGIN_VERIFY_HEADER } from '../../lib/upload-ingest';
import {
  actionsOf,
  cdkJsonContext,
  grants,
  logicalIdOf,
  type PolicyStatement,
  resources,
  type SynthesisedApp,
  statementsOfRole,
  synthServiceApp,
} from './synth';

/** The settings every handler host is given (lambdas/adapters/aws/services.ts reads them). */
const SERVICE_SETTINGS = [
  'SERVICE_ENVIRONMENT',
  'TABLE_NAME',
  'BLOB_BUCKET',
  'SIGNING_SECRET_ARN',
  'SANDBOX_BASE_URL',
  'PRODUCTION_BASE_URL',
  'RATE_LIMITS',
];
/** CloudFront's managed policies: CachingDisabled and AllViewerExceptHostHeader. */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';
const ALL_METHODS = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'];

let synthesised: SynthesisedApp;

beforeAll(() => {
  synthesised = synthServiceApp();
});

afterAll(() => synthesised?.cleanUp());

describe.each<Environment>(['sandbox', 'production'])('stateless stack (%s)', (environment) => {
  let stage: ServiceStage;
  let template: Template;
  /** Logical id of each endpoint's function, by handler name. */
  let functionIds: Map<string, string>;

  /** An import of the same stage's stateful stack export (for CDK's Match, and for Jest's expect). */
  const exportName = (name: string) => `^contract-service-${environment}-stateful:ExportsOutputRef${name}`;
  const importOf = (name: string) => ({ 'Fn::ImportValue': Match.stringLikeRegexp(exportName(name)) });
  const expectImportOf = (name: string) => ({ 'Fn::ImportValue': expect.stringMatching(exportName(name)) });
  const TABLE = 'Table';
  const BUCKET = 'Blobs';
  const SIGNING_SECRET = 'AccessTokenSigningKey';

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
  const statementsOfFunction = (name: string): PolicyStatement[] => {
    const fn = stage.stateless.api.functions.get(name);
    if (!fn?.role) throw new Error(`no role for ${name}`);
    return statementsOfRole(template, stage.stateless.getLogicalId(fn.role.node.defaultChild as CfnRole));
  };

  beforeAll(() => {
    stage = synthesised.stages[environment];
    template = Template.fromStack(stage.stateless);
    functionIds = new Map(
      [...stage.stateless.api.functions].map(([name, fn]) => [name, logicalIdOf(stage.stateless, fn)]),
    );
  });

  describe('functions', () => {
    it('has exactly one function per endpoint plus the fallback, and no other', () => {
      template.resourceCountIs('AWS::Lambda::Function', ROUTES.length + 1);
      expect([...functionIds.keys()].sort()).toEqual([...ROUTES.map((r) => r.name), FALLBACK_HANDLER].sort());
    });

    it('runs every function on nodejs24.x, arm64, with X-Ray tracing and source maps', () => {
      for (const name of functionIds.keys()) {
        const { properties } = functionOf(name);
        expect(properties).toMatchObject({
          Runtime: 'nodejs24.x',
          Architectures: ['arm64'],
          Handler: 'index.handler',
          TracingConfig: { Mode: 'Active' },
          Environment: { Variables: { NODE_OPTIONS: '--enable-source-maps' } },
        });
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
        expect(variables.SIGNING_SECRET_ARN).toEqual(expectImportOf(SIGNING_SECRET));
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
        const route = Object.values(all).find(
          (r) => r.Type === 'AWS::ApiGatewayV2::Route' && r.Properties?.RouteKey === routeKey,
        );
        const target = JSON.stringify(route?.Properties?.Target);
        const integrationId = Object.keys(all).find((id) => target.includes(`"Ref":"${id}"`));
        const uri = all[integrationId ?? '']?.Properties?.IntegrationUri as {
          'Fn::GetAtt': [string, string];
        };
        return uri?.['Fn::GetAtt'][0];
      };
      template.resourceCountIs('AWS::ApiGatewayV2::Api', 1);
      template.resourceCountIs('AWS::ApiGatewayV2::Route', ROUTES.length + 1);
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
    it('lets every function read and write the table (and use its key) and read the signing key', () => {
      for (const name of functionIds.keys()) {
        const statements = statementsOfFunction(name);
        for (const action of [
          'dynamodb:GetItem',
          'dynamodb:PutItem',
          'dynamodb:Query',
          'dynamodb:UpdateItem',
        ]) {
          expect([name, action, grants(statements, action, 'ExportsOutputFnGetAttTable')]).toEqual([
            name,
            action,
            true,
          ]);
        }
        expect(grants(statements, 'kms:Decrypt', 'ExportsOutputFnGetAttTableKey')).toBe(true);
        expect(
          grants(statements, 'secretsmanager:GetSecretValue', 'ExportsOutputRefAccessTokenSigningKey'),
        ).toBe(true);
      }
    });

    it('lets the upload functions put and read blobs, and no other function touch the bucket', () => {
      for (const route of ROUTES) {
        const statements = statementsOfFunction(route.name);
        const bucketActions = statements.flatMap((s) => actionsOf(s).filter((a) => a.startsWith('s3:')));
        if (route.upload) {
          expect(bucketActions).toEqual(expect.arrayContaining(['s3:PutObject', 's3:GetObject*']));
          expect(grants(statements, 's3:PutObject', 'ExportsOutputFnGetAttBlobs')).toBe(true);
        } else {
          expect(bucketActions).toEqual([]);
        }
        expect(bucketActions.filter((a) => a.startsWith('s3:Delete'))).toEqual([]);
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
              { Name: 'RATE_LIMITS', Value: 'on' },
              { Name: 'TABLE_NAME', Value: importOf(TABLE) },
              { Name: 'BLOB_BUCKET', Value: importOf(BUCKET) },
              { Name: 'SIGNING_SECRET_ARN', Value: importOf(SIGNING_SECRET) },
              { Name: 'ORIGIN_VERIFY_SECRET_ARN', Value: { Ref: Match.stringLikeRegexp('OriginVerify') } },
            ]),
          }),
        ],
      });
      template.hasResourceProperties('AWS::ECS::Service', {
        LaunchType: 'FARGATE',
        DesiredCount: environment === 'production' ? 2 : 1,
        DeploymentConfiguration: Match.objectLike({
          DeploymentCircuitBreaker: { Enable: true, Rollback: true },
        }),
        NetworkConfiguration: { AwsvpcConfiguration: Match.objectLike({ AssignPublicIp: 'DISABLED' }) },
      });
    });

    it('grants the task the table, the bucket (put) and both secrets', () => {
      const [taskRoleId] = Object.keys(template.findResources('AWS::IAM::Role')).filter((id) =>
        id.includes('TaskTaskRole'),
      );
      const statements = statementsOfRole(template, taskRoleId ?? '');
      expect(grants(statements, 'dynamodb:PutItem', 'ExportsOutputFnGetAttTable')).toBe(true);
      expect(grants(statements, 's3:PutObject', 'ExportsOutputFnGetAttBlobs')).toBe(true);
      expect(grants(statements, 'secretsmanager:GetSecretValue', 'AccessTokenSigningKey')).toBe(true);
      expect(grants(statements, 'secretsmanager:GetSecretValue', 'OriginVerify')).toBe(true);
    });

    it('sits behind a load balancer that forwards only requests carrying the origin secret, health-checked on /healthz', () => {
      template.hasResourceProperties('AWS::ElasticLoadBalancingV2::LoadBalancer', {
        Scheme: 'internet-facing',
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
    const distribution = (): DistributionConfig => {
      const [first] = Object.values(template.findResources('AWS::CloudFront::Distribution'));
      return first?.Properties.DistributionConfig;
    };
    const originOf = (domain: string): Origin | undefined =>
      distribution().Origins.find((origin) => JSON.stringify(origin.DomainName).includes(domain));

    it('sends everything by default to the HTTP API, uncached, every header but Host', () => {
      template.resourceCountIs('AWS::CloudFront::Distribution', 1);
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
      const behaviours = distribution().CacheBehaviors;
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
