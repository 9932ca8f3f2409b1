// local -> the back office on the local stack (offset 8, decisions.md §9 and §11): its backend over Node
// HTTP, signing staff in at the local identity provider as the client `back_office` (its secret under
// DATA_DIR/keys), with sessions of its own in the identity table of DynamoDB Local (never the portal's),
// the staff and organisations of the identity, and each environment's ports; its pages built at start.
import type { RequestListener } from 'node:http';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { buildBackOfficeAssets } from '../frontend/back-office/build';
import { DynamoDbPortalSessionStore } from '../lambdas/adapters/dynamodb/portal-session-store';
import { LOCAL_IDENTITY_TABLE } from '../lambdas/adapters/dynamodb/table-schema';
import { systemClock } from '../lambdas/adapters/system-clock';
import { translatingFaults } from '../lambdas/adapters/unavailable';
import { appFiles } from '../lambdas/api/http/served-files';
import { backOfficeApp } from '../lambdas/back-office/app';
import type { Environment } from '../lambdas/core/model';
import type { Services } from '../lambdas/core/services';
import { nodeListener } from '../lambdas/hosts/http/node-adapter';
import { PortalSignIn } from '../lambdas/portal/sign-in';
import { type LocalConfig, localUrl, PORT_OFFSETS } from './config';
import {
  BACK_OFFICE_CLIENT_ID,
  localBackOfficeClientSecret,
  localBackOfficeRedirectUri,
} from './identity-provider';
import { localDirectory } from './wiring';

/** The back office's listener, over the identity table (which must exist) and each environment's services. */
export const localBackOffice = async (
  config: LocalConfig,
  dynamo: DynamoDBDocumentClient,
  environments: Readonly<Record<Environment, Services>>,
): Promise<RequestListener> => {
  const clock = systemClock();
  const origin = localUrl(config, PORT_OFFSETS.backOffice);
  const app = backOfficeApp({
    origin,
    cookies: { secure: false },
    core: {
      directory: localDirectory(dynamo),
      environments: { sandbox: environments.sandbox.ports, production: environments.production.ports },
    },
    sessions: translatingFaults(
      new DynamoDbPortalSessionStore(dynamo, LOCAL_IDENTITY_TABLE, clock, 'back_office'),
    ),
    signIn: new PortalSignIn({
      issuer: localUrl(config, PORT_OFFSETS.identityProvider),
      clientId: BACK_OFFICE_CLIENT_ID,
      clientSecret: await localBackOfficeClientSecret(config.dataDir),
      redirectUri: localBackOfficeRedirectUri(config),
      postLogoutRedirectUri: `${origin}/`,
    }),
    clock,
    files: appFiles(await buildBackOfficeAssets()),
  });
  return nodeListener(app.fetch);
};
