import { DynamoDbApiKeyStore } from '../../lambdas/adapters/dynamodb/api-key-store';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { apiKey, id, scopeIn } from '../support/fixtures';

const db = useTestDynamoDb();

const setUp = async () => {
  const tableName = await db.freshTable();
  return { store: new DynamoDbApiKeyStore(db.doc, tableName) };
};

describe('API keys', () => {
  it('finds a key by id and by hash', async () => {
    const { store } = await setUp();
    const key = apiKey(scopeIn('sandbox'));

    await store.putApiKey(key);

    await expect(store.getApiKey(key.id)).resolves.toEqual(key);
    await expect(store.findApiKeyByHash(key.hash)).resolves.toEqual(key);
    await expect(store.getApiKey('key_unknown')).resolves.toBeNull();
    await expect(store.findApiKeyByHash('0'.repeat(64))).resolves.toBeNull();
  });

  it('shows a revocation through the hash lookup at once', async () => {
    const { store } = await setUp();
    const key = apiKey(scopeIn('production'));
    await store.putApiKey(key);

    await store.putApiKey({ ...key, revokedAt: 1_763_717_500_000_000 });

    await expect(store.findApiKeyByHash(key.hash)).resolves.toMatchObject({
      revokedAt: 1_763_717_500_000_000,
    });
    await expect(store.getApiKey(key.id)).resolves.toMatchObject({ revokedAt: 1_763_717_500_000_000 });
  });

  it('refuses a second key with the same hash', async () => {
    const { store } = await setUp();
    const key = apiKey(scopeIn('sandbox'));
    await store.putApiKey(key);

    await expect(store.putApiKey({ ...key, id: id('key_') })).rejects.toThrow(/same hash/);
    await expect(store.findApiKeyByHash(key.hash)).resolves.toEqual(key);
  });

  it("lists an integration's keys newest first, revoked ones too, and no other integration's", async () => {
    const { store } = await setUp();
    const scope = scopeIn('sandbox');
    const older = apiKey(scope, { createdAt: 1_763_717_400_000_000, name: 'Old server' });
    const newer = apiKey(scope, { createdAt: 1_763_717_500_000_000, revokedAt: 1_763_717_600_000_000 });
    const elsewhere = apiKey(scopeIn('sandbox'));
    for (const key of [older, newer, elsewhere]) await store.putApiKey(key);

    await expect(store.listApiKeys(scope.integrationId)).resolves.toEqual([newer, older]);
    await expect(store.listApiKeys('int_none')).resolves.toEqual([]);
  });

  it('revokes a key in both of its records, and keeps the first time when revoked again', async () => {
    const { store } = await setUp();
    const key = apiKey(scopeIn('production'));
    await store.putApiKey(key);

    await expect(store.revokeApiKey(key.id, 1_763_717_500_000_000)).resolves.toEqual({
      ...key,
      revokedAt: 1_763_717_500_000_000,
    });
    await expect(store.revokeApiKey(key.id, 1_763_717_900_000_000)).resolves.toMatchObject({
      revokedAt: 1_763_717_500_000_000,
    });
    await expect(store.findApiKeyByHash(key.hash)).resolves.toMatchObject({
      revokedAt: 1_763_717_500_000_000,
    });
    await expect(store.getApiKey(key.id)).resolves.toMatchObject({ revokedAt: 1_763_717_500_000_000 });
  });

  it('keeps one revocation time when two revocations race', async () => {
    const { store } = await setUp();
    const key = apiKey(scopeIn('production'));
    await store.putApiKey(key);

    const [first, second] = await Promise.all([
      store.revokeApiKey(key.id, 1_763_717_500_000_000),
      store.revokeApiKey(key.id, 1_763_717_600_000_000),
    ]);

    const kept = (await store.getApiKey(key.id))?.revokedAt;
    expect([1_763_717_500_000_000, 1_763_717_600_000_000]).toContain(kept);
    expect(first.revokedAt).toBe(kept);
    expect(second.revokedAt).toBe(kept);
    await expect(store.findApiKeyByHash(key.hash)).resolves.toMatchObject({ revokedAt: kept });
  });

  it('answers not_found when revoking an unknown key, creating nothing', async () => {
    const { store } = await setUp();

    await expect(store.revokeApiKey('key_unknown', 1_763_717_500_000_000)).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(store.getApiKey('key_unknown')).resolves.toBeNull();
  });

  it('records the last use, never moving it back in time, and never makes a key', async () => {
    const { store } = await setUp();
    const key = apiKey(scopeIn('sandbox'));
    await store.putApiKey(key);

    await store.markApiKeyUsed(key.id, 1_763_717_600_000_000);
    await store.markApiKeyUsed(key.id, 1_763_717_500_000_000);

    await expect(store.getApiKey(key.id)).resolves.toMatchObject({ lastUsedAt: 1_763_717_600_000_000 });
    await store.markApiKeyUsed('key_unknown', 1_763_717_600_000_000);
    await expect(store.getApiKey('key_unknown')).resolves.toBeNull();
  });
});
