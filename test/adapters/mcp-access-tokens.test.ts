// adapters -> the MCP server's check of a bearer token (lambdas/mcp/access-tokens.ts) with real keys and
// the identity provider's real grants in DynamoDB Local: what it accepts, and each refusal
// (expired, another audience or issuer, another key, not an RFC 9068 token, no `mcp` scope, a /v1
// access token, a token whose grant is gone).
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, test } from '@jest/globals';
import { createLocalJWKSet, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { oidcLiveGrants } from '../../lambdas/adapters/dynamodb/oidc-live-grants';
import { oidcProviderStorage } from '../../lambdas/adapters/dynamodb/oidc-provider-storage';
import { es256TokenIssuer, localEs256Signer } from '../../lambdas/adapters/es256-access-tokens';
import { systemClock } from '../../lambdas/adapters/system-clock';
import { DependencyUnavailable } from '../../lambdas/core/errors';
import { checkAccessToken, remoteKeys } from '../../lambdas/mcp/access-tokens';
import { useTestDynamoDb } from '../support/dynamodb-local';

const db = useTestDynamoDb();

const ISSUER = 'http://127.0.0.1:3007';
const RESOURCE = 'http://127.0.0.1:3000/mcp';

const setUp = async () => {
  const tableName = await db.freshTable();
  const clock = systemClock();
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const other = await generateKeyPair('RS256');
  const publicJwk = { ...(await exportJWK(publicKey)), kid: 'provider', alg: 'RS256' };
  const settings = { issuer: ISSUER, resource: RESOURCE, keys: createLocalJWKSet({ keys: [publicJwk] }) };
  const grantStore = oidcProviderStorage(db.doc, tableName, clock)('Grant');
  const grants = oidcLiveGrants(db.doc, tableName, clock);
  let count = 0;
  /** A token as the provider issues one, on record unless `recorded` is false. */
  const sign = async (
    claims: JWTPayload = {},
    {
      typ = 'at+jwt',
      key = privateKey,
      recorded = true,
    }: { typ?: string; key?: CryptoKey; recorded?: boolean } = {},
  ) => {
    count += 1;
    const grantId = `grant${count}`;
    const now = Math.floor(Date.now() / 1000);
    if (recorded)
      await grantStore.upsert(grantId, { accountId: 'per_maria', clientId: 'agent', kind: 'Grant' }, 900);
    return new SignJWT({
      iss: ISSUER,
      aud: RESOURCE,
      sub: 'per_maria',
      iat: now,
      exp: now + 900,
      scope: 'mcp',
      client_id: 'agent',
      jti: `token${count}`,
      grant_id: grantId,
      ...claims,
    })
      .setProtectedHeader({ alg: 'RS256', typ, kid: 'provider' })
      .sign(key);
  };
  return { check: (token: string) => checkAccessToken(settings, grants, token), sign, grantStore, other };
};

describe('checkAccessToken', () => {
  test('accepts a token of the provider for exactly this server, with the mcp scope, on record', async () => {
    const { check, sign } = await setUp();
    const token = await sign();
    expect(await check(token)).toEqual({
      accepted: true,
      caller: {
        personId: 'per_maria',
        clientId: 'agent',
        scopes: ['mcp'],
        environments: [],
        expiresAt: expect.any(Number),
        token,
      },
    });
  });

  test.each<[string, unknown, string[]]>([
    ['both environments', ['production', 'sandbox'], ['sandbox', 'production']],
    ['the sandbox alone', ['sandbox'], ['sandbox']],
    ['none', [], []],
    ['names that are not environments, dropped', ['staging', 'sandbox', 7], ['sandbox']],
    ['a string rather than a list: none', 'production', []],
  ])('the environments claim names what the grant allows: %s', async (_, environments, allowed) => {
    const { check, sign } = await setUp();
    const checked = await check(await sign({ environments } as JWTPayload));
    expect(checked.accepted && checked.caller.environments).toEqual(allowed);
  });

  test.each<[string, JWTPayload]>([
    ["the other environment's MCP server", { aud: 'http://127.0.0.1:3001/mcp' }],
    ['several audiences, this one among them', { aud: [RESOURCE, 'http://127.0.0.1:3001/mcp'] }],
    ['another issuer', { iss: 'http://127.0.0.1:9999' }],
    ['no mcp scope', { scope: 'openid email' }],
    ['a subject that is not a person', { sub: 'agent' }],
  ])('refuses a token with %s', async (_, claims) => {
    const { check, sign } = await setUp();
    expect(await check(await sign(claims))).toEqual({ accepted: false, reason: 'invalid' });
  });

  test('refuses an expired token as expired', async () => {
    const { check, sign } = await setUp();
    const past = Math.floor(Date.now() / 1000) - 60;
    expect(await check(await sign({ exp: past, iat: past - 900 }))).toEqual({
      accepted: false,
      reason: 'expired',
    });
  });

  test('refuses a token signed with another key, or not typed as an access token', async () => {
    const { check, sign, other } = await setUp();
    expect(await check(await sign({}, { key: other.privateKey }))).toEqual({
      accepted: false,
      reason: 'invalid',
    });
    expect(await check(await sign({}, { typ: 'JWT' }))).toEqual({ accepted: false, reason: 'invalid' });
    expect(await check('not a token')).toEqual({ accepted: false, reason: 'invalid' });
  });

  test("refuses the API's own /v1 access token", async () => {
    const { check } = await setUp();
    const v1 = es256TokenIssuer(
      'production',
      localEs256Signer(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey),
    );
    const { token } = await v1.issue({
      organisationId: 'org_a',
      integrationId: 'int_a',
      environment: 'production',
      apiKeyId: 'key_a',
    });
    expect(await check(token)).toEqual({ accepted: false, reason: 'invalid' });
  });

  test('refuses a token whose grant the provider no longer has (revoked), at once, or of another person or client', async () => {
    const { check, sign, grantStore } = await setUp();
    const token = await sign();
    expect((await check(token)).accepted).toBe(true);
    await grantStore.destroy('grant1');
    expect(await check(token)).toEqual({ accepted: false, reason: 'revoked' });
    expect(await check(await sign({}, { recorded: false }))).toEqual({ accepted: false, reason: 'revoked' });
    expect(await check(await sign({ sub: 'per_other' }))).toEqual({ accepted: false, reason: 'revoked' });
    expect(await check(await sign({ client_id: 'another-agent' }))).toEqual({
      accepted: false,
      reason: 'revoked',
    });
  });

  test("gives no verdict while the provider's keys cannot be fetched: the dependency is unavailable", async () => {
    const { sign } = await setUp();
    const unreachable = { issuer: ISSUER, resource: RESOURCE, keys: remoteKeys('http://127.0.0.1:1/jwks') };
    const grants = oidcLiveGrants(db.doc, await db.freshTable(), systemClock());
    await expect(checkAccessToken(unreachable, grants, await sign())).rejects.toBeInstanceOf(
      DependencyUnavailable,
    );
  });
});
