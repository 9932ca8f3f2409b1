// core -> an integration's API keys in one environment (decisions.md §10): made with a name, the key shown
// once and only its hash kept; listed without the key; revoked, after which `POST /v1/token` refuses it at
// once and its access tokens stop within 60 s (auth.ts reads a key's status at most 30 s old). The
// operator tool, the portal and the MCP server call these.
import { API_KEY_PREFIX, hashSecret } from './auth';
import { notFound } from './errors';
import type { ApiKeyRecord, Scope } from './model';
import type { Ports } from './ports';
import type { ApiKeyJson, CreatedApiKeyJson, ListOf, RevokedApiKeyJson } from './shapes';
import { readName } from './text';
import { formatTime, formatTimeOrNull } from './time';

/** The characters after the environment prefix that a listing shows, to tell keys apart. */
const SHOWN_KEY_CHARACTERS = 4;

/** A scope of another environment is a fault of the caller's wiring, not of the person's input. */
const checkEnvironment = (ports: Pick<Ports, 'environment'>, scope: Scope): void => {
  if (scope.environment !== ports.environment)
    throw new Error(`a ${scope.environment} scope was given the ${ports.environment} environment's ports`);
};

/** A key as lists show it: never the key, never its hash. */
export const presentApiKey = (key: ApiKeyRecord): ApiKeyJson => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  environment: key.environment,
  integration_id: key.integrationId,
  created_at: formatTime(key.createdAt),
  last_used_at: formatTimeOrNull(key.lastUsedAt),
  revoked_at: formatTimeOrNull(key.revokedAt),
});

/**
 * Whom a key is made for: the integration in one environment (`integrationScope` checks a person's ids)
 * and its organisation's name (`keyHolder` reads it from the identity table).
 */
export type KeyHolder = Scope & { organisationName: string };

/**
 * Makes a key for the integration in this environment; `key` is the only time it is shown. The
 * organisation's name is copied to the environment first: its hosted pages name the sender, and every
 * contract the environment publishes was sent with a key made here.
 */
export const createApiKey = async (
  ports: Pick<Ports, 'apiKeys' | 'clock' | 'environment' | 'ids' | 'organisationNames'>,
  scope: KeyHolder,
  name?: string,
): Promise<CreatedApiKeyJson> => {
  checkEnvironment(ports, scope);
  const keyName = name === undefined ? null : readName(name, "A key's name", 'Production server');
  const prefix = API_KEY_PREFIX[ports.environment];
  const key = ports.ids.secret(prefix);
  const record: ApiKeyRecord = {
    id: ports.ids.id('key'),
    organisationId: scope.organisationId,
    integrationId: scope.integrationId,
    environment: scope.environment,
    hash: hashSecret(key),
    prefix: key.slice(0, prefix.length + SHOWN_KEY_CHARACTERS),
    name: keyName,
    createdAt: ports.clock.now(),
    lastUsedAt: null,
    revokedAt: null,
  };
  await ports.organisationNames.put(scope.organisationId, scope.organisationName);
  await ports.apiKeys.putApiKey(record);
  return { ...presentApiKey(record), key };
};

/** The integration's keys in this environment, newest first, revoked ones included. */
export const listApiKeys = async (
  ports: Pick<Ports, 'apiKeys' | 'environment'>,
  scope: Scope,
): Promise<ListOf<ApiKeyJson>> => {
  checkEnvironment(ports, scope);
  const keys = await ports.apiKeys.listApiKeys(scope.integrationId);
  return { data: keys.map(presentApiKey) };
};

/** Revokes one of the organisation's keys; revoking it again answers the first revocation. */
export const revokeApiKey = async (
  ports: Pick<Ports, 'apiKeys' | 'clock' | 'environment'>,
  organisationId: string,
  apiKeyId: string,
): Promise<RevokedApiKeyJson> => {
  const key = await ports.apiKeys.getApiKey(apiKeyId);
  if (key === null || key.organisationId !== organisationId || key.environment !== ports.environment)
    throw notFound('API key');
  const revoked = await ports.apiKeys.revokeApiKey(key.id, ports.clock.now());
  return { id: revoked.id, revoked_at: formatTimeOrNull(revoked.revokedAt) };
};
