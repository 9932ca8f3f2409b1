// local -> the identity provider on the local stack (offset 7): its state and the people in the identity
// table of DynamoDB Local, and its keys made once under DATA_DIR/keys (the signing JWKS, the cookie key,
// the portal's and the back office's client secrets), so that a restart keeps registered clients, sessions, grants and tokens.
// The operator tool reaches the same people through `localDirectory` (local/wiring.ts).
import { randomBytes } from 'node:crypto';
import type { RequestListener } from 'node:http';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { JWK } from 'oidc-provider';
import { peopleServicesOver } from '../lambdas/adapters/compose';
import {
  DynamoDbClientGrants,
  oidcProviderStorage,
} from '../lambdas/adapters/dynamodb/oidc-provider-storage';
import { LOCAL_IDENTITY_TABLE } from '../lambdas/adapters/dynamodb/table-schema';
import { systemClock } from '../lambdas/adapters/system-clock';
import { translatingFaults } from '../lambdas/adapters/unavailable';
import { ENVIRONMENTS } from '../lambdas/core/model';
import { mcpServerUrl } from '../lambdas/core/settings';
import { backOfficeClient, backOfficeRedirectUri } from '../lambdas/identity-provider/back-office-client';
import { identityProviderListener } from '../lambdas/identity-provider/listener';
import { portalClient, portalRedirectUri } from '../lambdas/identity-provider/portal-client';
import { createIdentityProvider } from '../lambdas/identity-provider/provider';
import type {
  IdentityProviderServices,
  IdentityProviderSettings,
} from '../lambdas/identity-provider/settings';
import { newSigningJwks } from '../lambdas/identity-provider/signing-keys';
import { LOCAL_PASSWORD_COST, type LocalConfig, localUrl, PORT_OFFSETS } from './config';
import { keyText, localBaseUrls } from './wiring';

export { BACK_OFFICE_CLIENT_ID } from '../lambdas/identity-provider/back-office-client';
export { PORTAL_CLIENT_ID } from '../lambdas/identity-provider/portal-client';

/** Where the portal's sign-in returns (the portal host, offset 6). */
export const localPortalRedirectUri = (config: LocalConfig): string =>
  portalRedirectUri(localUrl(config, PORT_OFFSETS.portal));

/** The portal's client secret at the identity provider, made once; the portal's host reads the same file. */
export const localPortalClientSecret = (dataDir: string): Promise<string> =>
  keyText(dataDir, 'portal-client-secret', () => randomBytes(32).toString('base64url'));

/** Where the back office's sign-in returns (the back office host, offset 8). */
export const localBackOfficeRedirectUri = (config: LocalConfig): string =>
  backOfficeRedirectUri(localUrl(config, PORT_OFFSETS.backOffice));

/** The back office's client secret at the identity provider, made once; its host reads the same file. */
export const localBackOfficeClientSecret = (dataDir: string): Promise<string> =>
  keyText(dataDir, 'back-office-client-secret', () => randomBytes(32).toString('base64url'));

const localSettings = async (config: LocalConfig): Promise<IdentityProviderSettings> => {
  const baseUrls = localBaseUrls(config);
  const jwks = JSON.parse(await keyText(config.dataDir, 'identity-provider-jwks.json', newSigningJwks)) as {
    keys: JWK[];
  };
  const portal = localUrl(config, PORT_OFFSETS.portal);
  return {
    issuer: localUrl(config, PORT_OFFSETS.identityProvider),
    mcpResources: ENVIRONMENTS.map((environment) => ({
      indicator: mcpServerUrl(baseUrls[environment]),
      environment,
    })),
    portal: portalClient(portal, await localPortalClientSecret(config.dataDir)),
    backOffice: backOfficeClient(
      localUrl(config, PORT_OFFSETS.backOffice),
      await localBackOfficeClientSecret(config.dataDir),
    ),
    signingKeys: jwks.keys,
    cookieKeys: [
      await keyText(config.dataDir, 'identity-provider-cookies.key', () =>
        randomBytes(32).toString('base64url'),
      ),
    ],
    behindProxy: false,
  };
};

const localServices = (config: LocalConfig, dynamo: DynamoDBDocumentClient): IdentityProviderServices => {
  const clock = systemClock();
  const people = peopleServicesOver(dynamo, LOCAL_IDENTITY_TABLE, clock, {
    rateLimits: config.rateLimits,
    passwordCost: LOCAL_PASSWORD_COST,
  });
  return {
    storage: oidcProviderStorage(dynamo, LOCAL_IDENTITY_TABLE, clock),
    grants: translatingFaults(new DynamoDbClientGrants(dynamo, LOCAL_IDENTITY_TABLE, clock)),
    people,
  };
};

/** The identity provider's listener for the local stack, over the identity table (which must exist). */
export const localIdentityProvider = async (
  config: LocalConfig,
  dynamo: DynamoDBDocumentClient,
): Promise<RequestListener> => {
  const settings = await localSettings(config);
  const services = localServices(config, dynamo);
  return identityProviderListener(createIdentityProvider(settings, services), services.people, settings);
};
