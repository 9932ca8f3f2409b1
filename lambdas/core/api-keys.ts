// core -> an integration's API keys in one environment (decisions.md §10): made with a name, the key shown
// once and only its hash kept; listed without the key; revoked, after which `POST /v1/token` refuses it at
// once and its access tokens stop within 60 s (auth.ts reads a key's status at most 30 s old). The
// operator tool calls these today, the portal and the MCP server will.
import { API_KEY_PREFIX, hashSecret } from './auth';
import { fail, notFound } from './errors';
import type { ApiKeyRecord, Integration } from './model';
import type { Ports } from './ports';
import { isPrintableText } from './text';
import { formatTime, formatTimeOrNull } from './time';

/** Whose keys: an organisation's integration. Another organisation's ids answer `not_found`. */
export interface KeyOwner {
  organisationId: string;
  integrationId: string;
}

export const MAX_KEY_NAME_LENGTH = 100;

/** The characters after the environment prefix that a listing shows, to tell keys apart. */
const SHOWN_KEY_CHARACTERS = 4;

const readName = (name: string | undefined): string | null => {
  if (name === undefined) return null;
  const trimmed = name.trim();
  if (!isPrintableText(trimmed, MAX_KEY_NAME_LENGTH))
    fail(
      'request_invalid',
      `A key's name is 1 to ${MAX_KEY_NAME_LENGTH} characters without control characters, such as "Production server".`,
    );
  return trimmed;
};

const ownIntegration = async (ports: Ports, owner: KeyOwner): Promise<Integration> => {
  const integration = await ports.identity.getIntegration(owner.integrationId);
  if (integration === null || integration.organisationId !== owner.organisationId)
    throw notFound('integration');
  return integration;
};

/** A key as lists show it: never the key, never its hash. */
export const presentApiKey = (key: ApiKeyRecord) => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  environment: key.environment,
  integration_id: key.integrationId,
  created_at: formatTime(key.createdAt),
  last_used_at: formatTimeOrNull(key.lastUsedAt),
  revoked_at: formatTimeOrNull(key.revokedAt),
});

/** Makes a key for the owner's integration in this environment; `key` is the only time it is shown. */
export const createApiKey = async (ports: Ports, owner: KeyOwner, name?: string) => {
  const keyName = readName(name);
  const integration = await ownIntegration(ports, owner);
  const prefix = API_KEY_PREFIX[ports.environment];
  const key = ports.ids.secret(prefix);
  const record: ApiKeyRecord = {
    id: ports.ids.id('key'),
    organisationId: integration.organisationId,
    integrationId: integration.id,
    environment: ports.environment,
    hash: hashSecret(key),
    prefix: key.slice(0, prefix.length + SHOWN_KEY_CHARACTERS),
    name: keyName,
    createdAt: ports.clock.now(),
    lastUsedAt: null,
    revokedAt: null,
  };
  await ports.identity.putApiKey(record);
  return { ...presentApiKey(record), key };
};

/** The integration's keys in this environment, newest first, revoked ones included. */
export const listApiKeys = async (ports: Ports, owner: KeyOwner) => {
  await ownIntegration(ports, owner);
  const keys = await ports.identity.listApiKeys(owner.integrationId);
  return { data: keys.map(presentApiKey) };
};

/** Revokes one of the organisation's keys; revoking it again answers the first revocation. */
export const revokeApiKey = async (ports: Ports, organisationId: string, apiKeyId: string) => {
  const key = await ports.identity.getApiKey(apiKeyId);
  if (key === null || key.organisationId !== organisationId || key.environment !== ports.environment)
    throw notFound('API key');
  const revoked = await ports.identity.revokeApiKey(key.id, ports.clock.now());
  return { id: revoked.id, revoked_at: formatTimeOrNull(revoked.revokedAt) };
};
