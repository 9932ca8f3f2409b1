// infra -> the sign-up form of one environment, deployed as the local stack serves it
// (frontend/onboarding/README.md "Serving", local/frame-host.ts):
//
// - the frame address: a CloudFront distribution of its own whose default behaviour serves the frame's
//   built files from S3 (`/` is `index.html`, `Cache-Control: no-cache`; `assets/…`, named by content
//   hash, immutable), under the frame's security headers (`FRAME_SECURITY_HEADERS`: its content
//   security policy with `frame-ancestors *`, nosniff, no referrer), and whose `/api/*` goes, uncached
//   and with `Authorization`, to the frame API;
// - the frame API: an HTTP API of its own with one ServiceFunction per frame route and the frame
//   fallback on `$default`. Its own API rather than routes under `/api/` of the service API: the API
//   address then answers nothing of the frame API (as locally), each API has the fallback of its own
//   table (`frame-not-found` or `not-found`), and neither API's routes can shadow the other's;
// - the loader, `/onboarding.js`, as a behaviour the API address's distribution adds
//   (`loaderBehaviour`): the built loader with `__FRAME_ORIGIN__` replaced by `https://{frame
//   distribution domain}`, a deploy-time value that BucketDeployment's `Source.data` puts in.
//
// The files are in a bucket of this stack (`frame/` and `loader/`), written by BucketDeployment (its
// handler is prebuilt in aws-cdk-lib: synthesis needs no Docker and no network). Content type and
// Cache-Control are each file's object metadata, exactly as the frame host decides them (`frameFiles`);
// CloudFront caches by them.
//
// GAP: a path with no file gets S3's 403 (with the frame's headers), not the plain 404 of the local
// host; a method other than GET or HEAD gets CloudFront's 403, not 405.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Duration, FileSystem, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { HttpApi, HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import {
  AllowedMethods,
  type BehaviorOptions,
  CachePolicy,
  Distribution,
  HeadersReferrerPolicy,
  OriginRequestPolicy,
  ResponseHeadersPolicy,
  type ResponseSecurityHeadersBehavior,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Bucket, IBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { FRAME_ORIGIN_PLACEHOLDER, type OnboardingAssets } from '../frontend/onboarding/build';
import { FRAME_SECURITY_HEADERS, frameFiles, LOADER_CACHE } from '../frontend/onboarding/served-files';
import { FRAME_FALLBACK_HANDLER, FRAME_ROUTES, type FrameEndpointName } from '../lambdas/api/frame-routes';
import { acknowledgeBucketDeployment } from './checks';
import {
  addressOf,
  builtFilesBucket,
  completeDistribution,
  distributionDefaults,
  domainOf,
  STRICT_TRANSPORT_SECURITY,
} from './distribution-defaults';
import { httpApiOrigin } from './http-api-origin';
import { protectHttpApi } from './http-api-protection';
import type { OriginProtection } from './origin-protection';
import { handlerEntry } from './service-api';
import { ServiceFunction } from './service-function';
import {
  connectService,
  type HostResources,
  NO_BLOBS,
  type StateMachines,
  useSecret,
  useStateMachines,
} from './wiring';

/** The frame API's stage throttling (lib/http-api-protection.ts). */
export const FRAME_API_THROTTLE = { rate: 100, burst: 200 } as const;

/** Bucket folder of the frame's files: the frame distribution's origin path. */
export const FRAME_PREFIX = 'frame';
/** Bucket folder of the loader: the origin path of `/onboarding.js` on the API address. */
export const LOADER_PREFIX = 'loader';
/** Where each API address serves the loader. */
export const LOADER_PATH = '/onboarding.js';
/** The frame API's paths on the frame address (`/api` itself too, as the local host routes it). */
export const FRAME_API_PATH_PATTERNS = ['/api/*', '/api'] as const;
/** The setting naming the answers key's secret (lambdas/hosts/aws/services.ts). */
export const ANSWERS_KEY_SETTING = 'ANSWERS_KEY_SECRET_ARN';
/** The frame endpoint whose submissions start runs (a sandbox sign-up's automatic acceptance). */
export const FRAME_SUBMIT_HANDLER = 'frame-submit-form';

