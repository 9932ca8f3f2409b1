import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDbIdempotencyStore } from '../../lambdas/adapters/dynamodb/idempotency-store';
import type { IdempotencyClaim } from '../../lambdas/core/ports';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { completion, SECOND, scopeIn, TestClock } from '../support/fixtures';

const db = useTestDynamoDb();

const setUp = async () => {
  const tableName = await db.freshTable();
  const clock = new TestClock();
  return {
    tableName,
    clock,
    store: new DynamoDbIdempotencyStore(db.doc, tableName, clock),
    scope: scopeIn('sandbox'),
  };
};

const HOUR = 3600 * SECOND;

describe('claim', () => {
  it('claims a new key once, however many requests race for it', async () => {
    const { store, scope } = await setUp();

    const claims = await Promise.all(Array.from({ length: 10 }, () => store.claim(scope, 'key-1', 'fp-a')));

    const kinds = claims.map((c) => c.kind).sort();
    expect(kinds).toEqual(['claimed', ...Array<IdempotencyClaim['kind']>(9).fill('in_use')]);
  });

  it('answers in_use to the same request while the claim holds', async () => {
    const { store, scope, clock } = await setUp();
    await store.claim(scope, 'key-1', 'fp-a');
    clock.advance(59 * SECOND);

    await expect(store.claim(scope, 'key-1', 'fp-a')).resolves.toEqual({ kind: 'in_use' });
  });

  it('answers reused to another request with the key, in progress or done', async () => {
    const { store, scope } = await setUp();
    await store.claim(scope, 'key-1', 'fp-a');

    await expect(store.claim(scope, 'key-1', 'fp-b')).resolves.toEqual({ kind: 'reused' });
    await store.complete(completion(scope, 'key-1', 'fp-a'));
    await expect(store.claim(scope, 'key-1', 'fp-b')).resolves.toEqual({ kind: 'reused' });
  });

  it('replays the kept answer of a completed request', async () => {
    const { store, scope } = await setUp();
    await store.claim(scope, 'key-1', 'fp-a');
    const done = completion(scope, 'key-1', 'fp-a', 409);

    await store.complete(done);

    await expect(store.claim(scope, 'key-1', 'fp-a')).resolves.toEqual({
      kind: 'replay',
      answer: done.answer,
    });
  });

  it('lets the same request take over a claim whose holder stopped for longer than the lease', async () => {
    const { store, scope, clock } = await setUp();
    await store.claim(scope, 'key-1', 'fp-a');
    clock.advance(61 * SECOND);

    await expect(store.claim(scope, 'key-1', 'fp-b')).resolves.toEqual({ kind: 'reused' });
    await expect(store.claim(scope, 'key-1', 'fp-a')).resolves.toEqual({ kind: 'claimed' });
  });

  it('forgets a key after 24 hours, even before TTL has deleted it', async () => {
    const { store, scope, clock } = await setUp();
    await store.claim(scope, 'key-1', 'fp-a');
    await store.complete(completion(scope, 'key-1', 'fp-a'));
    clock.advance(23 * HOUR);
    await expect(store.claim(scope, 'key-1', 'fp-b')).resolves.toEqual({ kind: 'reused' });

    clock.advance(HOUR);

    await expect(store.claim(scope, 'key-1', 'fp-b')).resolves.toEqual({ kind: 'claimed' });
  });

  it('keeps keys apart per integration', async () => {
    const { store, scope } = await setUp();
    await store.claim(scope, 'key-1', 'fp-a');

    await expect(store.claim(scopeIn('sandbox'), 'key-1', 'fp-b')).resolves.toEqual({ kind: 'claimed' });
  });

  it('writes the expiry for TTL in epoch seconds', async () => {
    const { store, scope, clock, tableName } = await setUp();
    await store.claim(scope, 'key-1', 'fp-a');

    const { Item } = await db.doc.send(
      new GetCommand({ TableName: tableName, Key: { pk: `IDEM#${scope.integrationId}#key-1`, sk: 'IDEM' } }),
    );

    expect(Item?.expires_at).toBe(Math.floor(clock.now() / SECOND) + 24 * 3600);
  });
});

describe('complete', () => {
  it('refuses to complete a claim of another fingerprint', async () => {
    const { store, scope } = await setUp();
    await store.claim(scope, 'key-1', 'fp-a');

    await expect(store.complete(completion(scope, 'key-1', 'fp-b'))).rejects.toMatchObject({
      code: 'idempotency_key_in_use',
    });
    await expect(store.claim(scope, 'key-1', 'fp-a')).resolves.toEqual({ kind: 'in_use' });
  });
});

describe('release', () => {
  it('frees the key so a corrected retry proceeds', async () => {
    const { store, scope } = await setUp();
    await store.claim(scope, 'key-1', 'fp-a');

    await store.release(scope, 'key-1', 'fp-a');

    await expect(store.claim(scope, 'key-1', 'fp-b')).resolves.toEqual({ kind: 'claimed' });
  });

  it('leaves a completed key or another request’s claim alone', async () => {
    const { store, scope } = await setUp();
    await store.claim(scope, 'key-1', 'fp-a');
    const done = completion(scope, 'key-1', 'fp-a');
    await store.complete(done);
    await store.claim(scope, 'key-2', 'fp-a');

    await store.release(scope, 'key-1', 'fp-a');
    await store.release(scope, 'key-2', 'fp-b');
    await store.release(scope, 'key-3', 'fp-a');

    await expect(store.claim(scope, 'key-1', 'fp-a')).resolves.toEqual({
      kind: 'replay',
      answer: done.answer,
    });
    await expect(store.claim(scope, 'key-2', 'fp-a')).resolves.toEqual({ kind: 'in_use' });
  });
});
