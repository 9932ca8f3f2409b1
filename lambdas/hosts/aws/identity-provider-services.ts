// host -> the composition root of the deployed identity provider (one function, behind its own CloudFront
// address): its state and the people in the identity table, its keys and the portal's client secret in
// Secrets Manager, and the MCP addresses of both environments as its resources. Configuration is read once
// from the environment and validated; the listener is built once per instance.
import type { RequestListener } from 'node:http';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import * as z from 'zod/mini';
import { composeDirectory } from '../../adapters/compose';
import { createDocumentClient } from '../../adapters/dynamodb';
import { DynamoDbClientGrants, oidcProviderStorage } from '../../adapters/dynamodb/oidc-provider-storage';
import { DynamoDbRateLimiter } from '../../adapters/dynamodb/rate-limiter';
import { randomIds } from '../../adapters/random-ids';
import { systemClock } from '../../adapters/system-clock';
import { translatingFaults } from '../../adapters/unavailable';
import { ENVIRONMENTS } from '../../core/model';
import { mcpServerUrl } from '../../core/settings';
import { identityProviderListener } from '../../identity-provider/listener';
import { portalClient } from '../../identity-provider/portal-client';
import { createIdentityProvider } from '../../identity-provider/provider';
import { setting } from './environment-services';
import { providerKeys } from './provider-keys';

const IdentityProviderConfig = z.object({
  /** The provider's own https address (its CloudFront distribution's domain). */
  IDENTITY_ISSUER: z.url(),
  IDENTITY_TABLE_NAME: setting,
  /** The portal's address: its sign-in returns to `{PORTAL_URL}/auth/callback`. */
  PORTAL_URL: z.url(),
  PORTAL_CLIENT_SECRET_ARN: setting,
  PROVIDER_KEYS_SECRET_ARN: setting,
  SANDBOX_BASE_URL: z.url(),
  PRODUCTION_BASE_URL: z.url(),
});

export const awsIdentityProvider = async (): Promise<RequestListener> => {
  const config = IdentityProviderConfig.parse(process.env);
  const secrets = new SecretsManagerClient({});
  const portalSecret = await secrets.send(
    new GetSecretValueCommand({ SecretId: config.PORTAL_CLIENT_SECRET_ARN }),
  );
  if (!portalSecret.SecretString) throw new Error("the portal's client secret has no value");
  const keys = await providerKeys(secrets, config.PROVIDER_KEYS_SECRET_ARN);
  const dynamo = createDocumentClient();
  const table = config.IDENTITY_TABLE_NAME;
  const clock = systemClock();
  const baseUrls = { sandbox: config.SANDBOX_BASE_URL, production: config.PRODUCTION_BASE_URL };
  const settings = {
    issuer: config.IDENTITY_ISSUER.replace(/\/+$/, ''),
    mcpResources: ENVIRONMENTS.map((environment) => ({
      indicator: mcpServerUrl(baseUrls[environment]),
      environment,
    })),
    portal: portalClient(config.PORTAL_URL.replace(/\/+$/, ''), portalSecret.SecretString),
    signingKeys: keys.signingKeys,
    cookieKeys: keys.cookieKeys,
    behindProxy: true,
  };
  const people = {
    people: composeDirectory(dynamo, table).people,
    ids: randomIds(),
    clock,
    rateLimiter: translatingFaults(new DynamoDbRateLimiter(dynamo, table, clock)),
    rateLimits: true,
  };
  const services = {
    storage: oidcProviderStorage(dynamo, table, clock),
    grants: translatingFaults(new DynamoDbClientGrants(dynamo, table, clock)),
    people,
  };
  return identityProviderListener(createIdentityProvider(settings, services), people, settings);
};
