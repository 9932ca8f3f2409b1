// API keys made, listed and revoked through the core functions the portal and the MCP server call
// (today through the operator tool), then used and refused over HTTP against the local stack.

import { createApiKey, listApiKeys, revokeApiKey } from '../../lambdas/core/api-keys';
import type { Environment } from '../../lambdas/core/model';
import { integrationScope } from '../../lambdas/core/organisations';
import { bearer, call, exchange, expectError } from '../support/api-client';
import { eventually } from '../support/eventually';
import { devBootstrap, ops, type RunningStack, useLocalStack } from '../support/local-stack';
import { createTenant, directoryOf, portsOf, tenantKeyHolder, tenantScope } from '../support/tenants';

let stack: RunningStack;

useLocalStack((started) => {
  stack = started;
});

beforeAll(async () => {
  await devBootstrap(stack);
});

interface ListedKey {
  id: string;
  name: string | null;
  prefix: string;
  environment: Environment;
  integration_id: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const created = async (environment: Environment, name: string) => {
  const result = await ops(stack, 'api-key-create', '--environment', environment, '--name', name);
  expect(result).toMatchObject({ code: 0 });
  return result.json as unknown as ListedKey & { key: string };
};

const listed = async (environment: Environment): Promise<ListedKey[]> => {
  const result = await ops(stack, 'api-key-list', '--environment', environment);
  expect(result).toMatchObject({ code: 0 });
  return (result.json as { data: ListedKey[] }).data;
};

const exchangeAnswer = (base: string, key: string) =>
  call(`${base}/v1/token`, { method: 'POST', headers: bearer(key) });

const readWith = (base: string, accessToken: string) =>
  call(`${base}/v1/contract-reviews`, { headers: bearer(accessToken) });

test('a new key is shown once, with its name and prefix, and works at POST /v1/token', async () => {
  const key = await created('sandbox', 'CI server');

  expect(key).toEqual({
    id: expect.stringMatching(/^key_/),
    key: expect.stringMatching(/^svc_test_[A-Za-z0-9]{32,}$/),
    name: 'CI server',
    prefix: key.key.slice(0, 'svc_test_'.length + 4),
    environment: 'sandbox',
    integration_id: 'int_localdev',
    created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
    last_used_at: null,
    revoked_at: null,
  });
  const accessToken = await exchange(stack.sandbox, key.key);
  expect((await readWith(stack.sandbox, accessToken)).status).toBe(200);
});

test('the list shows every key of the integration newest first, never a key or its hash, with its last use', async () => {
  const first = await created('production', 'first');
  const second = await created('production', 'second');
  await exchange(stack.production, second.key);

  const keys = await listed('production');

  const ids = keys.map((k) => k.id);
  expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
  expect(keys.find((k) => k.id === first.id)).toMatchObject({ name: 'first', last_used_at: null });
  expect(keys.find((k) => k.id === second.id)?.last_used_at).toEqual(
    expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
  );
  for (const k of keys)
    expect(Object.keys(k).sort()).toEqual(
      Object.keys(first)
        .filter((f) => f !== 'key')
        .sort(),
    );
  const text = JSON.stringify(keys);
  expect(text).not.toContain(first.key);
  expect(text).not.toContain(second.key);
  expect(keys.every((k) => k.environment === 'production')).toBe(true);
});

test('a revoked key is refused at once, and the access tokens it gave stop working', async () => {
  const key = await created('production', 'to revoke');
  const accessToken = await exchange(stack.production, key.key);
  // Used once, so the service holds the key's status as "good" when it is revoked.
  expect((await readWith(stack.production, accessToken)).status).toBe(200);

  const revoked = await ops(stack, 'api-key-revoke', key.id);

  expect(revoked).toMatchObject({ code: 0, json: { id: key.id, revoked_at: expect.any(String) } });
  expectError(await exchangeAnswer(stack.production, key.key), 401, 'api_key_invalid');
  // decisions.md §10: within 60 s (the service trusts a key's status for at most 30 s).
  const refused = await eventually(
    () => readWith(stack.production, accessToken),
    (answer) => answer.status !== 200,
    { what: "the revoked key's access token refused" },
  );
  expectError(refused, 401, 'token_invalid');
  expect((await listed('production')).find((k) => k.id === key.id)?.revoked_at).toBe(
    (revoked.json as { revoked_at: string }).revoked_at,
  );
  const again = await ops(stack, 'api-key-revoke', key.id);
  expect(again.json).toEqual(revoked.json);
});

test("another organisation's integration and keys answer not_found, and nothing changes", async () => {
  const ports = (await portsOf(stack)).sandbox;
  const directory = await directoryOf(stack);
  const mine = await createTenant(stack, 'mine');
  const theirs = await createTenant(stack, 'theirs');
  const theirKey = await createApiKey(ports, tenantKeyHolder(theirs, 'sandbox'), 'theirs');

  await expect(
    integrationScope(directory, mine.organisationId, theirs.integrationId, 'sandbox'),
  ).rejects.toMatchObject({ code: 'not_found' });
  await expect(revokeApiKey(ports, mine.organisationId, theirKey.id)).rejects.toMatchObject({
    code: 'not_found',
  });
  expect((await exchangeAnswer(stack.sandbox, theirKey.key)).status).toBe(200);
});

test('a key of the other environment answers not_found in this one', async () => {
  const ports = await portsOf(stack);
  const tenant = await createTenant(stack, 'split');
  const sandboxKey = await createApiKey(ports.sandbox, tenantKeyHolder(tenant, 'sandbox'), 'sandbox only');

  await expect(revokeApiKey(ports.production, tenant.organisationId, sandboxKey.id)).rejects.toMatchObject({
    code: 'not_found',
  });
});

test('a name that is empty, too long or has control characters: request_invalid, and no key made', async () => {
  const ports = (await portsOf(stack)).sandbox;
  const tenant = await createTenant(stack, 'names');
  const before = (await listApiKeys(ports, tenantScope(tenant, 'sandbox'))).data.length;

  for (const name of ['   ', 'x'.repeat(101), 'tab\there']) {
    await expect(createApiKey(ports, tenantKeyHolder(tenant, 'sandbox'), name)).rejects.toMatchObject({
      code: 'request_invalid',
    });
  }
  expect((await listApiKeys(ports, tenantScope(tenant, 'sandbox'))).data).toHaveLength(before);
  const refused = await ops(stack, 'api-key-create', '--environment', 'sandbox', '--name', '');
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/request_invalid/);
});
