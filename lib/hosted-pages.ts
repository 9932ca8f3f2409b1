// infra -> the hosted pages of one environment (contract viewer, review, snapshot): a CloudFront
// distribution serving the blob bucket's `published/` folder, as the local pages host serves it
// (local/pages-host.ts): `/{slug}/{path}` is the blob `published/{slug}/{path}`, `index.html`
// for `/{slug}/`, with the pages' security headers on every answer.
//
// A withdrawn publication (marker blob `published/{slug}/withdrawn`) answers 410 with the plain withdrawn
// page on every path. CloudFront Functions cannot read S3, so the viewer-request function
// (lib/functions/pages-viewer-request.js) looks the slug up in a CloudFront KeyValueStore of withdrawn
// slugs, which the withdrawal gate (lambdas/workers/withdrawal-gate.ts, its ports in
// lambdas/adapters/cloudfront/) keeps in step with the markers: S3 sends the markers' object
// events to EventBridge (enabled on the bucket in the stateful stack, which so names nothing here), a
// rule here sends them to the gate, and the gate also invalidates the publication's cached files. The
// function runs before the cache, so nothing cached of a withdrawn publication is served. The store is
// this stack's and the markers the stateful stack's: a deployment that makes the store afresh fills it
// from the markers (the withdrawal backfill, a CDK trigger) before it completes.
//
// GAP: a well-formed path with no blob gets S3's own 403, not the plain not-found page (only malformed
// paths get that page, from the viewer-request function).
import { readFileSync } from 'node:fs';
import { Annotations, Duration } from 'aws-cdk-lib';
import {
  AllowedMethods,
  type BehaviorOptions,
  CachePolicy,
  Function as CloudFrontFunction,
  Distribution,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  type ICachePolicy,
  type IOrigin,
  KeyValueStore,
  ResponseHeadersPolicy,
  type ResponseSecurityHeadersBehavior,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Match, Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Bucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import { InvocationType, Trigger } from 'aws-cdk-lib/triggers';
import { Construct } from 'constructs';
import { GATE_SETTINGS } from '../lambdas/adapters/cloudfront/withdrawal-gate-ports';
import { PUBLICATIONS_PREFIX, withdrawnKey } from '../lambdas/core/publications';
import { MARKER_EVENT_TYPES } from '../lambdas/core/withdrawal-gate-ports';
import { renderNotFound, renderWithdrawn } from '../lambdas/pages/plain';
import { PUBLICATION_CONTENT_TYPES } from '../lambdas/pages/publication';
import { PAGE_SECURITY_HEADERS } from '../lambdas/pages/security';
import { alarmedDeadLetterQueue } from './dead-letters';
import {
  addressOf,
  completeDistribution,
  type DistributionDomain,
  distributionDefaults,
  STRICT_TRANSPORT_SECURITY,
} from './distribution-defaults';
import type { Environment } from './environments';
import { fromRoot } from './paths';
import { ServiceFunction } from './service-function';
import { NO_BLOBS, useBucket } from './wiring';

/** The bucket folder the distribution serves (its origin path): nothing outside it is reachable. */
export const PUBLISHED_PREFIX = 'published';

/** The extensions of files a publication serves (the pages host's content types); any other path is 404. */
export const PAGE_EXTENSIONS = Object.keys(PUBLICATION_CONTENT_TYPES);

/** `Cache-Control` of the page at a publication's stable link, checked on every visit (as the pages host). */
export const STABLE_CACHE_CONTROL = 'no-cache';
/** `Cache-Control` of a version's own files (`/{slug}/v{n}/...`), which never change once written. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** The headers CloudFront's security headers behaviour sets; the others of the pages go as custom headers. */
const SECURITY_HEADER_NAMES = [
  'Content-Security-Policy',
  'X-Content-Type-Options',
  'Referrer-Policy',
  'X-Frame-Options',
] as const;

const header = (name: string): string => {
  const value = PAGE_SECURITY_HEADERS[name];
  if (value === undefined) throw new Error(`the pages set no ${name} header`);
  return value;
};

/** PAGE_SECURITY_HEADERS as a response headers policy's security behaviour; other values fail the synth. */
const securityHeadersBehavior = (): ResponseSecurityHeadersBehavior => {
  if (header('X-Content-Type-Options') !== 'nosniff')
    throw new Error('X-Content-Type-Options must be nosniff');
  const referrerPolicy = Object.values(HeadersReferrerPolicy).find(
    (policy) => policy === header('Referrer-Policy'),
  );
  const frameOption = Object.values(HeadersFrameOption).find(
    (option) => option === header('X-Frame-Options'),
  );
  if (!referrerPolicy || !frameOption)
    throw new Error('the pages set a referrer or frame policy CloudFront lacks');
  return {
    strictTransportSecurity: STRICT_TRANSPORT_SECURITY,
    contentSecurityPolicy: { contentSecurityPolicy: header('Content-Security-Policy'), override: true },
    contentTypeOptions: { override: true },
    referrerPolicy: { referrerPolicy, override: true },
    frameOptions: { frameOption, override: true },
  };
};

/** PAGE_SECURITY_HEADERS that are not security headers to CloudFront (they cannot be custom headers too). */
const customPageHeaders = (): Record<string, string> =>
  Object.fromEntries(
    Object.entries(PAGE_SECURITY_HEADERS).filter(
      ([name]) => !(SECURITY_HEADER_NAMES as readonly string[]).includes(name),
    ),
  );

/** How long the backfill may take: one listing of the published folder, a write per withdrawal. */
const BACKFILL_MINUTES = 10;

/** The marker key of every publication (`withdrawn` in any `published/{slug}/`), as a wildcard pattern. */
export const WITHDRAWAL_MARKERS = withdrawnKey('*');

/** The first line of the viewer-request function: the runtime's module holding the key value store. */
export const KVS_IMPORT = "import cf from 'cloudfront';";

/** The viewer-request function's source (cloudfront-js-2.0), with its values named __LIKE_THIS__. */
const VIEWER_REQUEST_SOURCE = fromRoot('lib/functions/pages-viewer-request.js');

/**
 * The viewer-request function as deployed: its source (lib/functions/pages-viewer-request.js) without
 * its comment lines, with the security headers, the plain not-found and withdrawn pages and the
 * publication files' extensions put in.
 */
export const viewerRequestCode = (): string => {
  const headers = Object.fromEntries(
    Object.entries({
      ...PAGE_SECURITY_HEADERS,
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
    }).map(([name, value]) => [name.toLowerCase(), { value }]),
  );
  const values: Record<string, unknown> = {
    __HEADERS__: headers,
    __NOT_FOUND__: renderNotFound(),
    __WITHDRAWN__: renderWithdrawn(),
    __EXTENSIONS__: PAGE_EXTENSIONS,
  };
  // Whole-line comments are for the reader of the source, not CloudFront's 10 KB.
  const source = readFileSync(VIEWER_REQUEST_SOURCE, 'utf8').replace(/^\s*\/\/.*\n/gm, '');
  if (!source.startsWith(`${KVS_IMPORT}\n`))
    throw new Error(`${VIEWER_REQUEST_SOURCE} must start with ${KVS_IMPORT}`);
  return source.replace(/__[A-Z_]+__/g, (name) => {
    if (!(name in values)) throw new Error(`no value for ${name} in ${VIEWER_REQUEST_SOURCE}`);
    return JSON.stringify(values[name]);
  });
};

export interface HostedPagesProps {
  readonly environment: Environment;
  readonly blobBucket: IBucket;
  /** The stage's web ACL and log bucket (lib/distribution-defaults.ts). */
  readonly webAclArn: string;
  readonly logBucket: IBucket;
  /** The pages' own domain (`https://` it starts every published link), if the stage has one. */
  readonly domain?: DistributionDomain | undefined;
}

export class HostedPages extends Construct {
  readonly distribution: Distribution;
  /** `https://{distribution domain}`, no trailing slash: what the code gets as `PAGES_BASE_URL`. */
  readonly baseUrl: string;
  /** The slugs of withdrawn publications (each key a slug), read by the viewer-request function. */
  readonly withdrawnSlugs: KeyValueStore;
  /** Keeps `withdrawnSlugs` in step with the marker blobs, and invalidates what they change. */
  readonly withdrawalGate: ServiceFunction;
  /** Sends the S3 events of marker keys to the gate. */
  readonly withdrawalMarkers: Rule;
  /** Fills a new `withdrawnSlugs` from the markers, run by the deployment (`backfill`). */
  readonly withdrawalBackfill: ServiceFunction;
  readonly backfill: Trigger;

  constructor(scope: Construct, id: string, props: HostedPagesProps) {
    super(scope, id);
    const { blobBucket, domain: pagesDomain } = props;

    // The bucket lives in the stateful stack, whose policy lets any CloudFront distribution of the
    // account read `published/*` (lib/stateful-stack.ts): naming this distribution there would make
    // each stack depend on the other. Referenced as imported, so CloudFront does not try to add it.
    const bucket = Bucket.fromBucketAttributes(this, 'Blobs', {
      bucketName: blobBucket.bucketName,
      bucketArn: blobBucket.bucketArn,
      bucketRegionalDomainName: blobBucket.bucketRegionalDomainName,
    });
    const origin: IOrigin = S3BucketOrigin.withOriginAccessControl(bucket, {
      originPath: `/${PUBLISHED_PREFIX}`,
    });
    Annotations.of(this).acknowledgeWarning(
      '@aws-cdk/aws-cloudfront-origins:updateImportedBucketPolicyOac',
      'the stateful stack grants CloudFront reads of published/*',
    );

    this.withdrawnSlugs = new KeyValueStore(this, 'WithdrawnSlugs', {
      comment: `contract-service ${props.environment}: slugs of withdrawn publications`,
    });
    const viewerRequest = new CloudFrontFunction(this, 'ViewerRequest', {
      comment: `contract-service ${props.environment}: hosted pages paths`,
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(viewerRequestCode()),
      keyValueStore: this.withdrawnSlugs,
    });

    const headersPolicy = (name: string, cacheControl: string, extra: Record<string, string> = {}) =>
      new ResponseHeadersPolicy(this, name, {
        comment: `contract-service ${props.environment}: hosted pages (${cacheControl})`,
        securityHeadersBehavior: securityHeadersBehavior(),
        customHeadersBehavior: {
          customHeaders: Object.entries({
            ...customPageHeaders(),
            'Cache-Control': cacheControl,
            ...extra,
          }).map(([header, value]) => ({ header, value, override: true })),
        },
      });
    // The stable page is revalidated with S3 on every request (S3 answers 304 when it is unchanged),
    // so a new version shows at once; a version's own files (`/{slug}/v{n}/...`) are cached for good,
    // the PDF with `Content-Disposition: attachment` as the pages host sends it.
    const revalidate = new CachePolicy(this, 'Revalidate', {
      comment: `contract-service ${props.environment}: hosted pages, revalidated`,
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(0),
      maxTtl: Duration.days(365),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    const behaviour = (cachePolicy: ICachePolicy, headers: ResponseHeadersPolicy): BehaviorOptions => ({
      origin,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy,
      responseHeadersPolicy: headers,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      functionAssociations: [{ function: viewerRequest, eventType: FunctionEventType.VIEWER_REQUEST }],
    });

    this.distribution = new Distribution(this, 'Distribution', {
      comment: `contract-service ${props.environment} hosted pages`,
      defaultBehavior: behaviour(revalidate, headersPolicy('StableHeaders', STABLE_CACHE_CONTROL)),
      additionalBehaviors: {
        '/*/v*/*.pdf': behaviour(
          CachePolicy.CACHING_OPTIMIZED,
          headersPolicy('DownloadHeaders', IMMUTABLE_CACHE_CONTROL, { 'Content-Disposition': 'attachment' }),
        ),
        '/*/v*/*': behaviour(
          CachePolicy.CACHING_OPTIMIZED,
          headersPolicy('ImmutableHeaders', IMMUTABLE_CACHE_CONTROL),
        ),
      },
      ...distributionDefaults({ ...props, logFilePrefix: 'cloudfront/pages/', domain: pagesDomain }),
    });
    completeDistribution(this.distribution, pagesDomain);
    // The configured domain when there is one: the links stored in published records then outlive any
    // redeployment of this (stateless) stack and its distribution.
    this.baseUrl = addressOf(this.distribution, pagesDomain);

    // What the gate and the backfill are told, and may do: list the bucket's keys under `listing` (no
    // object read), and read the store's version and make `writes` to it.
    const gateSettings = {
      [GATE_SETTINGS.store]: this.withdrawnSlugs.keyValueStoreArn,
      [GATE_SETTINGS.distribution]: this.distribution.distributionId,
    };
    const storeAccess = (fn: ServiceFunction, listing: Record<string, object>, writes: string[]) => {
      useBucket(fn, blobBucket, NO_BLOBS);
      fn.addToRolePolicy(
        new PolicyStatement({
          actions: ['s3:ListBucket'],
          resources: [blobBucket.bucketArn],
          conditions: listing,
        }),
      );
      fn.addToRolePolicy(
        new PolicyStatement({
          actions: ['DescribeKeyValueStore', ...writes].map((action) => `cloudfront-keyvaluestore:${action}`),
          resources: [this.withdrawnSlugs.keyValueStoreArn],
        }),
      );
    };

    // The withdrawal gate: told of every change of a marker, it puts the slug into the store or deletes
    // it (as the bucket has the marker or not) and invalidates the publication's files. It may list
    // the markers' own keys (to see whether one is there), write the store and invalidate this
    // distribution, nothing else. A failed event is retried twice, then kept in its dead-letter queue.
    this.withdrawalGate = new ServiceFunction(this, 'WithdrawalGate', {
      entry: 'lambdas/hosts/aws/functions/withdrawal-gate.ts',
      description: 'hosted pages: keep the withdrawn slugs in step with the withdrawal markers',
      memorySize: 256,
      timeout: Duration.minutes(1),
      deadLetterQueue: alarmedDeadLetterQueue(
        this,
        'WithdrawalGateDeadLetters',
        'Withdrawals the gate could not apply',
      ),
      environment: gateSettings,
    });
    storeAccess(this.withdrawalGate, { StringLike: { 's3:prefix': WITHDRAWAL_MARKERS } }, [
      'PutKey',
      'DeleteKey',
    ]);
    this.distribution.grantCreateInvalidation(this.withdrawalGate);

    this.withdrawalMarkers = new Rule(this, 'WithdrawalMarkers', {
      description: `contract-service ${props.environment}: withdrawal markers created or deleted`,
      eventPattern: {
        source: ['aws.s3'],
        detailType: [...MARKER_EVENT_TYPES],
        detail: {
          bucket: { name: [blobBucket.bucketName] },
          object: { key: Match.wildcard(WITHDRAWAL_MARKERS) },
        },
      },
      targets: [new LambdaFunction(this.withdrawalGate)],
    });

    // The store is made with this (stateless) stack, the markers outlive it in the stateful bucket: a
    // store made afresh is filled from them before the deployment ends, so no withdrawn page comes
    // back. The trigger runs when it is created and whenever the function changes; a failed run fails
    // the deployment (and rolls it back) rather than leaving withdrawn pages served.
    this.withdrawalBackfill = new ServiceFunction(this, 'WithdrawalBackfill', {
      entry: 'lambdas/hosts/aws/functions/withdrawal-backfill.ts',
      description: 'hosted pages: fill a new store of withdrawn slugs from the withdrawal markers',
      memorySize: 256,
      timeout: Duration.minutes(BACKFILL_MINUTES),
      environment: gateSettings,
    });
    storeAccess(this.withdrawalBackfill, { StringEquals: { 's3:prefix': PUBLICATIONS_PREFIX } }, ['PutKey']);
    this.backfill = new Trigger(this, 'BackfillOnDeploy', {
      handler: this.withdrawalBackfill,
      executeOnHandlerChange: true,
      invocationType: InvocationType.REQUEST_RESPONSE,
      timeout: Duration.minutes(BACKFILL_MINUTES),
      executeAfter: [this.withdrawnSlugs, this.withdrawalBackfill],
    });
  }
}
