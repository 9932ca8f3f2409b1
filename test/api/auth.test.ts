// POST /v1/token and the access-token checks of every other endpoint, over HTTP against the local stack.
import { createPrivateKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { SignJWT } from 'jose';
import { bearer, call, exchange, expectError } from '../support/api-client';
import { devBootstrap, ops, type RunningStack } from '../support/local-stack';
import { useSharedStack } from '../support/shared-stacks';
import { createTenant, revokeKey } from '../support/tenants';

let stack: RunningStack;
let keys: { sandbox: string; production: string };

const token = (base: string, credential?: string) =>
  call(`${base}/v1/token`, { method: 'POST', headers: credential === undefined ? {} : bearer(credential) });

const list = (base: string, credential: string) =>
  call(`${base}/v1/contract-reviews`, { headers: bearer(credential) });

/** An access token signed with the environment's own private key file, with the claims given. */
const signed = async (
  environment: 'sandbox' | 'production',
  claims: Record<string, unknown>,
  expiresAt: number,
) => {
  const key = createPrivateKey(
    await readFile(path.join(stack.dataDir, 'keys', `${environment}-token-signing.pem`), 'utf8'),
  );
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
    .setIssuer(`https://service/${environment}`)
    .setAudience('service-api')
    .setSubject('int_localdev')
    .setIssuedAt(expiresAt - 900)
    .setExpirationTime(expiresAt)
    .sign(key);
};

useSharedStack(
  (started) => {
    stack = started;
  },
  { env: { RATE_LIMITS: 'off' } },
);

beforeAll(async () => {
  keys = (await devBootstrap(stack)).keys;
}, 120_000);

describe('POST /v1/token', () => {
  test('a key of this environment: 200 with a 15-minute Bearer JWT', async () => {
    for (const [environment, base] of [
      ['production', stack.production],
      ['sandbox', stack.sandbox],
    ] as const) {
      const answer = await token(base, keys[environment]);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        access_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
        token_type: 'Bearer',
        expires_in: 900,
        environment,
      });
      expect(Object.keys(answer.body)).toEqual(['access_token', 'token_type', 'expires_in', 'environment']);
      expect((await list(base, answer.body.access_token)).status).toBe(200);
    }
  });

  test('dev-bootstrap again: the same ids and fresh keys, the old ones still working', async () => {
    const again = await ops(stack, 'dev-bootstrap');
    expect(again.json).toMatchObject({ organisation_id: 'org_localdev', integration_id: 'int_localdev' });
    const fresh = again.json?.keys as typeof keys;
    expect(fresh.production).not.toBe(keys.production);
    expect(fresh.production).toMatch(/^svc_live_[A-Za-z0-9]{32,}$/);
    expect(fresh.sandbox).toMatch(/^svc_test_[A-Za-z0-9]{32,}$/);
    expect((await token(stack.production, fresh.production)).status).toBe(200);
    expect((await token(stack.production, keys.production)).status).toBe(200);
  });

  test.each([
    ['no Authorization header', undefined, 'authentication_required'],
    ['an unknown key', 'svc_live_0123456789abcdefghijABCDEFGHIJ0123', 'api_key_invalid'],
    ['a malformed key', 'svc_live_short', 'api_key_invalid'],
    ['something that is not a key', 'hello', 'api_key_invalid'],
  ])('%s: 401 %s with WWW-Authenticate', async (_name, credential, code) => {
    const answer = await token(stack.production, credential);
    expectError(answer, 401, code);
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  test('Basic authentication is not Bearer: 401 authentication_required', async () => {
    expectError(
      await call(`${stack.production}/v1/token`, {
        method: 'POST',
        headers: { authorization: 'Basic dXNlcjpwYXNz' },
      }),
      401,
      'authentication_required',
    );
  });

  test('a key sent to the other environment: 401 wrong_environment naming the right address', async () => {
    const toProduction = await token(stack.production, keys.sandbox);
    expectError(toProduction, 401, 'wrong_environment');
    expect(toProduction.body.error.message).toContain(stack.sandbox);
    const toSandbox = await token(stack.sandbox, keys.production);
    expectError(toSandbox, 401, 'wrong_environment');
    expect(toSandbox.body.error.message).toContain(stack.production);
  });
});

describe('access tokens on the other endpoints', () => {
  test('a token of the other environment: 401 wrong_environment naming the right address', async () => {
    const sandboxToken = await exchange(stack.sandbox, keys.sandbox);
    const answer = await list(stack.production, sandboxToken);
    expectError(answer, 401, 'wrong_environment');
    expect(answer.body.error.message).toContain(stack.sandbox);
  });

  test('an API key sent where a token belongs: 401 token_invalid telling to exchange it', async () => {
    const answer = await list(stack.production, keys.production);
    expectError(answer, 401, 'token_invalid');
    expect(answer.body.error.message).toMatch(/POST \/v1\/token/);
    expect(answer.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });

  test('garbage, a tampered token and an onboarding session token: 401 token_invalid', async () => {
    const good = await exchange(stack.production, keys.production);
    const [header, payload, signature] = good.split('.') as [string, string, string];
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: 'int_other' })).toString('base64url')}.${signature}`;
    for (const credential of ['garbage', tampered, 'onbs_0123456789abcdefghij0123456789ab']) {
      expectError(await list(stack.production, credential), 401, 'token_invalid');
    }
  });

  test('an expired token: 401 token_expired', async () => {
    const expired = await signed(
      'production',
      { org: 'org_localdev', env: 'production', key: 'key_x' },
      Math.floor(Date.now() / 1000) - 60,
    );
    expectError(await list(stack.production, expired), 401, 'token_expired');
  });

  test('a revoked key: refused at POST /v1/token, and its access tokens stop working', async () => {
    const tenant = await createTenant(stack, 'revoked');
    const accessToken = await exchange(stack.production, tenant.keys.production);
    await revokeKey(stack, 'production', tenant.keys.production);
    expectError(await token(stack.production, tenant.keys.production), 401, 'api_key_invalid');
    expectError(await list(stack.production, accessToken), 401, 'token_invalid');
  });

  test('no Authorization on a read: 401 authentication_required', async () => {
    expectError(await call(`${stack.production}/v1/contract-reviews`), 401, 'authentication_required');
  });
});

describe('routing', () => {
  test('an unknown path: 404 not_found, as JSON with Service-Request-Id', async () => {
    const answer = await call(`${stack.production}/v2/anything`);
    expectError(answer, 404, 'not_found');
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  test('a known path with another method: 405 method_not_allowed with Allow', async () => {
    const answer = await call(`${stack.production}/v1/token`, { method: 'GET' });
    expectError(answer, 405, 'method_not_allowed');
    expect(answer.headers.get('allow')).toBe('POST');
    const reviews = await call(`${stack.production}/v1/contract-reviews`, { method: 'DELETE' });
    expectError(reviews, 405, 'method_not_allowed');
    expect(reviews.headers.get('allow')).toBe('POST, GET');
  });
});
