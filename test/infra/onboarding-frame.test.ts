// infra -> the sign-up form deployed (lib/onboarding-frame.ts; frontend/onboarding/README.md "Serving"),
// from the real app (both stages synthesised once, real bundling): the frame API's functions, their
// settings and grants (only they read the answers key), its routes on an HTTP API of its own, the frame's
// distribution (files from S3 under the frame's security headers, `/api/*` to the frame API), the built
// files deployed with the content type and Cache-Control the local frame host sends, the loader deployed
// with the frame distribution's domain put in for `__FRAME_ORIGIN__` and served at `/onboarding.js` by
// the API's distribution, and all of it staged at synthesis with no Docker.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import type { CfnRole, IRole } from 'aws-cdk-lib/aws-iam';
import { FRAME_CSP, FRAME_ORIGIN_PLACEHOLDER } from '../../frontend/onboarding/build';
import { FRAME_SECURITY_HEADERS, frameFiles, LOADER_CACHE } from '../../frontend/onboarding/served-files';
import { FRAME_FALLBACK_HANDLER, FRAME_ROUTES } from '../../lambdas/api/frame-routes';
import type { Environment } from '../../lib/environments';
import {
  ANSWERS_KEY_SETTING,
  FRAME_PREFIX,
  FRAME_SUBMIT_HANDLER,
  LOADER_PATH,
  LOADER_PREFIX,
} from '../../lib/onboarding-frame';
import { fromRoot } from '../../lib/paths';
import { handlerEntry } from '../../lib/service-api';
import type { ServiceStage } from '../../lib/service-stage';
import {
  actionsOf,
  assetManifestOf,
  assetPathOf,
  cdkJsonContext,
  flattenedTemplate,
  logicalIdOf,
  onboardingAssets,
  type PolicyStatement,
  type Resource,
  resources,
  SYNTH_DEADLINE_MS,
  type SynthesisedApp,
  statementsOfRole,
  synthServiceApp,
} from './synth';

/** CloudFront's managed policies: CachingOptimized, CachingDisabled and AllViewerExceptHostHeader. */
const CACHING_OPTIMIZED = '658327ea-f89d-4fab-a63d-7e88639e58f6';
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';
const ALL_METHODS = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'];
/** What `Source.data` leaves for the deployment to replace with the first deploy-time value. */
const FIRST_MARKER = '<<marker:0xbaba:0>>';

let synthesised: SynthesisedApp;

beforeAll(async () => {
  // The frame functions' bundles are read of the sandbox stage; the production stage's are the same build.
  synthesised = await synthServiceApp({ bundle: 'sandbox' });
}, SYNTH_DEADLINE_MS);

afterAll(() => synthesised?.cleanUp());

interface Behaviour {
  PathPattern?: string;
  TargetOriginId: string;
  AllowedMethods: string[];
  CachePolicyId: unknown;
  OriginRequestPolicyId?: string;
  ResponseHeadersPolicyId?: { Ref: string };
  ViewerProtocolPolicy: string;
}
interface DistributionConfig {
  Origins: { Id: string; DomainName: unknown; OriginPath?: string; OriginAccessControlId?: unknown }[];
  DefaultCacheBehavior: Behaviour;
  CacheBehaviors: Behaviour[];
  DefaultRootObject?: string;
}
interface Deployment {
  id: string;
  DependsOn: string[];
  Properties: {
    SourceObjectKeys: string[];
    SourceMarkers?: Record<string, unknown>[];
    DestinationBucketName: unknown;
    DestinationBucketKeyPrefix: string;
    Prune: boolean;
    SystemMetadata: { 'content-type': string; 'cache-control': string };
  };
}

/** Every file under a directory, by its path relative to it. */
const filesUnder = (directory: string): Map<string, Buffer> => {
  const files = new Map<string, Buffer>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(directory, path).split('\\').join('/'), readFileSync(path));
    }
  };
  walk(directory);
  return files;
};

