// mcp -> who is calling the MCP server: its bearer token checked as the MCP authorization specification
// and decisions.md §10 say. A JWT access token (RFC 9068) from the service's identity provider, verified
// with jose against the provider's JWKS: RS256, type `at+jwt`, the provider as issuer, an expiry not
// passed, the audience exactly this server's `/mcp` address (a token for the other environment's
// server, or for any other resource, is refused), and the `mcp` scope. A `/v1` access token fails the
// signature (the API signs its own with HS256 under another issuer). Then the grant the token names must
// still be on record at the provider, the person's for this client: revoking the client deletes it.
// The token's `environments` claim names the environments the person let the client change (the
// consent page's checkboxes, held by the grant): a token without it may change none.
import { createRemoteJWKSet, errors, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { DependencyUnavailable } from '../core/errors';
import type { LiveGrants } from '../core/live-grants';
import { ENVIRONMENTS, type Environment } from '../core/model';

/** The one scope an MCP server's tokens carry (lambdas/identity-provider/resources.ts). */
export const MCP_SCOPE = 'mcp';

/** The person (and the client acting for them) a token was accepted for. */
export interface McpCaller {
  personId: string;
  clientId: string;
  scopes: readonly string[];
  /** The environments the person's grant lets the client change. */
  environments: readonly Environment[];
  /** Epoch seconds. */
  expiresAt: number;
  token: string;
}

export type TokenCheck =
  | { accepted: true; caller: McpCaller }
  | { accepted: false; reason: 'expired' | 'invalid' | 'revoked' };

export interface AccessTokenSettings {
  /** The identity provider's issuer identifier. */
  issuer: string;
  /** This MCP server's address, exactly: the audience its tokens carry. */
  resource: string;
  /** The provider's public keys; `createRemoteJWKSet` over its `jwks_uri` outside tests. */
  keys: JWTVerifyGetKey;
}

export const remoteKeys = (jwksUri: string): JWTVerifyGetKey => createRemoteJWKSet(new URL(jwksUri));

const PERSON_ID = /^per_[A-Za-z0-9]{1,64}$/;

export const checkAccessToken = async (
  settings: AccessTokenSettings,
  grants: LiveGrants,
  token: string,
): Promise<TokenCheck> => {
  let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
  try {
    ({ payload } = await jwtVerify(token, settings.keys, {
      issuer: settings.issuer,
      audience: settings.resource,
      algorithms: ['RS256'],
      typ: 'at+jwt',
      requiredClaims: ['exp', 'sub', 'client_id', 'grant_id'],
    }));
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { accepted: false, reason: 'expired' };
    // The provider's keys could not be fetched: no verdict on the token (503, not 401).
    if (error instanceof errors.JWKSTimeout || !(error instanceof errors.JOSEError))
      throw new DependencyUnavailable(error);
    // A key the provider does not serve, a bad signature, another issuer or audience, garbage.
    return { accepted: false, reason: 'invalid' };
  }
  // jose accepts an `aud` array that contains the resource; the token must be for this server alone.
  const { sub, client_id: clientId, grant_id: grantId, scope, exp, aud, environments: named } = payload;
  const scopes = typeof scope === 'string' ? scope.split(' ').filter(Boolean) : [];
  const environments = Array.isArray(named) ? ENVIRONMENTS.filter((e) => named.includes(e)) : [];
  if (
    aud !== settings.resource ||
    typeof sub !== 'string' ||
    !PERSON_ID.test(sub) ||
    typeof clientId !== 'string' ||
    typeof grantId !== 'string' ||
    typeof exp !== 'number' ||
    !scopes.includes(MCP_SCOPE)
  )
    return { accepted: false, reason: 'invalid' };
  if (!(await grants.isLive({ grantId, personId: sub, clientId })))
    return { accepted: false, reason: 'revoked' };
  return { accepted: true, caller: { personId: sub, clientId, scopes, environments, expiresAt: exp, token } };
};
