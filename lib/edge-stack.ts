// infra -> what CloudFront needs in us-east-1, whatever region the stage runs in: the web ACL (AWS WAF) in
// front of every distribution of the stage, and the certificate of the stage's domains when it has any. A stage pinned to another region reads it across regions
// (CDK's cross-region references); an environment-agnostic stage deploys this stack with the others, so
// it must then be deployed to us-east-1 (README, Deploying).
import { ArnFormat, RemovalPolicy, Stack, type StackProps, Token } from 'aws-cdk-lib';
import { Certificate, CertificateValidation, type ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { HostedZone } from 'aws-cdk-lib/aws-route53';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { CfnLoggingConfiguration, CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import type { Environment, StageDomains } from './environments';
import { webAclResponseBodies, webAclRules } from './web-acl-rules';

/** The region of CloudFront's web ACLs and viewer certificates. */
export const CLOUDFRONT_REGION = 'us-east-1';

export interface EdgeStackProps extends StackProps {
  /** The stage it fronts, or the shared identity stack (the identity provider's and portal's distributions). */
  readonly environment: Environment | 'identity';
  readonly domains?: StageDomains;
}

/** The SSM parameters where an edge stack names its web ACL and certificate, e.g. `/contract-service/sandbox/edge/webAclArn`. */
export const edgeParameter = (
  environment: Environment | 'identity',
  field: 'webAclArn' | 'certificateArn',
): string => `/contract-service/${environment}/edge/${field}`;

export class EdgeStack extends Stack {
  readonly webAcl: CfnWebACL;
  /** The distributions' certificate, naming the stage's three domains; none without domains. */
  readonly certificate?: Certificate;
  private readonly environmentName: Environment | 'identity';

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, props);
    const metric = (name: string) => ({
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: true,
      metricName: `contract-service-${props.environment}-${name}`,
    });
    const { domains } = props;
    this.environmentName = props.environment;
    const uploads = props.environment !== 'identity';
    if (domains) {
      const zone = domains.hostedZone
        ? HostedZone.fromHostedZoneAttributes(this, 'Zone', {
            hostedZoneId: domains.hostedZone.id,
            zoneName: domains.hostedZone.name,
          })
        : undefined;
      // DNS-validated: in the hosted zone by the stack, else by the operator (the deployment waits).
      this.certificate = new Certificate(this, 'Certificate', {
        domainName: domains.api,
        subjectAlternativeNames: [domains.pages, domains.frame],
        validation: CertificateValidation.fromDns(zone),
      });
    }
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      description: `contract-service ${props.environment}: every CloudFront distribution of the stage`,
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: metric('web-acl'),
      // A stage's web ACL fronts its uploads (lib/web-acl-rules.ts); the identity stack's has none.
      rules: webAclRules(metric, uploads),
      customResponseBodies: webAclResponseBodies(uploads),
    });
    // Every request the web ACL sees, blocked or not, kept 3 months: WAF writes only to a log group
    // whose name starts `aws-waf-logs-`, named by an ARN without CloudWatch's `:*`.
    const wafLogName = `aws-waf-logs-contract-service-${props.environment}`;
    const wafLogs = new LogGroup(this, 'WafLogs', {
      logGroupName: wafLogName,
      retention: RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    new CfnLoggingConfiguration(this, 'WafLogging', {
      resourceArn: this.webAcl.attrArn,
      logDestinationConfigs: [
        this.formatArn({
          service: 'logs',
          resource: 'log-group',
          resourceName: wafLogs.logGroupName,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      ],
    });

    // Read by the stacks in its own region (below): an export here would block replacing either.
    new StringParameter(this, 'WebAclArnParameter', {
      parameterName: edgeParameter(props.environment, 'webAclArn'),
      stringValue: this.webAcl.attrArn,
      description: `contract-service ${props.environment}: CloudFront's web ACL`,
    });
    if (this.certificate)
      new StringParameter(this, 'CertificateArnParameter', {
        parameterName: edgeParameter(props.environment, 'certificateArn'),
        stringValue: this.certificate.certificateArn,
        description: `contract-service ${props.environment}: the distributions' certificate`,
      });
  }

  /**
   * Whether `scope`'s stack is pinned to another region than this one: CDK's cross-region references
   * (SSM parameters in us-east-1, read by a custom resource) then carry the values, else this stack's
   * own SSM parameters, read at the reader's deployment, do.
   */
  private acrossRegions(scope: Construct): boolean {
    const reader = Stack.of(scope).region;
    return !Token.isUnresolved(reader) && !Token.isUnresolved(this.region) && reader !== this.region;
  }

  /** The web ACL's ARN as `scope`'s stack reads it (never an export). */
  webAclArnIn(scope: Construct): string {
    if (this.acrossRegions(scope)) return this.webAcl.attrArn;
    return StringParameter.valueForStringParameter(scope, edgeParameter(this.environmentName, 'webAclArn'));
  }

  /** The certificate as `scope`'s stack reads it (never an export); none without domains. */
  certificateIn(scope: Construct): ICertificate | undefined {
    if (!this.certificate || this.acrossRegions(scope)) return this.certificate;
    const arn = StringParameter.valueForStringParameter(
      scope,
      edgeParameter(this.environmentName, 'certificateArn'),
    );
    return Certificate.fromCertificateArn(scope, 'EdgeCertificate', arn);
  }
}
