// adapter -> the access-tokens port: HS256 JWTs signed with jose, one key per environment (a key file
// locally, a Secrets Manager secret deployed). A token of the other environment is told apart by its
// claims only after its signature failed here, so nothing is trusted from it.
import { decodeJwt, errors, jwtVerify, SignJWT } from 'jose';
import type { Environment } from '../core/model';
import type { AccessTokenCheck, AccessTokenClaims, AccessTokens } from '../core/ports';

export const ACCESS_TOKEN_SECONDS = 900;
const VERIFIED_CAPACITY = 10_000;

const issuerOf = (environment: Environment) => `https://service/${environment}`;
const AUDIENCE = 'service-api';

export const joseAccessTokens = (environment: Environment, key: Uint8Array): AccessTokens => {
  if (key.length < 32) throw new Error('the access-token signing key must be at least 32 bytes');
  // Tokens whose signature was checked, until they expire: a client sends one token with every call for
  // 15 minutes, and checking an HMAC through WebCrypto each time is most of a cheap request's cost.
  const verified = new Map<string, { claims: AccessTokenClaims; expiresAt: number }>();
  const remember = (token: string, claims: AccessTokenClaims, expiresAt: number) => {
    if (verified.size >= VERIFIED_CAPACITY) verified.delete(verified.keys().next().value as string);
    verified.set(token, { claims, expiresAt });
  };
  return {
    issue: async (claims: AccessTokenClaims) => {
      const token = await new SignJWT({
        org: claims.organisationId,
        env: claims.environment,
        key: claims.apiKeyId,
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.integrationId)
        .setIssuer(issuerOf(environment))
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${ACCESS_TOKEN_SECONDS}s`)
        .sign(key);
      return { token, expiresIn: ACCESS_TOKEN_SECONDS };
    },
    verify: async (token: string): Promise<AccessTokenCheck> => {
      const known = verified.get(token);
      if (known) {
        if (Date.now() < known.expiresAt) return { valid: true, claims: known.claims };
        verified.delete(token);
        return { valid: false, reason: 'expired' };
      }
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: issuerOf(environment),
          audience: AUDIENCE,
          algorithms: ['HS256'],
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
