// infra -> the shared stack beside the two stages (`contract-service-identity`, decisions.md §10): the
// identity table (people, organisations, integrations, the identity provider's state and the portal's
// sessions; retained), the identity provider (lambdas/identity-provider in one Lambda behind an HTTP API
// and its own CloudFront address, which is its issuer), its keys and the portal's client secret in Secrets
// Manager, the developer portal (lib/portal-site.ts), the back office and its staff user pool
// (lib/back-office.ts), the alarms of all of it (lib/identity-alarms.ts), and the SSM parameters through
// which the stages' MCP servers find the issuer and the table. Only the identity provider, the portal's and
// the back office's backends and the MCP servers are granted the identity table.
import { CfnOutput, RemovalPolicy, Stack, type StackProps, Token } from 'aws-cdk-lib';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  HeadersReferrerPolicy,
  OriginRequestPolicy,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import {
  AccountRecovery,
  Mfa,
  OAuthScope,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
  UserPoolEmail,
} from 'aws-cdk-lib/aws-cognito';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import type { AppAssets } from '../lambdas/api/http/served-files';
import { ENVIRONMENTS } from '../lambdas/core/model';
import { MIN_PASSWORD_CHARACTERS } from '../lambdas/core/people/credentials';
import { UPSTREAM_CALLBACK_PATH } from '../lambdas/core/settings';
import { BackOfficeSite } from './back-office';
import { acknowledge, cdkSingleton } from './checks';
import {
  completeDistribution,
  distributionDefaults,
  edgeLogBucket,
  STRICT_TRANSPORT_SECURITY,
} from './distribution-defaults';
import type { EdgeStack } from './edge-stack';
import type { BaseUrls, Environment } from './environments';
import { httpApiOrigin } from './http-api-origin';
import { protectHttpApi } from './http-api-protection';
import { IdentityAlarms } from './identity-alarms';
import {
  environmentFromParameters,
  IDENTITY_PARAMETERS,
  type IdentityEmail,
  publishedValue,
} from './identity-context';
import { OriginProtection } from './origin-protection';
import { PortalSite } from './portal-site';
import { ServiceFunction } from './service-function';
import { serviceTable } from './service-table';
import { useSecret, useTable } from './wiring';

/** Sign-ins, sign-ups and token requests a second across the provider's address. */
export const IDENTITY_API_THROTTLE = { rate: 100, burst: 200 } as const;

/** 43 letters and digits: about 256 random bits. */
const GENERATED_KEY = { excludePunctuation: true, passwordLength: 43 } as const;

/** The built files of the applications the identity stack serves. */
export interface IdentityAssets {
  readonly portal: AppAssets;
  readonly backOffice: AppAssets;
}

export interface IdentityStackProps extends StackProps {
  readonly baseUrls: BaseUrls;
  readonly assets: IdentityAssets;
  /** The identity edge stack: its web ACL (us-east-1), read through SSM or across regions. */
  readonly edge: EdgeStack;
  /** The user pools' sender through Amazon SES (`service:identity`.email); none: Cognito's own. */
  readonly email?: IdentityEmail;
}

/**
 * How both user pools send mail (sign-up codes, password resets, staff invitations): through SES from
 * `email.from` when given, else Cognito's own sender, which sends at most 50 emails a day per account
 * (README, quotas).
 */
const userPoolEmail = (stack: Stack, email: IdentityEmail | undefined): UserPoolEmail | undefined => {
  if (!email) return undefined;
  const region = email.region ?? (Token.isUnresolved(stack.region) ? undefined : stack.region);
  if (!region)
    throw new Error(
      'CDK context service:identity.email.region is needed when the identity stack is not pinned to a region',
    );
  return UserPoolEmail.withSES({
    fromEmail: email.from,
    fromName: 'Contract service',
    sesRegion: region,
    sesVerifiedDomain: email.from.split('@')[1] as string,
  });
};

export class IdentityStack extends Stack {
  readonly table: Table;
  readonly provider: ServiceFunction;
  readonly providerApi: HttpApi;
  readonly providerDistribution: Distribution;
  /** `https://{distribution domain}`: the provider's issuer identifier. */
  readonly issuer: string;
  /** The portal's client secret at the provider: read by the portal's backend and the provider only. */
  readonly portalClientSecret: Secret;
  /** The provider's cookie key and signing JWKS (lambdas/hosts/aws/provider-keys.ts): the provider's alone. */
  readonly providerKeys: Secret;
  readonly portal: PortalSite;
  /** The operator's staff's application and their user pool (decisions.md §11). */
  readonly backOffice: BackOfficeSite;
  readonly alarms: IdentityAlarms;
  /** Where people sign in (and up): the provider's upstream (lambdas/identity-provider/upstream.ts). */
  readonly userPool: UserPool;
  readonly userPoolClient: UserPoolClient;
  /** The origin secret and authorizer of the provider's and the portal backend's HTTP APIs. */
  readonly originProtection: OriginProtection;

