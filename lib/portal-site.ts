// infra -> the developer portal, deployed (decisions.md §10): its built files (frontend/portal) in a private
// bucket that only its CloudFront distribution reads (origin access control), every page path answered by
// `index.html` (the script shows the page of the path, which names the environment), and `/api/*` and
// `/auth/*` sent to its backend (lambdas/portal/app.ts in a Lambda behind an HTTP API). The backend alone
// reads the portal's client secret; it is given the identity table and each environment's table, delivery
// queue and deliveries' waits (a test event, a redelivery), named in context (lib/identity-context.ts).
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
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Bucket, IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { AppAssets } from '../frontend/app-kit/served-files';
import { APP_CSP, appFiles, PAGE_SECURITY_HEADERS } from '../frontend/app-kit/served-files';
import { ENVIRONMENTS } from '../lambdas/core/model';
import { acknowledge, acknowledgeBucketDeployment } from './checks';
import {
  builtFilesBucket,
  completeDistribution,
  distributionDefaults,
  STRICT_TRANSPORT_SECURITY,
} from './distribution-defaults';
import type { BaseUrls, Environment } from './environments';
import { httpApiOrigin } from './http-api-origin';
import { protectHttpApi } from './http-api-protection';
import { type EnvironmentResources, useNamedEnvironment } from './identity-context';
import { deployBuiltFiles } from './onboarding-frame';
import type { OriginProtection } from './origin-protection';
import { ServiceFunction } from './service-function';
import { useSecret, useTable } from './wiring';

/** The paths CloudFront sends to the backend; every other path is a file of the bucket. */
export const PORTAL_BACKEND_PATHS = ['/api/*', '/auth/*'] as const;

/** People using a portal: a flood is all that could come near this. */
export const PORTAL_API_THROTTLE = { rate: 50, burst: 100 } as const;

/** Every path that is not an asset is a page, and every page is `index.html`. */
const PAGE_REWRITE = `function handler(event) {
  var request = event.request;
  if (request.uri.indexOf('/assets/') !== 0) request.uri = '/index.html';
  return request;
}`;

export interface PortalSiteProps {
  readonly identityTable: ITable;
  /** The identity provider's issuer (its distribution's address). */
  readonly issuer: string;
  readonly clientSecret: ISecret;
  readonly baseUrls: BaseUrls;
  readonly environments: Readonly<Record<Environment, EnvironmentResources>>;
  readonly assets: AppAssets;
  readonly webAclArn: string;
  readonly logBucket: IBucket;
  /** The identity stack's origin secret: the backend's API answers only CloudFront. */
  readonly originProtection: OriginProtection;
}

export class PortalSite extends Construct {
  readonly bucket: Bucket;
  readonly backend: ServiceFunction;
  readonly httpApi: HttpApi;
  readonly distribution: Distribution;
  /** `https://{distribution domain}`: the portal's origin. */
  readonly address: string;

  constructor(scope: Construct, id: string, props: PortalSiteProps) {
    super(scope, id);
    this.backend = new ServiceFunction(this, 'Backend', {
      entry: 'lambdas/hosts/aws/functions/portal.ts',
      description: 'developer portal: /api/* and /auth/*',
    });
    useTable(this.backend, props.identityTable, 'endpoint', 'IDENTITY_TABLE_NAME');
    useSecret(this.backend, 'PORTAL_CLIENT_SECRET_ARN', props.clientSecret);
    this.backend.addEnvironment('IDENTITY_ISSUER', props.issuer);
    for (const environment of ENVIRONMENTS) {
      const named = props.environments[environment];
      this.backend.addEnvironment(`${environment.toUpperCase()}_BASE_URL`, props.baseUrls[environment]);
      this.backend.addEnvironment(`${environment.toUpperCase()}_FRAME_URL`, named.frameUrl);
      useNamedEnvironment(this, this.backend, environment, named);
    }
    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'contract-service developer portal backend',
      defaultIntegration: new HttpLambdaIntegration('Backend', this.backend),
      defaultAuthorizer: props.originProtection.authorizer(),
    });
    protectHttpApi(this, this.httpApi, PORTAL_API_THROTTLE);

    // Built files only: nothing here is kept when the stack goes.
    this.bucket = builtFilesBucket(this, props.logBucket, 'portal-files/');

    const custom = Object.entries(PAGE_SECURITY_HEADERS).filter(([name]) => name.startsWith('Cross-Origin-'));
    const pageHeaders = new ResponseHeadersPolicy(this, 'PageHeaders', {
      comment: 'contract-service developer portal: pages',
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
    const backendHeaders = new ResponseHeadersPolicy(this, 'BackendHeaders', {
      comment: 'contract-service developer portal: backend',
      securityHeadersBehavior: { strictTransportSecurity: STRICT_TRANSPORT_SECURITY },
    });
    const byObjectCacheControl = new CachePolicy(this, 'ByCacheControl', {
      comment: 'contract-service developer portal files, as their Cache-Control says',
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(0),
      maxTtl: Duration.days(365),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    const backend: BehaviorOptions = {
      origin: httpApiOrigin(
        this,
        'BackendOrigin',
        this.httpApi,
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
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'contract-service developer portal',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: byObjectCacheControl,
        responseHeadersPolicy: pageHeaders,
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        functionAssociations: [
          {
            eventType: FunctionEventType.VIEWER_REQUEST,
            function: new CloudFrontFunction(this, 'PagePaths', {
              comment: 'contract-service developer portal: every page is index.html',
              runtime: FunctionRuntime.JS_2_0,
              code: FunctionCode.fromInline(PAGE_REWRITE),
            }),
          },
        ],
      },
      additionalBehaviors: Object.fromEntries(PORTAL_BACKEND_PATHS.map((path) => [path, backend])),
      ...distributionDefaults({ ...props, logFilePrefix: 'cloudfront/portal/' }),
    });
    completeDistribution(this.distribution, undefined);
    acknowledge(
      this.distribution,
      'AwsSolutions-CFR5',
      'Both origins are reached over HTTPS: S3 (origin access control) and the backend’s HTTP API with TLS 1.2.',
    );
    this.address = `https://${this.distribution.distributionDomainName}`;
    this.backend.addEnvironment('PORTAL_URL', this.address);

    deployBuiltFiles(this, this.bucket, appFiles(props.assets));
    acknowledgeBucketDeployment(this, 'the portal’s files bucket');
  }
}
