// adapter -> the access-token ports: ES256 JWTs, one P-256 key pair per environment (a key file locally,
// a KMS key deployed). The issuer builds the JWT and hands its signing input to a signer, the only part
// that touches the private key (kms-token-signer.ts, or the local key); the verifier holds the public key
// alone, so a function that checks tokens cannot make one. A token of the other environment is told apart
// by its claims only after its signature failed here, so nothing is trusted from it.
import { type KeyObject, sign as signWithKey } from 'node:crypto';
import { base64url, decodeJwt, errors, jwtVerify } from 'jose';
import type { Environment } from '../core/model';
import type { AccessTokenCheck, AccessTokenClaims, TokenIssuer, TokenVerifier } from '../core/ports';

export const ACCESS_TOKEN_SECONDS = 900;
const VERIFIED_CAPACITY = 10_000;

const issuerOf = (environment: Environment) => `https://service/${environment}`;
const AUDIENCE = 'service-api';

/**
 * Signs a JWS signing input (`header.payload`, ASCII) with ECDSA P-256 over SHA-256; answers the JWS
 * signature: base64url of the raw r||s (64 bytes), as RFC 7518 §3.4 has it.
 */
export type Es256Signer = (signingInput: string) => Promise<string>;

/** A signer over a private key this process holds: the local stack's (Node signs r||s when asked). */
export const localEs256Signer =
  (privateKey: KeyObject): Es256Signer =>
  async (signingInput) =>
    signWithKey('sha256', Buffer.from(signingInput, 'ascii'), {
      key: privateKey,
      dsaEncoding: 'ieee-p1363',
    }).toString('base64url');

const encodedJson = (value: object): string => base64url.encode(JSON.stringify(value));

export const es256TokenIssuer = (environment: Environment, sign: Es256Signer): TokenIssuer => ({
  issue: async (claims: AccessTokenClaims) => {
    const issuedAt = Math.floor(Date.now() / 1000);
    const signingInput = `${encodedJson({ alg: 'ES256', typ: 'JWT' })}.${encodedJson({
      org: claims.organisationId,
      env: claims.environment,
      key: claims.apiKeyId,
      sub: claims.integrationId,
      iss: issuerOf(environment),
      aud: AUDIENCE,
      iat: issuedAt,
      exp: issuedAt + ACCESS_TOKEN_SECONDS,
    })}`;
    return { token: `${signingInput}.${await sign(signingInput)}`, expiresIn: ACCESS_TOKEN_SECONDS };
  },
});

export const es256TokenVerifier = (environment: Environment, publicKey: KeyObject): TokenVerifier => {
  if (publicKey.type !== 'public' || publicKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
    throw new Error('the access-token verifier needs a P-256 public key');
  // Tokens whose signature was checked, until they expire: a client sends one token with every call for
  // 15 minutes, and checking an ECDSA signature each time is most of a cheap request's cost.
  const verified = new Map<string, { claims: AccessTokenClaims; expiresAt: number }>();
  const remember = (token: string, claims: AccessTokenClaims, expiresAt: number) => {
    if (verified.size >= VERIFIED_CAPACITY) verified.delete(verified.keys().next().value as string);
    verified.set(token, { claims, expiresAt });
  };
  return {
    verify: async (token: string): Promise<AccessTokenCheck> => {
      const known = verified.get(token);
      if (known) {
        if (Date.now() < known.expiresAt) return { valid: true, claims: known.claims };
        verified.delete(token);
        return { valid: false, reason: 'expired' };
      }
      try {
        const { payload } = await jwtVerify(token, publicKey, {
          issuer: issuerOf(environment),
          audience: AUDIENCE,
          algorithms: ['ES256'],
        });
        const { sub, org, env, key: apiKeyId } = payload;
        if (
          typeof sub !== 'string' ||
          typeof org !== 'string' ||
          env !== environment ||
          typeof apiKeyId !== 'string'
        ) {
          return { valid: false, reason: 'invalid' };
        }
        const claims = { organisationId: org, integrationId: sub, environment, apiKeyId };
        remember(token, claims, (payload.exp ?? 0) * 1000);
        return { valid: true, claims };
      } catch (error) {
        if (error instanceof errors.JWTExpired) return { valid: false, reason: 'expired' };
        return {
          valid: false,
          reason: belongsElsewhere(token, environment) ? 'wrong_environment' : 'invalid',
        };
      }
    },
  };
};

const belongsElsewhere = (token: string, environment: Environment): boolean => {
  try {
    const other: Environment = environment === 'sandbox' ? 'production' : 'sandbox';
    const payload = decodeJwt(token);
    return payload.iss === issuerOf(other) && payload.env === other;
  } catch {
    return false;
  }
};