/** CloudFront sets these only through a policy's security headers, never as custom headers. */
const CLOUDFRONT_SECURITY_HEADERS = [
  'Content-Security-Policy',
  'Referrer-Policy',
  'Strict-Transport-Security',
  'X-Content-Type-Options',
  'X-Frame-Options',
  'X-XSS-Protection',
];

/** FRAME_SECURITY_HEADERS as a policy's security behaviour and custom headers; other values fail the synth. */
const frameHeaders = (): {
  security: ResponseSecurityHeadersBehavior;
  custom: { header: string; value: string; override: boolean }[];
} => {
  const {
    'Content-Security-Policy': contentSecurityPolicy,
    'X-Content-Type-Options': contentTypeOptions,
    'Referrer-Policy': referrer,
    ...others
  } = FRAME_SECURITY_HEADERS;
  const referrerPolicy = Object.values(HeadersReferrerPolicy).find((policy) => policy === referrer);
  if (contentSecurityPolicy === undefined || contentTypeOptions !== 'nosniff' || referrerPolicy === undefined)
    throw new Error('the frame host sets a security header CloudFront cannot set the same way');
  const unsupported = Object.keys(others).filter((name) => CLOUDFRONT_SECURITY_HEADERS.includes(name));
  if (unsupported.length > 0) throw new Error(`the frame's ${unsupported.join(', ')} need mapping here`);
  return {
    security: {
      strictTransportSecurity: STRICT_TRANSPORT_SECURITY,
      contentSecurityPolicy: { contentSecurityPolicy, override: true },
      contentTypeOptions: { override: true },
      referrerPolicy: { referrerPolicy, override: true },
    },
    custom: Object.entries(others).map(([header, value]) => ({ header, value, override: true })),
  };
};

export interface FileGroup {
  /** e.g. `Files-javascript-immutable`. */
  readonly id: string;
  readonly contentType: string;
  readonly cacheControl: string;
  /** Content-hashed files, never changed once written. */
  readonly immutable: boolean;
  /** The group's files, at the paths they have under the frame address. */
  readonly directory: string;
}

/** A built file to deploy to a bucket: what BucketDeployment sets per deployment, and its bytes. */
export interface DeployedFile {
  readonly contentType: string;
  readonly cacheControl: string;
  readonly body: Uint8Array;
}

/**
 * Built files (the sign-up form's, the portal's) in groups of one content type and Cache-Control
 * (BucketDeployment sets both per deployment), each group written to a directory of its own; the
 * immutable groups first.
 */
export const fileGroups = (files: Iterable<[string, DeployedFile]>): FileGroup[] => {
  const groups = new Map<string, FileGroup>();
  for (const [path, file] of files) {
    const { contentType, cacheControl } = file;
    const key = `${contentType}\n${cacheControl}`;
    let group = groups.get(key);
    if (group === undefined) {
      const immutable = /\bimmutable\b/.test(cacheControl);
      const subtype = contentType.split(';')[0]?.split('/')[1] ?? 'other';
      const id = `Files-${subtype}-${immutable ? 'immutable' : 'revalidated'}`;
      const directory = FileSystem.mkdtemp('built-files-');
      group = { id, contentType, cacheControl, immutable, directory };
      groups.set(key, group);
    }
    const target = join(group.directory, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.body);
  }
  return [...groups.values()].sort((a, b) => Number(b.immutable) - Number(a.immutable));
};

/**
 * Deploys built files to `bucket` (under `keyPrefix`), a BucketDeployment per group. Nothing is pruned: a
 * page loaded before a deployment still finds the assets it names; the immutable groups are in place
 * before the others (the pages that name them). The deployments' one (singleton) function logs to the
 * group returned.
 */