  constructor(scope: Construct, id: string, props: IdentityStackProps) {
    super(scope, id, props);
    const webAclArn = props.edge.webAclArnIn(this);
    const logBucket = edgeLogBucket(this, 'EdgeLogs');

    // As an environment's table (lib/service-table.ts): people's emails and password hashes. Sessions,
    // codes, tokens and rate-limit counters expire.
    const { table, key: tableKey } = serviceTable(this, { owner: 'contract-service identity' });
    this.table = table;

    this.portalClientSecret = new Secret(this, 'PortalClientSecret', {
      description: "contract-service identity: the portal's client secret at the identity provider",
      generateSecretString: GENERATED_KEY,
    });
    this.providerKeys = new Secret(this, 'ProviderKeys', {
      description: 'contract-service identity: the identity provider’s cookie key and signing keys',
      generateSecretString: { ...GENERATED_KEY, secretStringTemplate: '{}', generateStringKey: 'cookieKey' },
    });
    for (const secret of [this.portalClientSecret, this.providerKeys])
      acknowledge(
        secret,
        'AwsSolutions-SMG4',
        'Not rotated automatically: a new value signs every person out and invalidates every token at once, so it is changed by hand (README, Deploying).',
      );

    this.provider = new ServiceFunction(this, 'Provider', {
      entry: 'lambdas/hosts/aws/functions/identity-provider.ts',
      description: 'identity provider: OpenID Connect authorization server, sign-in and consent pages',
    });
    useTable(this.provider, this.table, 'endpoint', 'IDENTITY_TABLE_NAME');
    useSecret(this.provider, 'PORTAL_CLIENT_SECRET_ARN', this.portalClientSecret);
    useSecret(this.provider, 'PROVIDER_KEYS_SECRET_ARN', this.providerKeys);
    // The first instance writes the signing keys it made, once.
    this.provider.addToRolePolicy(
      new PolicyStatement({
        actions: ['secretsmanager:PutSecretValue'],
        resources: [this.providerKeys.secretArn],
      }),
    );
    for (const environment of ENVIRONMENTS)
      this.provider.addEnvironment(`${environment.toUpperCase()}_BASE_URL`, props.baseUrls[environment]);

    // Neither API has a custom domain: only a request with CloudFront's origin secret gets through.
    this.originProtection = new OriginProtection(this, 'OriginProtection', 'contract-service identity');
    this.providerApi = new HttpApi(this, 'ProviderApi', {
      description: 'contract-service identity provider',
      defaultIntegration: new HttpLambdaIntegration('Provider', this.provider),
      defaultAuthorizer: this.originProtection.authorizer(),
    });
    protectHttpApi(this, this.providerApi, IDENTITY_API_THROTTLE);
    // Its pages carry their own security headers (lambdas/identity-provider/page-security.ts); CloudFront
    // adds HSTS, and no answer is cached (every one is a person's or a client's).
    const providerHeaders = new ResponseHeadersPolicy(this, 'ProviderHeaders', {
      comment: 'contract-service identity provider',
      securityHeadersBehavior: {
        strictTransportSecurity: STRICT_TRANSPORT_SECURITY,
        contentTypeOptions: { override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: false },
      },
    });
    this.providerDistribution = new Distribution(this, 'ProviderFront', {
      comment: 'contract-service identity provider',
      defaultBehavior: {
        origin: httpApiOrigin(
          this,
          'ProviderOrigin',
          this.providerApi,
          undefined,
          'api',
          this.originProtection.originHeaders,
        ),
        allowedMethods: AllowedMethods.ALLOW_ALL,
        cachePolicy: CachePolicy.CACHING_DISABLED,
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        responseHeadersPolicy: providerHeaders,
        // Not a redirect: a token request's POST would be replayed as a GET without its body.
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      },
      ...distributionDefaults({
        webAclArn,
        logBucket,
        logFilePrefix: 'cloudfront/identity-provider/',
      }),
    });
    completeDistribution(this.providerDistribution, undefined);
    acknowledge(
      this.providerDistribution,
      'AwsSolutions-CFR5',
      'The origin is the provider’s HTTP API, reached over HTTPS with TLS 1.2.',
    );
    this.issuer = `https://${this.providerDistribution.distributionDomainName}`;
    this.provider.addEnvironment('IDENTITY_ISSUER', this.issuer);

    // The upstream sign-in: people sign up and in at the user pool's hosted pages (email verified there),
    // and the provider maps the verified email to a person. Retained: it holds the people's passwords.
    const email = userPoolEmail(this, props.email);
    this.userPool = new UserPool(this, 'People', {
      userPoolName: 'contract-service-people',
      selfSignUpEnabled: true,
      signInAliases: { email: true },
      autoVerify: { email: true },
      ...(email && { email }),
      passwordPolicy: {
        minLength: MIN_PASSWORD_CHARACTERS,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
      },
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(
      this.userPool,
      'AwsSolutions-COG2',
      'Multi-factor authentication is offered (an authenticator app), not required: developers sign up themselves, and a required second factor would stop the first sign-in.',
    );
    acknowledge(
      this.userPool,
      'AwsSolutions-COG8',
      'Threat protection needs the Plus feature plan (a price per person); the choice is the operator’s (README, Deploying).',
    );
    this.userPool.addDomain('Domain', {
      cognitoDomain: { domainPrefix: `contract-service-${this.account}` },
    });
    this.userPoolClient = this.userPool.addClient('ProviderClient', {
      userPoolClientName: 'contract-service identity provider',
      generateSecret: true,
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL],
        callbackUrls: [`${this.issuer}${UPSTREAM_CALLBACK_PATH}`],
      },
      preventUserExistenceErrors: true,
    });
    // Read from the pool at deployment (a custom resource) into a secret only the provider reads.
    const upstreamSecret = new Secret(this, 'UpstreamClientSecret', {
      description: 'contract-service identity: the identity provider’s client secret at the user pool',
      secretStringValue: this.userPoolClient.userPoolClientSecret,
    });
    acknowledge(
      upstreamSecret,
      'AwsSolutions-SMG4',
      'Cognito makes the client secret and cannot rotate it in place: a new client is a new secret.',
    );
    acknowledge(
      cdkSingleton(this, 'AWS679f53fac002430cb0da5b7982bd2287'),
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      'CDK’s custom resource function reading the client secret from the pool: Lambda’s basic execution policy writes its log lines only.',
    );
    useSecret(this.provider, 'UPSTREAM_CLIENT_SECRET_ARN', upstreamSecret);
    this.provider.addEnvironment('UPSTREAM_ISSUER', this.userPool.userPoolProviderUrl);
    this.provider.addEnvironment('UPSTREAM_CLIENT_ID', this.userPoolClient.userPoolClientId);

    this.portal = new PortalSite(this, 'Portal', {
      identityTable: this.table,
      issuer: this.issuer,
      clientSecret: this.portalClientSecret,
      baseUrls: props.baseUrls,
      // Each stage's own parameters (lib/identity-context.ts), read at deployment: the stages go first.
      environments: {
        sandbox: environmentFromParameters(this, 'sandbox'),
        production: environmentFromParameters(this, 'production'),
      },
      assets: props.assets.portal,
      webAclArn,
      logBucket,
      originProtection: this.originProtection,
    });
    this.provider.addEnvironment('PORTAL_URL', this.portal.address);

    const backOfficeEnvironment = (environment: Environment) => {
      const published = environmentFromParameters(this, environment);
      return {
        tableName: published.tableName,
        tableKeyArn: published.tableKeyArn,
        bucketName: published.bucketName,
        answersKeySecretArn: publishedValue(this, environment, 'answersKeySecretArn'),
        contractStateMachineArn: published.contractStateMachineArn,
        reviewStateMachineArn: published.reviewStateMachineArn,
      };
    };
    this.backOffice = new BackOfficeSite(this, 'BackOffice', {
      identityTable: this.table,
      environments: {
        sandbox: backOfficeEnvironment('sandbox'),
        production: backOfficeEnvironment('production'),
      },
      assets: props.assets.backOffice,
      webAclArn,
      logBucket,
      originProtection: this.originProtection,
      ...(email && { email }),
    });
    // Every distribution that sends the secret learns its new value at each rotation.
    this.originProtection.rotate([
      this.providerDistribution,
      this.portal.distribution,
      this.backOffice.distribution,
    ]);

    // Read by the stages at deployment (lib/identity-context.ts): they cannot reference this stack.
    new StringParameter(this, 'IssuerParameter', {
      parameterName: IDENTITY_PARAMETERS.issuer,
      stringValue: this.issuer,
      description: 'contract-service: the identity provider’s issuer identifier',
    });
    new StringParameter(this, 'TableNameParameter', {
      parameterName: IDENTITY_PARAMETERS.tableName,
      stringValue: this.table.tableName,
      description: 'contract-service: the identity table',
    });
    new StringParameter(this, 'TableKeyParameter', {
      parameterName: IDENTITY_PARAMETERS.tableKeyArn,
      stringValue: tableKey.keyArn,
      description: 'contract-service: the identity table’s key',
    });

    new CfnOutput(this, 'IssuerUrl', {
      description: 'The identity provider (its issuer)',
      value: this.issuer,
    });
    new CfnOutput(this, 'PortalUrl', { description: 'The developer portal', value: this.portal.address });
    new CfnOutput(this, 'BackOfficeUrl', {
      description: 'The back office (the operator’s staff)',
      value: this.backOffice.address,
    });
    new CfnOutput(this, 'StaffUserPoolId', {
      description: 'The staff user pool: where an admin creates each member of staff (README, Deploying)',
      value: this.backOffice.staffPool.userPoolId,
    });
    new CfnOutput(this, 'IdentityTableName', {
      description: 'The identity table',
      value: this.table.tableName,
    });

    // Last: it alarms on every function and API the stack has.
    this.alarms = new IdentityAlarms(this, 'Alarms');
  }
}
