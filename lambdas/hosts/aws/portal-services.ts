// host -> the composition root of the deployed portal's backend (`/api/*` and `/auth/*` of the portal's
// address; its built files are served by CloudFront from S3): sessions, people and grants in the identity
// table, each environment's services, and the sign-in at the identity provider as the client `portal`,
// whose secret only this function (and the provider) reads. Built once per instance.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import * as z from 'zod/mini';
import { composeDirectory } from '../../adapters/compose';
import { createDocumentClient } from '../../adapters/dynamodb';
import { DynamoDbClientGrants } from '../../adapters/dynamodb/oidc-provider-storage';
import { DynamoDbPortalSessionStore } from '../../adapters/dynamodb/portal-session-store';
import { systemClock } from '../../adapters/system-clock';
import { translateFault, translatingFaults } from '../../adapters/unavailable';
import { PORTAL_CLIENT_ID, portalRedirectUri } from '../../identity-provider/portal-client';
import { portalApp } from '../../portal/app';
import { type PortalApp, portalFetch } from '../../portal/http';
import { PortalSignIn } from '../../portal/sign-in';
import { builtOnFirstUse } from './built-on-first-use';
import { BOTH_ENVIRONMENTS_SETTINGS, bothEnvironments, setting } from './environment-services';
import { lambdaHandler } from './lambda-adapter';

const PortalConfig = z.object({
  /** The portal's own https address: the only origin a change may come from. */
  PORTAL_URL: z.url(),
  IDENTITY_ISSUER: z.url(),
  IDENTITY_TABLE_NAME: setting,
  PORTAL_CLIENT_SECRET_ARN: setting,
  SANDBOX_FRAME_URL: z.url(),
  PRODUCTION_FRAME_URL: z.url(),
  AWS_REGION: setting,
  ...BOTH_ENVIRONMENTS_SETTINGS,
});

const build = async () => {
  const config = PortalConfig.parse(process.env) as Record<string, string> & z.infer<typeof PortalConfig>;
  const origin = config.PORTAL_URL.replace(/\/+$/, '');
  const secrets = new SecretsManagerClient({});
  const secret = await secrets.send(new GetSecretValueCommand({ SecretId: config.PORTAL_CLIENT_SECRET_ARN }));
  if (!secret.SecretString) throw new Error("the portal's client secret has no value");
  const dynamo = createDocumentClient();
  const table = config.IDENTITY_TABLE_NAME;
  const clock = systemClock();
  return portalApp({
    origin,
    cookies: { secure: true },
    core: {
      directory: composeDirectory(dynamo, table),
      environments: await bothEnvironments(config, dynamo, config.AWS_REGION),
      grants: translatingFaults(new DynamoDbClientGrants(dynamo, table, clock)),
      portalClientId: PORTAL_CLIENT_ID,
      frameUrls: { sandbox: config.SANDBOX_FRAME_URL, production: config.PRODUCTION_FRAME_URL },
    },
    sessions: translatingFaults(new DynamoDbPortalSessionStore(dynamo, table, clock)),
    signIn: new PortalSignIn({
      issuer: config.IDENTITY_ISSUER.replace(/\/+$/, ''),
      clientId: PORTAL_CLIENT_ID,
      clientSecret: secret.SecretString,
      redirectUri: portalRedirectUri(origin),
      postLogoutRedirectUri: `${origin}/`,
    }),
    clock,
    // CloudFront serves the built files from S3; only `/api/*` and `/auth/*` reach this function.
    files: new Map(),
  });
};

const portal = builtOnFirstUse(() =>
  build().catch((error: unknown) => {
    throw translateFault(error);
  }),
);

/** A portal's backend (built on first use) behind the one Lambda adapter. */
export const portalLambda = (app: () => Promise<PortalApp>) => lambdaHandler(portalFetch(app));

/** The deployed portal's backend. */
export const portalHandler = portalLambda(portal);
