// infra -> the developer portal, deployed (decisions.md §10): its built files (frontend/portal) served as
// every application's are (lib/app-site.ts: pages are `index.html`, whose script shows the page of the
// path, which names the environment), and `/api/*` and `/auth/*` sent to its backend (lambdas/portal/app.ts
// in a Lambda behind an HTTP API). The backend alone reads the portal's client secret; it is given the identity table and each environment's table, delivery
// queue and deliveries' waits (a test event, a redelivery), named in context (lib/identity-context.ts).
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Bucket, IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { AppAssets } from '../lambdas/api/http/served-files';
import { ENVIRONMENTS } from '../lambdas/core/model';
import { serveApp } from './app-site';
import type { BaseUrls, Environment } from './environments';
import { type EnvironmentResources, useNamedEnvironment } from './identity-context';
import type { OriginProtection } from './origin-protection';
import { ServiceFunction } from './service-function';
import { useSecret, useTable } from './wiring';

/** The paths CloudFront sends to the backend; every other path is a file of the bucket. */
export const PORTAL_BACKEND_PATHS = ['/api/*', '/auth/*'] as const;

/** People using a portal: a flood is all that could come near this. */
export const PORTAL_API_THROTTLE = { rate: 50, burst: 100 } as const;

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
    const site = serveApp(this, {
      name: 'developer portal',
      logName: 'portal',
      assets: props.assets,
      backend: this.backend,
      backendThrottle: PORTAL_API_THROTTLE,
      backendPaths: PORTAL_BACKEND_PATHS,
      originProtection: props.originProtection,
      webAclArn: props.webAclArn,
      logBucket: props.logBucket,
    });
    this.httpApi = site.httpApi;
    this.bucket = site.bucket;
    this.distribution = site.distribution;
    this.address = site.address;
    this.backend.addEnvironment('PORTAL_URL', this.address);
  }
}
