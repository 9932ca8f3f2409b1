// core -> who is calling: API keys exchanged for access tokens (`POST /v1/token`), access tokens checked
// on every other call, and the rate limits of decisions.md §4.
import { createHash } from 'node:crypto';
import { type ErrorCode, fail, isServiceError, ServiceError } from './errors';
import type { TokenJson } from './interface-schemas';
import type { ApiKeyRecord, Environment, Micros, Scope } from './model';
import type { Ports } from './ports';
import type { Settings } from './settings';
import { SECOND } from './time';

export const API_KEY_PREFIX: Readonly<Record<Environment, string>> = {
  sandbox: 'svc_test_',
  production: 'svc_live_',
};
const API_KEY = /^svc_(test|live)_[A-Za-z0-9]{32,128}$/;

export const hashSecret = (secret: string): string =>
  createHash('sha256').update(secret, 'utf8').digest('hex');

const otherEnvironment = (environment: Environment): Environment =>
  environment === 'sandbox' ? 'production' : 'sandbox';

const unauthorized = (code: ErrorCode, message: string, tokenSent: boolean): ServiceError =>
  new ServiceError(code, message, {
    headers: {
      'WWW-Authenticate': tokenSent
        ? 'Bearer realm="service", error="invalid_token"'
        : 'Bearer realm="service"',
    },
  });

const wrongEnvironment = (settings: Settings, what: string, tokenSent: boolean): ServiceError => {
  const right = otherEnvironment(settings.environment);
  return unauthorized(
    'wrong_environment',
    `This ${what} belongs to the ${right} environment; send it to ${settings.baseUrls[right]}.`,
    tokenSent,
  );
};

/**
 * A call's credential as sent, and whom to tell once it is accepted: the request, so that the call is
 * recorded in its caller's request history (decisions.md §10) whatever its answer, a 429 included. A
 * refused credential tells no one, and is not recorded.
 */
export interface CallCredential {
  /** The `Authorization` header as sent. */
  readonly authorization: string | undefined;
  /** Told the caller once its credential is accepted, before the rate limit is applied. */
  accept(caller: Scope): void;
}

/** The credential of `Authorization: Bearer <credential>`, or `authentication_required`. */
export const bearerCredential = (authorization: string | undefined): string => {
  const match = /^Bearer +(\S+)\s*$/i.exec(authorization ?? '');
  if (!match?.[1]) {
    throw unauthorized(
      'authentication_required',
      'Send `Authorization: Bearer <credential>`: an API key to POST /v1/token, an access token elsewhere.',
      false,
    );
  }
  return match[1];
};

/** `POST /v1/token`: an API key of this environment for a 15-minute access token. */
export const exchangeApiKey = async (
  ports: Pick<Ports, 'apiKeys' | 'clock' | 'rateLimiter' | 'tokenIssuer'>,
  settings: Settings,
  call: CallCredential,
): Promise<TokenJson> => {
  const credential = bearerCredential(call.authorization);
  const other = API_KEY_PREFIX[otherEnvironment(settings.environment)];
  if (credential.startsWith(other)) throw wrongEnvironment(settings, 'API key', true);
  const refused = () =>
    unauthorized('api_key_invalid', 'The API key is unknown or revoked; create a key in the portal.', true);
  if (!API_KEY.test(credential) || !credential.startsWith(API_KEY_PREFIX[settings.environment]))
    throw refused();
  const key = await ports.apiKeys.findApiKeyByHash(hashSecret(credential));
  if (key === null || key.revokedAt !== null || key.environment !== settings.environment) throw refused();
  call.accept({
    organisationId: key.organisationId,
    integrationId: key.integrationId,
    environment: key.environment,
  });
  await enforceRate(ports, settings, `key#${key.id}`, TOKEN_RATE_PER_SECOND, TOKEN_BURST);
  await ports.apiKeys.markApiKeyUsed(key.id, ports.clock.now());
  const issued = await ports.tokenIssuer.issue({
    organisationId: key.organisationId,
    integrationId: key.integrationId,
    environment: key.environment,
    apiKeyId: key.id,
  });
  return {
    access_token: issued.token,
    token_type: 'Bearer',
    expires_in: issued.expiresIn,
    environment: settings.environment,
  };
};

/** How long a key's status is trusted before it is read again: a revoked key's tokens stop within 60 s. */
const KEY_STATUS_TTL: Micros = 30 * SECOND;
const keyStatus = new Map<string, { key: ApiKeyRecord | null; readAt: Micros }>();

const currentKey = async (
  ports: Pick<Ports, 'apiKeys' | 'clock'>,
  apiKeyId: string,
): Promise<ApiKeyRecord | null> => {
  const now = ports.clock.now();
  const cached = keyStatus.get(apiKeyId);
  if (cached && now - cached.readAt < KEY_STATUS_TTL) return cached.key;
  const key = await ports.apiKeys.getApiKey(apiKeyId);
  keyStatus.set(apiKeyId, { key, readAt: now });
  return key;
};

