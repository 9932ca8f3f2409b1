// infra -> the back office, deployed (decisions.md §11 "Where" and "Who"): its own CloudFront address in the
// identity stack, serving its built files (frontend/back-office) as every application's are
// (lib/app-site.ts), and `/api/*` and `/auth/*` sent to its backend (lambdas/back-office/app.ts in a Lambda
// behind an HTTP API that answers CloudFront alone). Staff sign in at a user pool of their own, never the
// integrators': no self sign-up (an admin creates each person), a strong password and an authenticator app
// (TOTP) required, threat protection on. The pool only says who someone is; what they may do is their staff
// record's roles (`ops staff-add`, the Staff page), audited with each change: one source of roles.
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import {
  AccountRecovery,
  CfnManagedLoginBranding,
  FeaturePlan,
  ManagedLoginVersion,
  Mfa,
  OAuthScope,
  StandardThreatProtectionMode,
  UserPool,
  type UserPoolClient,
  UserPoolClientIdentityProvider,
  type UserPoolDomain,
  type UserPoolEmail,
} from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Bucket, IBucket } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { AppAssets } from '../lambdas/api/http/served-files';
import type { Environment } from '../lambdas/core/model';
import { serveApp } from './app-site';
import { type BackOfficeEnvironment, grantBackOfficeUseCases } from './back-office-grants';
import { acknowledge } from './checks';
import type { OriginProtection } from './origin-protection';
import { ServiceFunction } from './service-function';
import { useSecret } from './wiring';

/** The paths CloudFront sends to the backend; every other path is a file of the bucket. */
export const BACK_OFFICE_BACKEND_PATHS = ['/api/*', '/auth/*'] as const;

/** A few staff, but a review page loads each of its contract's page images at once. */
export const BACK_OFFICE_API_THROTTLE = { rate: 50, burst: 100 } as const;

/** Staff passwords: longer than integrators' (they reach every organisation's contracts and sign-ups). */
export const STAFF_MIN_PASSWORD_CHARACTERS = 14;

export interface BackOfficeSiteProps {
  readonly identityTable: ITable;
  readonly environments: Readonly<Record<Environment, BackOfficeEnvironment>>;
  readonly assets: AppAssets;
  readonly webAclArn: string;
  readonly logBucket: IBucket;
  /** The identity stack's origin secret: the backend's API answers only CloudFront. */
  readonly originProtection: OriginProtection;
  /** How the staff pool sends its mail (Amazon SES when configured; lib/identity-stack.ts). */
  readonly email?: UserPoolEmail;
}

export class BackOfficeSite extends Construct {
  /** The operator's staff, apart from the integrators' pool. Retained: it holds their passwords and TOTP. */
  readonly staffPool: UserPool;
  readonly staffDomain: UserPoolDomain;
  readonly staffClient: UserPoolClient;
  /** The back office's client secret at the pool: its backend's alone. */
  readonly clientSecret: Secret;
  readonly backend: ServiceFunction;
  readonly httpApi: HttpApi;
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  /** `https://{distribution domain}`: the back office's origin. */
  readonly address: string;

  constructor(scope: Construct, id: string, props: BackOfficeSiteProps) {
    super(scope, id);
    this.backend = new ServiceFunction(this, 'Backend', {
      entry: 'lambdas/hosts/aws/functions/back-office.ts',
      description: 'back office: /api/* and /auth/*',
    });
    grantBackOfficeUseCases(this.backend, props.identityTable, props.environments);
    const site = serveApp(this, {
      name: 'back office',
      logName: 'back-office',
      assets: props.assets,
      backend: this.backend,
      backendThrottle: BACK_OFFICE_API_THROTTLE,
      backendPaths: BACK_OFFICE_BACKEND_PATHS,
      originProtection: props.originProtection,
      webAclArn: props.webAclArn,
      logBucket: props.logBucket,
    });
    this.httpApi = site.httpApi;
    this.bucket = site.bucket;
    this.distribution = site.distribution;
    this.address = site.address;
    this.backend.addEnvironment('BACK_OFFICE_URL', this.address);

    this.staffPool = new UserPool(this, 'Staff', {
      userPoolName: 'contract-service-staff',
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      autoVerify: { email: true },
      ...(props.email && { email: props.email }),
      userInvitation: {
        emailSubject: 'Your place in the contract service’s back office',
        emailBody: `You have been added to the back office at ${this.address}. Sign in there with {username} and the temporary password {####}; you will choose your own password and set up an authenticator app.`,
      },
      passwordPolicy: {
        minLength: STAFF_MIN_PASSWORD_CHARACTERS,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
        passwordHistorySize: 12,
      },
      mfa: Mfa.REQUIRED,
      mfaSecondFactor: { otp: true, sms: false, email: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      featurePlan: FeaturePlan.PLUS,
      standardThreatProtectionMode: StandardThreatProtectionMode.FULL_FUNCTION,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // Managed login (not the classic pages): it enrols the authenticator app at the first sign-in.
    this.staffDomain = this.staffPool.addDomain('Domain', {
      cognitoDomain: { domainPrefix: `contract-service-staff-${this.staffPool.stack.account}` },
      managedLoginVersion: ManagedLoginVersion.NEWER_MANAGED_LOGIN,
    });
    this.staffClient = this.staffPool.addClient('BackOfficeClient', {
      userPoolClientName: 'contract-service back office',
      generateSecret: true,
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL],
        // Where mountSignIn finishes a sign-in (lambdas/portal/sign-in-routes.ts).
        callbackUrls: [`${this.address}/auth/callback`],
        logoutUrls: [`${this.address}/`],
      },
      // Used once, at the callback, to learn who signed in: the session is the back office's own.
      idTokenValidity: Duration.minutes(5),
      accessTokenValidity: Duration.minutes(5),
      preventUserExistenceErrors: true,
    });
    new CfnManagedLoginBranding(this, 'SignInPages', {
      userPoolId: this.staffPool.userPoolId,
      clientId: this.staffClient.userPoolClientId,
      useCognitoProvidedValues: true,
    });
    // Read from the pool at deployment (CDK's custom resource) into a secret only the backend reads.
    this.clientSecret = new Secret(this, 'ClientSecret', {
      description: 'contract-service back office: its client secret at the staff user pool',
      secretStringValue: this.staffClient.userPoolClientSecret,
    });
    acknowledge(
      this.clientSecret,
      'AwsSolutions-SMG4',
      'Cognito makes the client secret and cannot rotate it in place: a new client is a new secret.',
    );
    useSecret(this.backend, 'STAFF_CLIENT_SECRET_ARN', this.clientSecret);
    this.backend.addEnvironment('STAFF_POOL_ISSUER', this.staffPool.userPoolProviderUrl);
    this.backend.addEnvironment('STAFF_POOL_DOMAIN_URL', this.staffDomain.baseUrl());
    this.backend.addEnvironment('STAFF_CLIENT_ID', this.staffClient.userPoolClientId);
  }
}
