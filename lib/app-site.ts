// infra -> a browser application served by CloudFront, as the portal and the back office are: its built
// files (frontend/app-kit) in a private bucket that only its distribution reads (origin access control),
// every page path answered by `index.html` (the script shows the page of the path), and its backend's
// paths sent to its backend function through an HTTP API behind the origin protection. The constructs are
// made in the caller's scope, so each site keeps the logical ids it has always had.
import { Duration } from 'aws-cdk-lib';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
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
  OriginRequestPolicy,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Bucket, IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import type { AppAssets } from '../lambdas/api/http/served-files';
import { APP_CSP, appFiles, PAGE_SECURITY_HEADERS } from '../lambdas/api/http/served-files';
import { acknowledge, acknowledgeBucketDeployment } from './checks';
import {
  builtFilesBucket,
  completeDistribution,
  distributionDefaults,
  STRICT_TRANSPORT_SECURITY,
} from './distribution-defaults';
import { httpApiOrigin } from './http-api-origin';
import { type ApiThrottle, protectHttpApi } from './http-api-protection';
import { deployBuiltFiles } from './onboarding-frame';
import type { OriginProtection } from './origin-protection';

/** Every path that is not an asset is a page, and every page is `index.html`. */
const PAGE_REWRITE = `function handler(event) {
  var request = event.request;
  if (request.uri.indexOf('/assets/') !== 0) request.uri = '/index.html';
  return request;
}`;

export interface AppSiteProps {
  /** What the site is, in its resources' comments: `developer portal`, `back office`. */
  readonly name: string;
  /** The folder of the files bucket's and the distribution's logs: `portal`, `back-office`. */
  readonly logName: string;
  readonly assets: AppAssets;
  /** The function answering the backend's paths, behind an HTTP API of its own with this throttle. */
  readonly backend: IFunction;
  readonly backendThrottle: ApiThrottle;
  /** The paths CloudFront sends to the backend; every other path is a file of the bucket. */
  readonly backendPaths: readonly string[];
  readonly originProtection: OriginProtection;
  readonly webAclArn: string;
  readonly logBucket: IBucket;
}

export interface AppSite {
  readonly httpApi: HttpApi;
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  /** `https://{distribution domain}`: the site's origin. */
  readonly address: string;
}

export const serveApp = (scope: Construct, props: AppSiteProps): AppSite => {
  const httpApi = new HttpApi(scope, 'HttpApi', {
    description: `contract-service ${props.name} backend`,
    defaultIntegration: new HttpLambdaIntegration('Backend', props.backend),
    defaultAuthorizer: props.originProtection.authorizer(),
  });
  protectHttpApi(scope, httpApi, props.backendThrottle);
  // Built files only: nothing here is kept when the stack goes.
  const bucket = builtFilesBucket(scope, props.logBucket, `${props.logName}-files/`);

  const custom = Object.entries(PAGE_SECURITY_HEADERS).filter(([name]) => name.startsWith('Cross-Origin-'));
  const pageHeaders = new ResponseHeadersPolicy(scope, 'PageHeaders', {
    comment: `contract-service ${props.name}: pages`,
    securityHeadersBehavior: {
      strictTransportSecurity: STRICT_TRANSPORT_SECURITY,
      contentSecurityPolicy: { contentSecurityPolicy: APP_CSP, override: true },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
      referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.SAME_ORIGIN, override: true },
    },
    customHeadersBehavior: {
      customHeaders: custom.map(([header, value]) => ({ header, value, override: true })),
    },
  });
  // The backend sets its own security headers (API_SECURITY_HEADERS); CloudFront adds HSTS.
  const backendHeaders = new ResponseHeadersPolicy(scope, 'BackendHeaders', {
    comment: `contract-service ${props.name}: backend`,
    securityHeadersBehavior: { strictTransportSecurity: STRICT_TRANSPORT_SECURITY },
  });
  const byObjectCacheControl = new CachePolicy(scope, 'ByCacheControl', {
    comment: `contract-service ${props.name} files, as their Cache-Control says`,
    minTtl: Duration.seconds(0),
    defaultTtl: Duration.seconds(0),
    maxTtl: Duration.days(365),
    enableAcceptEncodingGzip: true,
    enableAcceptEncodingBrotli: true,
  });
  const backend: BehaviorOptions = {
    origin: httpApiOrigin(
      scope,
      'BackendOrigin',
      httpApi,
      undefined,
      'api',
      props.originProtection.originHeaders,
    ),
    allowedMethods: AllowedMethods.ALLOW_ALL,
    cachePolicy: CachePolicy.CACHING_DISABLED,
    originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    responseHeadersPolicy: backendHeaders,
    viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
  };
  const distribution = new Distribution(scope, 'Distribution', {
    comment: `contract-service ${props.name}`,
    defaultBehavior: {
      origin: S3BucketOrigin.withOriginAccessControl(bucket),
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy: byObjectCacheControl,
      responseHeadersPolicy: pageHeaders,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      functionAssociations: [
        {
          eventType: FunctionEventType.VIEWER_REQUEST,
          function: new CloudFrontFunction(scope, 'PagePaths', {
            comment: `contract-service ${props.name}: every page is index.html`,
            runtime: FunctionRuntime.JS_2_0,
            code: FunctionCode.fromInline(PAGE_REWRITE),
          }),
        },
      ],
    },
    additionalBehaviors: Object.fromEntries(props.backendPaths.map((path) => [path, backend])),
    ...distributionDefaults({
      webAclArn: props.webAclArn,
      logBucket: props.logBucket,
      logFilePrefix: `cloudfront/${props.logName}/`,
    }),
  });
  completeDistribution(distribution, undefined);
  acknowledge(
    distribution,
    'AwsSolutions-CFR5',
    'Both origins are reached over HTTPS: S3 (origin access control) and the backend’s HTTP API with TLS 1.2.',
  );
  deployBuiltFiles(scope, bucket, appFiles(props.assets));
  acknowledgeBucketDeployment(scope, `the ${props.name}’s files bucket`);
  return { httpApi, bucket, distribution, address: `https://${distribution.distributionDomainName}` };
};