/** The caller's scope from a valid access token of this environment whose key is not revoked, or its 401. */
const verifyAccessToken = async (
  ports: Pick<Ports, 'apiKeys' | 'clock' | 'tokenVerifier'>,
  settings: Settings,
  credential: string,
): Promise<Scope> => {
  if (credential.startsWith('svc_')) {
    throw unauthorized(
      'token_invalid',
      'API keys are accepted only by POST /v1/token; exchange it there for an access token.',
      true,
    );
  }
  const check = await ports.tokenVerifier.verify(credential);
  if (!check.valid) {
    if (check.reason === 'wrong_environment') throw wrongEnvironment(settings, 'access token', true);
    if (check.reason === 'expired')
      throw unauthorized(
        'token_expired',
        'The access token has expired; exchange your API key at POST /v1/token again.',
        true,
      );
    throw unauthorized(
      'token_invalid',
      'The access token is not valid; exchange your API key at POST /v1/token for a new one.',
      true,
    );
  }
  const { claims } = check;
  const key = await currentKey(ports, claims.apiKeyId);
  if (key === null || key.revokedAt !== null) {
    throw unauthorized(
      'token_invalid',
      'The API key behind this access token was revoked; use another key.',
      true,
    );
  }
  return {
    organisationId: claims.organisationId,
    integrationId: claims.integrationId,
    environment: claims.environment,
  };
};

/**
 * Production uploads (first sends and new versions) per integration, every attempt counted: 120 an hour
 * with bursts of 30. Every organisation's contracts are rendered from one queue per environment, so one
 * integration's burst of large PDFs waits at its own client rather than in front of everyone's
 * (issue 26). The sandbox has its budget instead.
 */
export const PRODUCTION_UPLOADS = { perHour: 120, burst: 30 } as const;

/** The upload endpoints' quota, after `authenticate` and before the upload is read. */
export const enforceUploadQuota = async (
  ports: Pick<Ports, 'rateLimiter'>,
  settings: Settings,
  scope: Scope,
): Promise<void> => {
  if (settings.environment !== 'production') return;
  const { perHour, burst } = PRODUCTION_UPLOADS;
  await enforceRate(ports, settings, `uploads#${scope.integrationId}`, perHour / 3600, burst, 'uploads');
};

/** Every endpoint but `POST /v1/token`: the caller's scope from a valid access token, within its rate limit. */
export const authenticate = async (
  ports: Pick<Ports, 'apiKeys' | 'clock' | 'rateLimiter' | 'tokenVerifier'>,
  settings: Settings,
  call: CallCredential,
): Promise<Scope> => {
  const scope = await verifyAccessToken(ports, settings, bearerCredential(call.authorization));
  call.accept(scope);
  const rate = REQUESTS_PER_SECOND[settings.environment];
  await enforceRate(ports, settings, `int#${scope.integrationId}`, rate, 2 * rate);
  return scope;
};

/**
 * A call that needs no credential (an unknown `/v1` path): its caller, when it sent a valid access token,
 * is told to `call` like any other's, so that the call is recorded as theirs. Nothing is refused and no
 * rate is taken; null when no valid access token was sent.
 */
export const identifyCaller = async (
  ports: Pick<Ports, 'apiKeys' | 'clock' | 'tokenVerifier'>,
  settings: Settings,
  call: CallCredential,
): Promise<Scope | null> => {
  try {
    const scope = await verifyAccessToken(ports, settings, bearerCredential(call.authorization));
    call.accept(scope);
    return scope;
  } catch (error) {
    if (isServiceError(error)) return null;
    throw error;
  }
};

/** decisions.md §4: per integration; bursts of twice the rate. */
export const REQUESTS_PER_SECOND: Readonly<Record<Environment, number>> = { production: 100, sandbox: 25 };
/** decisions.md §4: `POST /v1/token`, per key. */
const TOKEN_RATE_PER_SECOND = 10 / 60;
const TOKEN_BURST = 10;

/** Takes one from `bucket` when limits are on; over it, `429 rate_limited` with `Retry-After`. */
export const enforceRate = async (
  ports: Pick<Ports, 'rateLimiter'>,
  settings: Settings,
  bucket: string,
  ratePerSecond: number,
  burst: number,
  what = 'requests',
) => {
  if (!settings.rateLimits) return;
  const result = await ports.rateLimiter.take(bucket, ratePerSecond, burst);
  if (!result.allowed) {
    fail('rate_limited', `Too many ${what}; retry after ${result.retryAfterSeconds} s.`, {
      headers: { 'Retry-After': String(result.retryAfterSeconds) },
    });
  }
};
