// infra -> the hosted pages of one environment (contract viewer, review, snapshot): a CloudFront
// distribution serving the blob bucket's `published/` folder, as the local pages host serves it
// (lambdas/hosts/pages-host.ts): `/{slug}/{path}` is the blob `published/{slug}/{path}`, `index.html`
// for `/{slug}/`, with the pages' security headers on every answer.
//
// GAP: a withdrawn publication (marker blob `published/{slug}/withdrawn`) should answer 410 on every
// path. CloudFront Functions cannot read S3, so that needs a Lambda@Edge origin-request (or
// origin-response) function that looks for the marker; until one exists, a withdrawn publication's
// files stay reachable here. Likewise a well-formed path with no blob gets S3's own 403, not the
// plain not-found page (only malformed paths get that page, from the viewer-request function).
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
  HttpVersion,
  type ICachePolicy,
  type IOrigin,
  PriceClass,
  ResponseHeadersPolicy,
  type ResponseSecurityHeadersBehavior,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Bucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { renderNotFound } from '../frontend/pages/plain';
import { PAGE_SECURITY_HEADERS } from '../frontend/pages/security';
import type { Environment } from './environments';

/** The bucket folder the distribution serves (its origin path): nothing outside it is reachable. */
export const PUBLISHED_PREFIX = 'published';

/** The extensions of files a publication serves (the pages host's content types); any other path is 404. */
export const PAGE_EXTENSIONS = ['html', 'css', 'js', 'webp', 'png', 'pdf'] as const;

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

/**
 * The viewer-request function (cloudfront-js-2.0): resolves a path as the pages host does. `/{slug}`
 * moves to `/{slug}/`, `/{slug}/` is its `index.html`, and a path that is no publication file (a
 * malformed slug or segment, an unknown extension, the `withdrawn` marker) answers 404 with the plain
 * not-found page and the security headers, without reaching S3.
 */
export const viewerRequestCode = (): string => {
  const headers = Object.fromEntries(
    Object.entries({
      ...PAGE_SECURITY_HEADERS,
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
    }).map(([name, value]) => [name.toLowerCase(), { value }]),
  );
  return [
    `var HEADERS = ${JSON.stringify(headers)};`,
    `var NOT_FOUND = ${JSON.stringify(renderNotFound())};`,
    `var EXTENSIONS = ${JSON.stringify(PAGE_EXTENSIONS)};`,
    'function notFound() {',
    "  return { statusCode: 404, statusDescription: 'Not Found', headers: HEADERS, body: { encoding: 'text', data: NOT_FOUND } };",
    '}',
    'function handler(event) {',
    '  var request = event.request;',
    '  var match = /^\\/([A-Za-z0-9_-]{1,128})(\\/.*)?$/.exec(request.uri);',
    '  if (!match) return notFound();',
    '  var slug = match[1];',
    '  var rest = match[2];',
    '  if (rest === undefined) {',
    "    var moved = Object.assign({}, HEADERS, { location: { value: '/' + slug + '/' } });",
    "    delete moved['content-type'];",
    "    return { statusCode: 301, statusDescription: 'Moved Permanently', headers: moved };",
    '  }',
    "  var path = rest === '/' ? 'index.html' : rest.slice(1);",
    "  var segments = path.split('/');",
    '  var valid = path.length <= 512 && segments.every(function (s) { return /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(s); });',
    "  var dot = path.lastIndexOf('.');",
    '  if (!valid || dot < 0 || EXTENSIONS.indexOf(path.slice(dot + 1)) < 0) return notFound();',
    "  request.uri = '/' + slug + '/' + path;",
    '  return request;',
    '}',
    '',
  ].join('\n');
};

export interface HostedPagesProps {
  readonly environment: Environment;
  readonly blobBucket: IBucket;
}

export class HostedPages extends Construct {
  readonly distribution: Distribution;
  /** `https://{distribution domain}`, no trailing slash: what the code gets as `PAGES_BASE_URL`. */
  readonly baseUrl: string;

  constructor(scope: Construct, id: string, props: HostedPagesProps) {
    super(scope, id);
    const { blobBucket } = props;

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

    const viewerRequest = new CloudFrontFunction(this, 'ViewerRequest', {
      comment: `contract-service ${props.environment}: hosted pages paths`,
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(viewerRequestCode()),
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
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
    });
    this.baseUrl = `https://${this.distribution.distributionDomainName}`;
  }
}
