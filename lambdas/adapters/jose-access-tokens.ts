// adapter -> the access-tokens port: HS256 JWTs signed with jose, one key per environment (a key file
// locally, a Secrets Manager secret deployed). A token of the other environment is told apart by its
// claims only after its signature failed here, so nothing is trusted from it.
import { decodeJwt, errors, jwtVerify, SignJWT } from 'jose';
import type { Environment } from '../core/model';
import type { AccessTokenCheck, AccessTokenClaims, AccessTokens } from '../core/ports';

export const ACCESS_TOKEN_SECONDS = 900;

const issuerOf = (environment: Environment) => `https://service/${environment}`;
const AUDIENCE = 'service-api';

export const joseAccessTokens = (environment: Environment, key: Uint8Array): AccessTokens => {
  if (key.length < 32) throw new Error('the access-token signing key must be at least 32 bytes');
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
        return { valid: true, claims: { organisationId: org, integrationId: sub, environment, apiKeyId } };
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
