// host -> the composition root of the deployed identity provider (one function, behind its own CloudFront
// address): its state and the people in the identity table, its keys and the portal's client secret in
// Secrets Manager, the Cognito user pool where people sign in (upstream.ts), and the MCP addresses of
// both environments as its resources. Configuration is read once
// from the environment and validated; the listener is built once per instance.
import type { RequestListener } from 'node:http';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { peopleServicesOver } from '../../adapters/compose';
import { createDocumentClient } from '../../adapters/dynamodb';
import { DynamoDbClientGrants, oidcProviderStorage } from '../../adapters/dynamodb/oidc-provider-storage';
import { systemClock } from '../../adapters/system-clock';
import { translatingFaults } from '../../adapters/unavailable';
import { ENVIRONMENTS } from '../../core/model';
import type { PeopleServices } from '../../core/people/accounts';
import type { Clock } from '../../core/ports';
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
  /** The Cognito user pool where people sign in (its issuer), and the provider's client there. */
  UPSTREAM_ISSUER: z.url(),
  UPSTREAM_CLIENT_ID: setting,
  UPSTREAM_CLIENT_SECRET_ARN: setting,
});

const secretText = async (secrets: SecretsManagerClient, secretId: string, what: string): Promise<string> => {
  const answer = await secrets.send(new GetSecretValueCommand({ SecretId: secretId }));
  if (!answer.SecretString) throw new Error(`${what} has no value`);
  return answer.SecretString;
};

/**
 * The people in the identity table, their sign-ups and sign-ins limited. No `passwordCost`: deployed
 * hashes are at the service's cost (SCRYPT_COST); only the local stack, whose passwords are published,
 * hashes cheaper (local/config.ts).
 */
export const awsPeopleServices = (
  dynamo: DynamoDBDocumentClient,
  table: string,
  clock: Clock,
): PeopleServices => peopleServicesOver(dynamo, table, clock, { rateLimits: true });

export const awsIdentityProvider = async (): Promise<RequestListener> => {
  const config = IdentityProviderConfig.parse(process.env);
  const secrets = new SecretsManagerClient({});
  const portalSecret = await secretText(
    secrets,
    config.PORTAL_CLIENT_SECRET_ARN,
    "the portal's client secret",
  );
  const upstreamSecret = await secretText(
    secrets,
    config.UPSTREAM_CLIENT_SECRET_ARN,
    'the upstream client secret',
  );
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
    portal: portalClient(config.PORTAL_URL.replace(/\/+$/, ''), portalSecret),
    signingKeys: keys.signingKeys,
    cookieKeys: keys.cookieKeys,
    behindProxy: true,
    upstream: {
      issuer: config.UPSTREAM_ISSUER,
      clientId: config.UPSTREAM_CLIENT_ID,
      clientSecret: upstreamSecret,
    },
  };
  const people = awsPeopleServices(dynamo, table, clock);
  const services = {
    storage: oidcProviderStorage(dynamo, table, clock),
    grants: translatingFaults(new DynamoDbClientGrants(dynamo, table, clock)),
    people,
  };
  return identityProviderListener(createIdentityProvider(settings, services), people, settings);
};
