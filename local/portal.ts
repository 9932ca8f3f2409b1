// local -> the developer portal on the local stack (offset 6): its built pages and its backend over Node
// HTTP, signing people in at the local identity provider as the client `portal` (its secret under
// DATA_DIR/keys), with sessions in the identity table of DynamoDB Local, and each environment's services.
import type { RequestListener } from 'node:http';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { buildPortalAssets } from '../frontend/portal/build';
import { DynamoDbClientGrants } from '../lambdas/adapters/dynamodb/oidc-provider-storage';
import { DynamoDbPortalSessionStore } from '../lambdas/adapters/dynamodb/portal-session-store';
import { LOCAL_IDENTITY_TABLE } from '../lambdas/adapters/dynamodb/table-schema';
import { systemClock } from '../lambdas/adapters/system-clock';
import { translatingFaults } from '../lambdas/adapters/unavailable';
import { appFiles } from '../lambdas/api/http/served-files';
import type { Environment } from '../lambdas/core/model';
import type { Services } from '../lambdas/core/services';
import { nodeListener } from '../lambdas/hosts/http/node-adapter';
import { portalApp } from '../lambdas/portal/app';
import { portalFetch } from '../lambdas/portal/http';
import { PortalSignIn } from '../lambdas/portal/sign-in';
import { type LocalConfig, localUrl, PORT_OFFSETS } from './config';
import { localPortalClientSecret, localPortalRedirectUri, PORTAL_CLIENT_ID } from './identity-provider';
import { localDirectory, localFrameUrls } from './wiring';

/** The portal's listener, over the identity table (which must exist) and each environment's services. */
export const localPortal = async (
  config: LocalConfig,
  dynamo: DynamoDBDocumentClient,
  environments: Readonly<Record<Environment, Services>>,
): Promise<RequestListener> => {
  const clock = systemClock();
  const origin = localUrl(config, PORT_OFFSETS.portal);
  const app = portalApp({
    origin,
    cookies: { secure: false },
    core: {
      directory: localDirectory(dynamo),
      environments,
      grants: translatingFaults(new DynamoDbClientGrants(dynamo, LOCAL_IDENTITY_TABLE, clock)),
      portalClientId: PORTAL_CLIENT_ID,
      frameUrls: localFrameUrls(config),
    },
    sessions: translatingFaults(new DynamoDbPortalSessionStore(dynamo, LOCAL_IDENTITY_TABLE, clock)),
    signIn: new PortalSignIn({
      issuer: localUrl(config, PORT_OFFSETS.identityProvider),
      clientId: PORTAL_CLIENT_ID,
      clientSecret: await localPortalClientSecret(config.dataDir),
      redirectUri: localPortalRedirectUri(config),
      postLogoutRedirectUri: `${origin}/`,
    }),
    clock,
    files: appFiles(await buildPortalAssets()),
  });
  return nodeListener(portalFetch(async () => app));
};