describe.each<Environment>(['sandbox', 'production'])('sign-up form (%s)', (environment) => {
  let stage: ServiceStage;
  let template: Template;
  let all: Record<string, Resource>;
  const frame = () => stage.stateless.onboarding;
  const idOf = (construct: { node: { defaultChild?: unknown } }) => logicalIdOf(stage.stateless, construct);
  const roleIdOf = (role: IRole | undefined): string => {
    if (!role) throw new Error('no role');
    return stage.stateless.getLogicalId(role.node.defaultChild as CfnRole);
  };
  const functionNamed = (name: string) => {
    const fn = frame().functions.get(name);
    if (!fn) throw new Error(`no frame function ${name}`);
    return fn;
  };
  const variablesOf = (name: string): Record<string, unknown> =>
    (all[idOf(functionNamed(name))]?.Properties?.Environment as { Variables?: Record<string, unknown> })
      ?.Variables ?? {};
  /** A read of the same stage's SSM parameter of `field` (the stateful stack's, lib/identity-context.ts). */
  const importOf = (field: string) => ({
    Ref: expect.stringMatching(`^SsmParameterValuecontractservice${environment}${field}[0-9A-F]+Parameter$`),
  });
  const distributionConfig = (construct: { node: { defaultChild?: unknown } }): DistributionConfig =>
    all[idOf(construct)]?.Properties?.DistributionConfig as DistributionConfig;
  const originOf = (config: DistributionConfig, behaviour: Behaviour | undefined) =>
    config.Origins.find((origin) => origin.Id === behaviour?.TargetOriginId);
  const deployments = (): Deployment[] =>
    Object.entries(all)
      .filter(([, resource]) => resource.Type === 'Custom::CDKBucketDeployment')
      .map(([id, resource]) => ({ id, ...(resource as unknown as Omit<Deployment, 'id'>) }));
  const headersPolicy = (behaviour: Behaviour | undefined) =>
    all[behaviour?.ResponseHeadersPolicyId?.Ref ?? '']?.Properties?.ResponseHeadersPolicyConfig as Record<
      string,
      unknown
    >;

  beforeAll(() => {
    stage = synthesised.stages[environment];
    template = flattenedTemplate(stage.stateless);
    all = resources(template);
  });

  describe('frame API', () => {
    it('has a function per frame route and the frame fallback, from its handler module, shaped like every endpoint', () => {
      const names = [...FRAME_ROUTES.map((route) => route.name), FRAME_FALLBACK_HANDLER];
      expect([...frame().functions.keys()].sort()).toEqual([...names].sort());
      for (const name of names) {
        expect([name, existsSync(fromRoot(handlerEntry(name)))]).toEqual([name, true]);
        const properties = all[idOf(functionNamed(name))]?.Properties;
        expect([name, properties]).toEqual([
          name,
          expect.objectContaining({
            Runtime: 'nodejs24.x',
            Architectures: ['arm64'],
            Handler: 'index.handler',
            MemorySize: 1024,
            Timeout: 29,
            TracingConfig: { Mode: 'Active' },
          }),
        ]);
        if (environment !== 'sandbox') continue;
        const bundle = assetPathOf(
          synthesised,
          stage.stateless.stackName,
          (properties?.Code as { S3Key?: string } | undefined)?.S3Key ?? '',
        );
        // No frame function reads a PDF: none carries pdf.js.
        expect([name, readdirSync(bundle).sort()]).toEqual([name, ['index.mjs', 'index.mjs.map']]);
      }
    });

    it('gives every frame function the service settings, and the route functions the answers key', () => {
      const urls = cdkJsonContext();
      for (const name of frame().functions.keys()) {
        const variables = variablesOf(name);
        expect([name, variables]).toEqual([
          name,
          expect.objectContaining({
            SERVICE_ENVIRONMENT: environment,
            RATE_LIMITS: 'on',
            SANDBOX_BASE_URL: urls['service:sandboxBaseUrl'],
            PRODUCTION_BASE_URL: urls['service:productionBaseUrl'],
            TABLE_NAME: importOf('tableName'),
            BLOB_BUCKET: importOf('bucketName'),
            PAGES_BASE_URL: expect.anything(),
          }),
        ]);
        // The frame API uses session tokens, never access tokens: it is not told of the token key.
        expect([name, variables.TOKEN_KEY_ARN, variables.TOKEN_SIGNING_KEY_ARN]).toEqual([
          name,
          undefined,
          undefined,
        ]);
        if (name === FRAME_FALLBACK_HANDLER) expect(variables[ANSWERS_KEY_SETTING]).toBeUndefined();
        else expect([name, variables[ANSWERS_KEY_SETTING]]).toEqual([name, importOf('answersKeySecretArn')]);
      }
    });

    it('lets only the frame route functions read the answers key, and none of them touch the blob bucket', () => {
      const readers = Object.values(template.findResources('AWS::IAM::Policy')).flatMap((policy) => {
        const statements = policy.Properties.PolicyDocument.Statement as PolicyStatement[];
        const reading = statements.filter((statement) =>
          JSON.stringify(statement.Resource).includes('answersKeySecretArn'),
        );
        return reading.map((statement) => ({
          roles: policy.Properties.Roles,
          actions: actionsOf(statement),
        }));
      });
      const routeRoles = FRAME_ROUTES.map((route) => [{ Ref: roleIdOf(functionNamed(route.name).role) }]);
      expect(readers.map((reader) => reader.roles).sort()).toEqual(routeRoles.sort());
      for (const reader of readers)
        expect(reader.actions.sort()).toEqual([
          'secretsmanager:DescribeSecret',
          'secretsmanager:GetSecretValue',
        ]);
      for (const name of frame().functions.keys()) {
        const actions = statementsOfRole(template, roleIdOf(functionNamed(name).role)).flatMap(actionsOf);
        expect([name, actions.filter((action) => action.startsWith('s3:'))]).toEqual([name, []]);
      }
    });

    it('tells the submission function the acceptance state machine and lets it start it; no other frame function starts runs', () => {
      const acceptance = stage.stateless.stateMachines.acceptance;
      for (const name of frame().functions.keys()) {
        const variables = variablesOf(name);
        const told = Object.keys(variables).filter((setting) => setting.endsWith('_STATE_MACHINE_ARN'));
        const starts = statementsOfRole(template, roleIdOf(functionNamed(name).role)).filter((statement) =>
          actionsOf(statement).includes('states:StartExecution'),
        );
        if (name !== FRAME_SUBMIT_HANDLER) {
          expect([name, told, starts]).toEqual([name, [], []]);
          continue;
        }
        expect(told).toEqual(['ACCEPTANCE_STATE_MACHINE_ARN']);
        expect(variables.ACCEPTANCE_STATE_MACHINE_ARN).toEqual({ Ref: idOf(acceptance) });
        expect(starts.map((statement) => statement.Resource)).toEqual([{ Ref: idOf(acceptance) }]);
      }
    });

    it('routes each frame route to its function on an HTTP API of its own, everything else to the frame fallback', () => {
      const apiId = idOf(frame().httpApi);
      const routes = Object.values(all).filter(
        (resource) =>
          resource.Type === 'AWS::ApiGatewayV2::Route' &&
          JSON.stringify(resource.Properties?.ApiId) === JSON.stringify({ Ref: apiId }),
      );
      const functionOfRoute = (routeKey: string): string | undefined => {
        const route = routes.find((candidate) => candidate.Properties?.RouteKey === routeKey);
        const target = JSON.stringify(route?.Properties?.Target);
        const integrationId = Object.keys(all).find((id) => target.includes(`"Ref":"${id}"`));
        return (all[integrationId ?? '']?.Properties?.IntegrationUri as { 'Fn::GetAtt': [string] })?.[
          'Fn::GetAtt'
        ][0];
      };
      expect(routes.map((route) => route.Properties?.RouteKey).sort()).toEqual(
        [...FRAME_ROUTES.map((route) => `${route.method} ${route.path}`), '$default'].sort(),
      );
      for (const route of FRAME_ROUTES)
        expect(functionOfRoute(`${route.method} ${route.path}`)).toBe(idOf(functionNamed(route.name)));
      expect(functionOfRoute('$default')).toBe(idOf(functionNamed(FRAME_FALLBACK_HANDLER)));
      // The service API answers nothing of the frame API.
      const serviceRoutes = Object.values(all).filter(
        (resource) =>
          resource.Type === 'AWS::ApiGatewayV2::Route' &&
          JSON.stringify(resource.Properties?.ApiId) ===
            JSON.stringify({ Ref: idOf(stage.stateless.api.httpApi) }),
      );
      for (const route of serviceRoutes) expect(String(route.Properties?.RouteKey)).not.toContain('/api/');
    });
  });

  describe('frame address', () => {
    it('serves the frame files from the bucket’s frame/ folder through origin access control, GET and HEAD only', () => {
      const config = distributionConfig(frame().distribution);
      expect(config.DefaultRootObject).toBe('index.html');
      const files = config.DefaultCacheBehavior;
      expect(files).toMatchObject({
        AllowedMethods: ['GET', 'HEAD'],
        ViewerProtocolPolicy: 'redirect-to-https',
        CachePolicyId: { Ref: expect.any(String) },
      });
      expect(originOf(config, files)).toMatchObject({
        DomainName: { 'Fn::GetAtt': [idOf(frame().bucket), 'RegionalDomainName'] },
        OriginPath: `/${FRAME_PREFIX}`,
        OriginAccessControlId: expect.anything(),
      });
      // Each object's own Cache-Control decides (the page no-cache, the assets a year); `?v=` is no key.
      const cachePolicy = all[(files.CachePolicyId as { Ref: string }).Ref]?.Properties?.CachePolicyConfig;
      expect(cachePolicy).toMatchObject({
        MinTTL: 0,
        DefaultTTL: 0,
        MaxTTL: 31536000,
        ParametersInCacheKeyAndForwardedToOrigin: {
          QueryStringsConfig: { QueryStringBehavior: 'none' },
          HeadersConfig: { HeaderBehavior: 'none' },
          CookiesConfig: { CookieBehavior: 'none' },
        },
      });
    });

    it('sends /api/* (and /api) to the frame API, uncached, with every header but Host', () => {
      const config = distributionConfig(frame().distribution);
      expect(config.CacheBehaviors.map((behaviour) => behaviour.PathPattern).sort()).toEqual([
        '/api',
        '/api/*',
      ]);
      for (const behaviour of config.CacheBehaviors) {
        expect(behaviour).toMatchObject({
          AllowedMethods: ALL_METHODS,
          CachePolicyId: CACHING_DISABLED,
          OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST,
          ViewerProtocolPolicy: 'https-only',
        });
        // The frame's own headers (HSTS among them) on the API's answers too.
        expect(behaviour.ResponseHeadersPolicyId).toEqual(
          config.DefaultCacheBehavior.ResponseHeadersPolicyId,
        );
        const domain = JSON.stringify(originOf(config, behaviour)?.DomainName);
        expect(domain).toContain(`{"Ref":"${idOf(frame().httpApi)}"}`);
        expect(domain).toContain('.execute-api.');
      }
    });

    it('sends the frame’s security headers on every file and error: HSTS, its CSP with frame-ancestors *, nosniff, no referrer, no X-Frame-Options', () => {
      const policy = headersPolicy(distributionConfig(frame().distribution).DefaultCacheBehavior);
      expect(FRAME_SECURITY_HEADERS['Content-Security-Policy']).toBe(FRAME_CSP);
      expect(FRAME_CSP).toContain('frame-ancestors *');
      expect(policy.SecurityHeadersConfig).toEqual({
        StrictTransportSecurity: {
          AccessControlMaxAgeSec: 31536000,
          IncludeSubdomains: true,
          Override: true,
        },
        ContentSecurityPolicy: { ContentSecurityPolicy: FRAME_CSP, Override: true },
        ContentTypeOptions: { Override: true },
        ReferrerPolicy: { ReferrerPolicy: FRAME_SECURITY_HEADERS['Referrer-Policy'], Override: true },
      });
      const others = Object.entries(FRAME_SECURITY_HEADERS).filter(
        ([name]) => !['Content-Security-Policy', 'X-Content-Type-Options', 'Referrer-Policy'].includes(name),
      );
      expect(others.length).toBeGreaterThan(0);
      expect(policy.CustomHeadersConfig).toEqual({
        Items: others.map(([Header, Value]) => ({ Header, Value, Override: true })),
      });
      // Cache-Control is each object's own (so S3's error answers are not made cacheable).
      expect(JSON.stringify(policy)).not.toContain('Cache-Control');
    });

    it('outputs the frame address', () => {
      template.hasOutput('FrameUrl', {
        Value: {
          'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [idOf(frame().distribution), 'DomainName'] }]],
        },
      });
    });
  });

  describe('files', () => {
    it('keeps them in a private bucket only the two distributions read, emptied and deleted with the stack', () => {
      const bucketId = idOf(frame().bucket);
      template.hasResource('AWS::S3::Bucket', {
        Properties: Match.objectLike({
          PublicAccessBlockConfiguration: {
            BlockPublicAcls: true,
            BlockPublicPolicy: true,
            IgnorePublicAcls: true,
            RestrictPublicBuckets: true,
          },
        }),
        DeletionPolicy: 'Delete',
      });
      template.resourceCountIs('Custom::S3AutoDeleteObjects', 1);
      const [policy] = Object.values(template.findResources('AWS::S3::BucketPolicy')).filter(
        (candidate) => JSON.stringify(candidate.Properties.Bucket) === JSON.stringify({ Ref: bucketId }),
      );
      const statements = policy?.Properties.PolicyDocument.Statement as (PolicyStatement & {
        Principal: unknown;
        Condition?: unknown;
      })[];
      const readers = statements.filter(
        (statement) =>
          statement.Effect === 'Allow' &&
          JSON.stringify(statement.Principal) === JSON.stringify({ Service: 'cloudfront.amazonaws.com' }),
      );
      expect(readers.map((statement) => statement.Action)).toEqual(['s3:GetObject', 's3:GetObject']);
      const distributionsOf = (statement: { Condition?: unknown }) =>
        [...JSON.stringify(statement.Condition).matchAll(/":distribution\/",\{"Ref":"([^"]+)"\}/g)].map(
          (match) => match[1],
        );
      expect(readers.flatMap(distributionsOf).sort()).toEqual(
        [idOf(frame().distribution), idOf(stage.stateless.distribution)].sort(),
      );
      expect(
        statements.some(
          (statement) => statement.Effect === 'Allow' && JSON.stringify(statement.Principal).includes('"*"'),
        ),
      ).toBe(false);
    });

    it('deploys every built frame file into frame/ with the content type and Cache-Control the frame host sends', () => {
      const expected = frameFiles(onboardingAssets);
      const deployed = new Map<string, { body: Buffer; contentType: string; cacheControl: string }>();
      const frameDeployments = deployments().filter(
        (deployment) => deployment.Properties.DestinationBucketKeyPrefix === `${FRAME_PREFIX}/`,
      );
      for (const { Properties: properties } of frameDeployments) {
        expect(properties.DestinationBucketName).toEqual({ Ref: idOf(frame().bucket) });
        // Earlier assets stay for pages loaded before a deployment.
        expect(properties.Prune).toBe(false);
        expect(properties.SourceMarkers).toBeUndefined();
        const [objectKey] = properties.SourceObjectKeys;
        for (const [path, body] of filesUnder(
          assetPathOf(synthesised, stage.stateless.stackName, objectKey ?? ''),
        ))
          deployed.set(`/${path}`, {
            body,
            contentType: properties.SystemMetadata['content-type'],
            cacheControl: properties.SystemMetadata['cache-control'],
          });
      }
      expect([...deployed.keys()].sort()).toEqual([...expected.keys()].sort());
      expect(deployed.has('/index.html')).toBe(true);
      for (const [path, file] of expected) {
        const { body, ...metadata } = deployed.get(path) ?? { body: Buffer.alloc(0) };
        expect([path, metadata]).toEqual([
          path,
          { contentType: file.contentType, cacheControl: file.cacheControl },
        ]);
        expect(body.equals(file.body)).toBe(true);
      }
      expect(deployed.get('/index.html')?.cacheControl).toBe('no-cache');
      for (const [path, file] of deployed)
        if (path !== '/index.html')
          expect([path, file.cacheControl]).toEqual([path, 'public, max-age=31536000, immutable']);
    });

    it('deploys the assets before the page that names them, and the frame before the loader', () => {
      const byPrefix = (prefix: string) =>
        deployments().filter((deployment) => deployment.Properties.DestinationBucketKeyPrefix === prefix);
      const frameDeployments = byPrefix(`${FRAME_PREFIX}/`);
      const page = frameDeployments.find((d) => d.Properties.SystemMetadata['cache-control'] === 'no-cache');
      const assets = frameDeployments.filter((d) => d !== page);
      expect(page).toBeDefined();
      expect(assets.length).toBeGreaterThan(0);
      expect(page?.DependsOn).toEqual(expect.arrayContaining(assets.map((d) => d.id)));
      const [loader] = byPrefix(`${LOADER_PREFIX}/`);
      expect(loader?.DependsOn).toEqual(expect.arrayContaining(frameDeployments.map((d) => d.id)));
    });

    it('deploys the loader to loader/onboarding.js with the frame distribution’s domain in for the placeholder (Source.data)', () => {
      const loaders = deployments().filter(
        (deployment) => deployment.Properties.DestinationBucketKeyPrefix === `${LOADER_PREFIX}/`,
      );
      expect(loaders).toHaveLength(1);
      const { Properties: properties } = loaders[0] as Deployment;
      expect(properties.DestinationBucketName).toEqual({ Ref: idOf(frame().bucket) });
      expect(properties.SystemMetadata).toEqual({
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': LOADER_CACHE,
      });
      expect(LOADER_CACHE).toBe('public, max-age=300');
      expect(properties.SourceMarkers).toEqual([
        { [FIRST_MARKER]: { 'Fn::GetAtt': [idOf(frame().distribution), 'DomainName'] } },
      ]);
      const staged = filesUnder(
        assetPathOf(synthesised, stage.stateless.stackName, properties.SourceObjectKeys[0] ?? ''),
      );
      expect([...staged.keys()]).toEqual([LOADER_PATH.slice(1)]);
      const built = new TextDecoder().decode(onboardingAssets.loader.body);
      expect(staged.get('onboarding.js')?.toString('utf8')).toBe(
        built.replace(FRAME_ORIGIN_PLACEHOLDER, `https://${FIRST_MARKER}`),
      );
      expect(staged.get('onboarding.js')?.toString('utf8')).not.toContain(FRAME_ORIGIN_PLACEHOLDER);
    });
  });

  describe('API address', () => {
    it('serves /onboarding.js from the bucket’s loader/ folder, cached as the object says, to any page', () => {
      const config = distributionConfig(stage.stateless.distribution);
      const loader = config.CacheBehaviors.find((behaviour) => behaviour.PathPattern === LOADER_PATH);
      expect(loader).toMatchObject({
        AllowedMethods: ['GET', 'HEAD'],
        CachePolicyId: CACHING_OPTIMIZED,
        ViewerProtocolPolicy: 'https-only',
      });
      expect(loader?.OriginRequestPolicyId).toBeUndefined();
      expect(originOf(config, loader)).toMatchObject({
        DomainName: { 'Fn::GetAtt': [idOf(frame().bucket), 'RegionalDomainName'] },
        OriginPath: `/${LOADER_PREFIX}`,
        OriginAccessControlId: expect.anything(),
      });
      expect(headersPolicy(loader)).toMatchObject({
        CorsConfig: {
          AccessControlAllowOrigins: { Items: ['*'] },
          AccessControlAllowMethods: { Items: ['GET', 'HEAD'] },
          AccessControlAllowCredentials: false,
          OriginOverride: true,
        },
        SecurityHeadersConfig: { ContentTypeOptions: { Override: true } },
        CustomHeadersConfig: {
          Items: [{ Header: 'Cross-Origin-Resource-Policy', Value: 'cross-origin', Override: true }],
        },
      });
    });
  });
});

describe('synthesis', () => {
  it('stages the form’s files and the deployment’s handler as plain file assets, with no Docker (the only image is the ingest service’s, built at deployment)', () => {
    for (const stage of Object.values(synthesised.stages)) {
      const { manifest, directory } = assetManifestOf(synthesised, stage.stateless.stackName);
      expect(Object.keys(manifest.dockerImages)).toHaveLength(1);
      // Every asset is staged where the stage is bundled (here the sandbox; production's functions get
      // placeholders, its files the same staging).
      if (stage === synthesised.stages.sandbox)
        for (const file of Object.values(manifest.files))
          expect([file.source.path, existsSync(join(directory, file.source.path))]).toEqual([
            file.source.path,
            true,
          ]);
      const template = flattenedTemplate(stage.stateless);
      // Only the bucket deployments' one function, on the runtime aws-cdk-lib ships it for.
      const handlers = Object.values(template.findResources('AWS::Lambda::Function')).filter((fn) =>
        String(fn.Properties.Runtime).startsWith('python'),
      );
      expect(handlers).toHaveLength(1);
    }
  });
});
