// adapters -> the portal's sessions and sign-ins under way in a table of DynamoDB Local (the identity
// table's schema): kept and found by their id, gone once expired (DynamoDB's own deletion is days late,
// so reads must not return them), deleted on sign-out, and a sign-in taken only once.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, test } from '@jest/globals';
import { DynamoDbPortalSessionStore } from '../../lambdas/adapters/dynamodb/portal-session-store';
import type { PendingSignIn, PortalSession } from '../../lambdas/core/portal-sessions';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { id, SECOND, TestClock } from '../support/fixtures';

const db = useTestDynamoDb();

const setUp = async () => {
  const tableName = await db.freshTable();
  const clock = new TestClock();
  const raw = async (pk: string, sk: string) =>
    (await db.doc.send(new GetCommand({ TableName: tableName, Key: { pk, sk }, ConsistentRead: true }))).Item;
  return { store: new DynamoDbPortalSessionStore(db.doc, tableName, clock), clock, raw };
};

const session = (clock: TestClock): PortalSession => ({
  id: id('s'),
  personId: id('per_'),
  email: 'maria@example.com',
  csrfToken: id('csrf'),
  createdAt: clock.now(),
  expiresAt: clock.now() + 3600 * SECOND,
});

const signIn = (clock: TestClock): PendingSignIn => ({
  id: id('si'),
  state: id('state'),
  nonce: id('nonce'),
  codeVerifier: id('verifier'),
  returnTo: '/integrations',
  expiresAt: clock.now() + 600 * SECOND,
});

describe('portal sessions', () => {
  test('a session is found by its id until it expires, with the TTL attribute set', async () => {
    const { store, clock, raw } = await setUp();
    const kept = session(clock);
    await store.putSession(kept);
    await expect(store.getSession(kept.id)).resolves.toEqual(kept);
    await expect(store.getSession('unknown')).resolves.toBeNull();
    expect((await raw(`PORTALSESSION#${kept.id}`, 'PORTALSESSION'))?.expires_at).toBe(
      kept.expiresAt / SECOND,
    );
    clock.advance(3600 * SECOND);
    await expect(store.getSession(kept.id)).resolves.toBeNull();
  });

  test('a signed-out session is gone', async () => {
    const { store, clock } = await setUp();
    const kept = session(clock);
    await store.putSession(kept);
    await store.deleteSession(kept.id);
    await expect(store.getSession(kept.id)).resolves.toBeNull();
  });
});

describe('portal sign-ins under way', () => {
  test('a sign-in is taken once, and not at all once expired', async () => {
    const { store, clock } = await setUp();
    const first = signIn(clock);
    await store.putSignIn(first);
    const [taken, again] = await Promise.all([store.takeSignIn(first.id), store.takeSignIn(first.id)]);
    expect([taken, again].filter((found) => found !== null)).toEqual([first]);

    const late = signIn(clock);
    await store.putSignIn(late);
    clock.advance(600 * SECOND);
    await expect(store.takeSignIn(late.id)).resolves.toBeNull();
  });
});
