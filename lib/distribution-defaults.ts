// infra -> what every CloudFront distribution of the service has: the stage's web ACL, standard logs to the
// stage's log bucket, HSTS among its security headers, TLS 1.2 at least where a certificate allows the
// choice, HTTP/2 and 3, and the price class of the regions its users are in.
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  type Distribution,
  type DistributionProps,
  HttpVersion,
  PriceClass,
  type ResponseHeadersStrictTransportSecurity,
  SecurityPolicyProtocol,
} from 'aws-cdk-lib/aws-cloudfront';
import { AaaaRecord, ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { CloudFrontTarget } from 'aws-cdk-lib/aws-route53-targets';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type IBucket,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import type { Construct, IConstruct } from 'constructs';
import { acknowledge } from './checks';
import type { StageDomains } from './environments';

/**
 * A private bucket of built files served through a distribution (origin access control): nothing in it is
 * kept when the stack goes, since each deployment puts the files back; its access logs go under `logPrefix`.
 */
export const builtFilesBucket = (scope: Construct, logBucket: IBucket, logPrefix: string): Bucket =>
  new Bucket(scope, 'Files', {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    encryption: BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    minimumTLSVersion: 1.2,
    removalPolicy: RemovalPolicy.DESTROY,
    autoDeleteObjects: true,
    serverAccessLogsBucket: logBucket,
    serverAccessLogsPrefix: logPrefix,
  });

/** HSTS on every answer of every distribution: browsers use https only, for a year, subdomains included. */
export const STRICT_TRANSPORT_SECURITY: ResponseHeadersStrictTransportSecurity = {
  accessControlMaxAge: Duration.days(365),
  includeSubdomains: true,
  override: true,
};

/** How long CloudFront's and the load balancer's logs are kept. */
export const EDGE_LOG_DAYS = 90;

/**
 * The stage's log bucket: CloudFront's standard logs (which need ACLs: object writer ownership) and the
 * load balancer's access logs (which need SSE-S3), kept `EDGE_LOG_DAYS`. It is the end of the logging
 * chain, so it logs nothing of its own.
 */
export function edgeLogBucket(scope: Construct, id: string): Bucket {
  const bucket = new Bucket(scope, id, {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    objectOwnership: ObjectOwnership.OBJECT_WRITER,
    encryption: BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    minimumTLSVersion: 1.2,
    lifecycleRules: [{ expiration: Duration.days(EDGE_LOG_DAYS) }],
    removalPolicy: RemovalPolicy.RETAIN,
  });
  acknowledge(bucket, 'AwsSolutions-S1', 'The log bucket itself: its access logs would be logs of logs.');
  return bucket;
}

/** A distribution's own domain name, its certificate, and the hosted zone of its records if any. */
export interface DistributionDomain {
  readonly name: string;
  readonly certificate: ICertificate;
  readonly hostedZone?: { readonly id: string; readonly name: string };
}

export interface DistributionDefaults {
  readonly webAclArn: string;
  readonly logBucket: IBucket;
  /** Folder of this distribution's logs in the log bucket, e.g. `cloudfront/pages/`. */
  readonly logFilePrefix: string;
  readonly domain?: DistributionDomain | undefined;
}

/** The domain of one of a stage's distributions (`which` of its domains), with the shared certificate. */
export const domainOf = (
  domains: (StageDomains & { readonly certificate: ICertificate }) | undefined,
  which: 'api' | 'pages' | 'frame',
): DistributionDomain | undefined =>
  domains && {
    name: domains[which],
    certificate: domains.certificate,
    ...(domains.hostedZone && { hostedZone: domains.hostedZone }),
  };

/** `https://` and the distribution's own domain if it has one, else its generated one. */
export const addressOf = (distribution: Distribution, domain: DistributionDomain | undefined): string =>
  `https://${domain?.name ?? distribution.distributionDomainName}`;

/** The settings every distribution is created with (spread into its props). */
export const distributionDefaults = ({
  webAclArn,
  logBucket,
  logFilePrefix,
  domain,
}: DistributionDefaults): Pick<
  DistributionProps,
  | 'webAclId'
  | 'enableLogging'
  | 'logBucket'
  | 'logFilePrefix'
  | 'minimumProtocolVersion'
  | 'httpVersion'
  | 'priceClass'
  | 'domainNames'
  | 'certificate'
> => ({
  ...(domain && { domainNames: [domain.name], certificate: domain.certificate }),
  webAclId: webAclArn,
  enableLogging: true,
  logBucket,
  logFilePrefix,
  minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
  httpVersion: HttpVersion.HTTP2_AND_3,
  priceClass: PriceClass.PRICE_CLASS_100,
});

/**
 * What every distribution has once created: the records pointing its domain at it (when its hosted zone
 * is given), and the findings it accepts, with why.
 */
export function completeDistribution(
  distribution: Distribution,
  domain: DistributionDomain | undefined,
): void {
  if (domain?.hostedZone) {
    const zone = HostedZone.fromHostedZoneAttributes(distribution, 'Zone', {
      hostedZoneId: domain.hostedZone.id,
      zoneName: domain.hostedZone.name,
    });
    const target = RecordTarget.fromAlias(new CloudFrontTarget(distribution));
    new ARecord(distribution, 'Ipv4', { zone, recordName: domain.name, target });
    new AaaaRecord(distribution, 'Ipv6', { zone, recordName: domain.name, target });
  }
  acknowledgeDistributionFindings(distribution, domain !== undefined);
}

/** The findings every distribution accepts, with why. */
function acknowledgeDistributionFindings(distribution: IConstruct, hasCertificate: boolean): void {
  acknowledge(
    distribution,
    'AwsSolutions-CFR1',
    'No geographic restriction: buyers, agents and lawyers reach the service from anywhere.',
  );
  if (hasCertificate) return;
  acknowledge(
    distribution,
    'AwsSolutions-CFR4',
    'Without a domain of its own a distribution uses the *.cloudfront.net certificate, whose TLS policy CloudFront fixes; the minimum protocol is TLS 1.2 (2021) wherever a certificate is given.',
  );
}