export const deployBuiltFiles = (
  scope: Construct,
  bucket: IBucket,
  files: Iterable<[string, DeployedFile]>,
  keyPrefix?: string,
): { deployments: BucketDeployment[]; logGroup: LogGroup } => {
  const logGroup = new LogGroup(scope, 'DeploymentLogs', {
    retention: RetentionDays.ONE_MONTH,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  const groups = fileGroups(files);
  const deployments = groups.map(
    (group) =>
      new BucketDeployment(scope, group.id, {
        sources: [Source.asset(group.directory)],
        destinationBucket: bucket,
        ...(keyPrefix !== undefined && { destinationKeyPrefix: keyPrefix }),
        prune: false,
        contentType: group.contentType,
        cacheControl: [CacheControl.fromString(group.cacheControl)],
        logGroup,
      }),
  );
  const immutable = deployments.filter((_, index) => groups[index]?.immutable);
  for (const deployment of deployments)
    if (!immutable.includes(deployment)) deployment.node.addDependency(...immutable);
  return { deployments, logGroup };
};

export interface OnboardingFrameProps {
  readonly resources: HostResources;
  /** The state machines of the runs a submission starts (a sandbox sign-up's automatic acceptance). */
  readonly stateMachines: StateMachines;
  /** The frame's files and the loader, built before the app. */
  readonly assets: OnboardingAssets;
  /** Where the frame API's `execute-api` address stays on (no hosted zone): only CloudFront may call it. */
  readonly originProtection?: OriginProtection;
}

export class OnboardingFrame extends Construct {
  /** The frame's files (`frame/`) and the loader (`loader/`); made again by each deployment. */
  readonly bucket: Bucket;
  /** The frame API (payload 2.0): the frame routes and the frame fallback. */
  readonly httpApi: HttpApi;
  /** Frame API functions by handler name, the frame fallback included. */
  readonly functions: ReadonlyMap<string, ServiceFunction>;
  /** The frame address. */
  readonly distribution: Distribution;
  /** `https://{frame distribution domain}`: the frame origin the loader names. */
  readonly origin: string;
  /** The frame's files, a deployment per content type and Cache-Control; the page's after the assets'. */
  readonly fileDeployments: readonly BucketDeployment[];
  /** `loader/onboarding.js`, with the frame origin put in. */
  readonly loaderDeployment: BucketDeployment;
  /** `/onboarding.js` on an API address's distribution: the loader from the bucket, cached five minutes. */
  readonly loaderBehaviour: BehaviorOptions;

  constructor(scope: Construct, id: string, props: OnboardingFrameProps) {
    super(scope, id);
    const { resources, stateMachines, assets } = props;
    const { environment } = resources;
    const frameDomain = domainOf(resources.domains, 'frame');
    const _stack = Stack.of(this);

    // The frame API. Only its functions may read the answers key; the fallback never seals or opens
    // answers, so it is not given it. A submission may start the runs it makes due.
    const functions = new Map<string, ServiceFunction>();
    const frameFunction = (name: FrameEndpointName, description: string): ServiceFunction => {
      const fn = new ServiceFunction(this, name, { entry: handlerEntry(name), description });
      connectService(fn, resources, { table: 'endpoint', blobs: NO_BLOBS });
      functions.set(name, fn);
      return fn;
    };
    const fallback = frameFunction(FRAME_FALLBACK_HANDLER, 'frame API: every other path and method');
    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: `contract-service ${environment}: sign-up form frame API`,
      defaultIntegration: new HttpLambdaIntegration('Fallback', fallback),
      ...(props.originProtection && { defaultAuthorizer: props.originProtection.authorizer() }),
    });
    for (const route of FRAME_ROUTES) {
      const fn = frameFunction(route.name, `frame API: ${route.method} ${route.path}`);
      useSecret(fn, ANSWERS_KEY_SETTING, resources.answersKeySecret);
      if (route.name === FRAME_SUBMIT_HANDLER) useStateMachines(fn, stateMachines);
      this.httpApi.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${route.name}-integration`, fn),
      });
    }
    this.functions = functions;
    // A form is filled in by one person at a time: a flood is all this could be.
    protectHttpApi(this, this.httpApi, FRAME_API_THROTTLE);

    // Built files only: nothing here is kept when the stack goes.
    this.bucket = builtFilesBucket(this, resources.logBucket, 'frame-files/');

    const headers = frameHeaders();
    const frameHeadersPolicy = new ResponseHeadersPolicy(this, 'FrameHeaders', {
      comment: `contract-service ${environment}: sign-up form frame`,
      securityHeadersBehavior: headers.security,
      ...(headers.custom.length > 0 && { customHeadersBehavior: { customHeaders: headers.custom } }),
    });
    // Each file's own Cache-Control decides: the page is revalidated with S3 on every request (S3
    // answers 304 while it is unchanged), the assets are kept a year. The `?v=` is no part of the key.
    const byObjectCacheControl = new CachePolicy(this, 'ByCacheControl', {
      comment: `contract-service ${environment}: sign-up form files, as their Cache-Control says`,
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(0),
      maxTtl: Duration.days(365),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    // As the API address: nothing cached, every header but Host (so Authorization) to the origin.
    const frameApi: BehaviorOptions = {
      origin: httpApiOrigin(
        this,
        'FrameApiOrigin',
        this.httpApi,
        resources.domains,
        'frame',
        props.originProtection?.originHeaders,
      ),
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: frameHeadersPolicy,
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
    };
    this.distribution = new Distribution(this, 'Distribution', {
      comment: `contract-service ${environment} sign-up form`,
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket, { originPath: `/${FRAME_PREFIX}` }),
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: byObjectCacheControl,
        responseHeadersPolicy: frameHeadersPolicy,
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      },
      additionalBehaviors: Object.fromEntries(FRAME_API_PATH_PATTERNS.map((pattern) => [pattern, frameApi])),
      ...distributionDefaults({ ...resources, logFilePrefix: 'cloudfront/frame/', domain: frameDomain }),
    });
    completeDistribution(this.distribution, frameDomain);
    this.origin = addressOf(this.distribution, frameDomain);

    // The page is in place before the loader that frames it. (The first deployment holds the layer of
    // the deployments' shared function, so it must be an assets' one.)
    const { deployments, logGroup: deploymentLogs } = deployBuiltFiles(
      this,
      this.bucket,
      frameFiles(assets),
      `${FRAME_PREFIX}/`,
    );
    this.fileDeployments = deployments;

    const loader = new TextDecoder().decode(assets.loader.body);
    if (loader.split(FRAME_ORIGIN_PLACEHOLDER).length !== 2)
      throw new Error(`the built loader must hold ${FRAME_ORIGIN_PLACEHOLDER} exactly once`);
    this.loaderDeployment = new BucketDeployment(this, 'Loader', {
      // The domain is known at deployment only: Source.data leaves a marker the deployment replaces.
      sources: [
        Source.data(
          LOADER_PATH.slice(1),
          loader.replace(FRAME_ORIGIN_PLACEHOLDER, () => this.origin),
        ),
      ],
      destinationBucket: this.bucket,
      destinationKeyPrefix: `${LOADER_PREFIX}/`,
      contentType: assets.loader.contentType,
      cacheControl: [CacheControl.fromString(LOADER_CACHE)],
      logGroup: deploymentLogs,
    });
    this.loaderDeployment.node.addDependency(...deployments);
    acknowledgeBucketDeployment(this, 'this construct’s files bucket');

    // Any page may load the loader, with or without `crossorigin` (and so with Subresource Integrity).
    const loaderHeaders = new ResponseHeadersPolicy(this, 'LoaderHeaders', {
      comment: `contract-service ${environment}: sign-up form loader`,
      corsBehavior: {
        accessControlAllowOrigins: ['*'],
        accessControlAllowMethods: ['GET', 'HEAD'],
        accessControlAllowHeaders: ['*'],
        accessControlAllowCredentials: false,
        originOverride: true,
      },
      securityHeadersBehavior: {
        strictTransportSecurity: STRICT_TRANSPORT_SECURITY,
        contentTypeOptions: { override: true },
      },
      customHeadersBehavior: {
        customHeaders: [{ header: 'Cross-Origin-Resource-Policy', value: 'cross-origin', override: true }],
      },
    });
    this.loaderBehaviour = {
      origin: S3BucketOrigin.withOriginAccessControl(this.bucket, { originPath: `/${LOADER_PREFIX}` }),
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      // Kept as long as the object's `max-age=300` says; the query is no part of the key.
      cachePolicy: CachePolicy.CACHING_OPTIMIZED,
      responseHeadersPolicy: loaderHeaders,
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
    };
  }
}
