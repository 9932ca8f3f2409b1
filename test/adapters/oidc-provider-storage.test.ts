// adapters -> oidc-provider's storage in a table of DynamoDB Local (the identity table's schema): the
// seven operations of its adapter interface as oidc-provider uses them, expiry through the TTL
// attribute (a test clock moves time on; DynamoDB's own deletion is days late, so reads must not
// return what has expired), revoking every code and token of a grant at once, and a person's grants.

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, test } from '@jest/globals';
import type { AdapterPayload } from 'oidc-provider';
import {
  DynamoDbClientGrants,
  oidcProviderStorage,
} from '../../lambdas/adapters/dynamodb/oidc-provider-storage';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { eventually } from '../support/eventually';
import { id, SECOND, TestClock } from '../support/fixtures';

const db = useTestDynamoDb();

const setUp = async () => {
  const tableName = await db.freshTable();
  const clock = new TestClock();
  const storage = oidcProviderStorage(db.doc, tableName, clock);
  const raw = async (pk: string, sk = 'OIDC') =>
    (await db.doc.send(new GetCommand({ TableName: tableName, Key: { pk, sk }, ConsistentRead: true }))).Item;
  return { storage, clock, raw, grants: new DynamoDbClientGrants(db.doc, tableName, clock) };
};

const nowSeconds = (clock: TestClock) => Math.floor(clock.now() / SECOND);

const token = (grantId: string, extra: AdapterPayload = {}): AdapterPayload => ({
  accountId: 'per_maria',
  clientId: 'client-1',
  grantId,
  kind: 'AccessToken',
  scope: 'mcp',
  ...extra,
});

describe('find and upsert', () => {
  test('keeps the payload as given, and replaces it on a second upsert', async () => {
    const { storage } = await setUp();
    const clients = storage('Client');
    const metadata = {
      client_id: 'abc',
      client_name: 'Ünïcode <client>',
      redirect_uris: ['http://127.0.0.1:8765/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
    };

    await clients.upsert('abc', metadata);
    await expect(clients.find('abc')).resolves.toEqual(metadata);
    await clients.upsert('abc', { ...metadata, client_name: 'Renamed' });
    await expect(clients.find('abc')).resolves.toEqual({ ...metadata, client_name: 'Renamed' });
    await expect(clients.find('unknown')).resolves.toBeUndefined();
  });

  test('keeps each model apart: the same id under two models is two artefacts', async () => {
    const { storage } = await setUp();
    await storage('AccessToken').upsert('same-id', token('g1'), 60);
    await expect(storage('RefreshToken').find('same-id')).resolves.toBeUndefined();
  });

  test('expiresIn becomes the TTL attribute, and an item past it is not found (before DynamoDB deletes it)', async () => {
    const { storage, clock, raw } = await setUp();
    const codes = storage('AuthorizationCode');
    await codes.upsert('code-1', token('g1', { kind: 'AuthorizationCode' }), 60);

    expect((await raw('OIDC#AuthorizationCode#code-1'))?.expires_at).toBe(nowSeconds(clock) + 60);
    clock.advance(59 * SECOND);
    await expect(codes.find('code-1')).resolves.toMatchObject({ grantId: 'g1' });
    clock.advance(SECOND);
    await expect(codes.find('code-1')).resolves.toBeUndefined();
    // Still in the table: only reads treat it as gone.
    expect(await raw('OIDC#AuthorizationCode#code-1')).toBeDefined();
  });

  test('a registered client nobody uses lapses a day after registering', async () => {
    const { storage, clock } = await setUp();
    await storage('Client').upsert('unused', { client_id: 'unused' });

    clock.advance(24 * 3600 * SECOND - SECOND);
    await expect(storage('Client').find('unused')).resolves.toEqual({ client_id: 'unused' });
    clock.advance(SECOND);
    await expect(storage('Client').find('unused')).resolves.toBeUndefined();
  });

  test('each code or token issued to a client keeps it 90 days from that use, written at most daily', async () => {
    const { storage, clock, raw } = await setUp();
    const DAY = 24 * 3600 * SECOND;
    await storage('Client').upsert('client-1', { client_id: 'client-1' });
    clock.advance(DAY - SECOND);
    await storage('AuthorizationCode').upsert('code-1', token('g1', { kind: 'AuthorizationCode' }), 60);
    const firstUse = nowSeconds(clock);
    expect((await raw('OIDC#Client#client-1'))?.expires_at).toBe(firstUse + 90 * 24 * 3600);
    // A token an hour later moves nothing (a write a day at most).
    clock.advance(3600 * SECOND);
    await storage('RefreshToken').upsert('rt-1', token('g1', { kind: 'RefreshToken' }), 60);
    expect((await raw('OIDC#Client#client-1'))?.expires_at).toBe(firstUse + 90 * 24 * 3600);
    // Two months on, a refresh moves it on again.
    clock.advance(60 * DAY);
    await storage('RefreshToken').upsert('rt-2', token('g1', { kind: 'RefreshToken' }), 60);
    const secondUse = nowSeconds(clock);
    clock.advance(89 * DAY);
    await expect(storage('Client').find('client-1')).resolves.toEqual({ client_id: 'client-1' });
    clock.until((secondUse + 90 * 24 * 3600) * SECOND);
    await expect(storage('Client').find('client-1')).resolves.toBeUndefined();
    // A static client (the portal) has no item, and its use makes none.
    await storage('AuthorizationCode').upsert('code-2', token('g2', { clientId: 'portal' }), 60);
    expect(await raw('OIDC#Client#portal')).toBeUndefined();
  });
});

describe('consume', () => {
  test('marks a code used at the current time, which find then shows', async () => {
    const { storage, clock } = await setUp();
    const codes = storage('AuthorizationCode');
    await codes.upsert('code-1', token('g1', { kind: 'AuthorizationCode' }), 60);
    clock.advance(5 * SECOND);

    await codes.consume('code-1');

    await expect(codes.find('code-1')).resolves.toMatchObject({ consumed: nowSeconds(clock), grantId: 'g1' });
  });

  test('consuming what is not there creates nothing', async () => {
    const { storage, raw } = await setUp();
    await storage('AuthorizationCode').consume('never-issued');
    expect(await raw('OIDC#AuthorizationCode#never-issued')).toBeUndefined();
  });
});

describe('destroy', () => {
  test('removes the artefact and what points to it', async () => {
    const { storage, raw } = await setUp();
    const tokens = storage('RefreshToken');
    await tokens.upsert('rt-1', token('g1', { kind: 'RefreshToken' }), 3600);
    expect(await raw('OIDCGRANT#g1', 'RefreshToken#rt-1')).toBeDefined();

    await tokens.destroy('rt-1');

    await expect(tokens.find('rt-1')).resolves.toBeUndefined();
    expect(await raw('OIDCGRANT#g1', 'RefreshToken#rt-1')).toBeUndefined();
    await tokens.destroy('rt-1');
  });
});

describe('findByUid and findByUserCode', () => {
  test('a session is found by its uid until it is destroyed or expires', async () => {
    const { storage, clock } = await setUp();
    const sessions = storage('Session');
    const session = {
      uid: 'uid-1',
      accountId: 'per_maria',
      kind: 'Session',
      authorizations: { c: { grantId: 'g' } },
    };
    await sessions.upsert('session-1', session, 3600);

    await expect(sessions.findByUid('uid-1')).resolves.toEqual(session);
    await expect(sessions.findByUid('uid-2')).resolves.toBeUndefined();
    clock.advance(3600 * SECOND);
    await expect(sessions.findByUid('uid-1')).resolves.toBeUndefined();

    await sessions.upsert('session-2', { ...session, uid: 'uid-2' }, 3600);
    await sessions.destroy('session-2');
    await expect(sessions.findByUid('uid-2')).resolves.toBeUndefined();
  });

  test('a uid taken over by a newer session finds the newer one; destroying the older keeps it', async () => {
    const { storage } = await setUp();
    const sessions = storage('Session');
    await sessions.upsert('older', { uid: 'shared', accountId: 'per_a' }, 3600);
    await sessions.upsert('newer', { uid: 'shared', accountId: 'per_b' }, 3600);

    await sessions.destroy('older');

    await expect(sessions.findByUid('shared')).resolves.toEqual({ uid: 'shared', accountId: 'per_b' });
  });

  test('a device code is found by its user code', async () => {
    const { storage } = await setUp();
    const codes = storage('DeviceCode');
    await codes.upsert('dc-1', { userCode: 'BCDF-GHJK', kind: 'DeviceCode', grantId: 'g1' }, 600);
    await expect(codes.findByUserCode('BCDF-GHJK')).resolves.toMatchObject({ userCode: 'BCDF-GHJK' });
    await expect(codes.findByUserCode('XXXX-XXXX')).resolves.toBeUndefined();
  });
});

describe('revokeByGrantId', () => {
  test("revokes every artefact of the model under the grant (past one batch's worth), and nothing else", async () => {
    const { storage, raw } = await setUp();
    const accessTokens = storage('AccessToken');
    const refreshTokens = storage('RefreshToken');
    const revoked = Array.from({ length: 30 }, (_, i) => `at-${i}`);
    await Promise.all(revoked.map((jti) => accessTokens.upsert(jti, token('grant-a'), 900)));
    await accessTokens.upsert('at-other', token('grant-b'), 900);
    await refreshTokens.upsert('rt-a', token('grant-a', { kind: 'RefreshToken' }), 3600);

    await accessTokens.revokeByGrantId('grant-a');

    for (const jti of revoked) await expect(accessTokens.find(jti)).resolves.toBeUndefined();
    expect(await raw('OIDCGRANT#grant-a', 'AccessToken#at-0')).toBeUndefined();
    await expect(accessTokens.find('at-other')).resolves.toMatchObject({ grantId: 'grant-b' });
    // oidc-provider revokes each model by its own adapter: the refresh token waits for its own call.
    await expect(refreshTokens.find('rt-a')).resolves.toMatchObject({ grantId: 'grant-a' });
    await refreshTokens.revokeByGrantId('grant-a');
    await expect(refreshTokens.find('rt-a')).resolves.toBeUndefined();
  });

  test('a grant with nothing issued under it is revoked without fault', async () => {
    const { storage } = await setUp();
    await expect(storage('AuthorizationCode').revokeByGrantId('grant-never-used')).resolves.toBeUndefined();
  });
});

describe("a person's grants (ClientGrants)", () => {
  test('lists the grants the person gave that have not expired, newest first', async () => {
    const { storage, grants, clock } = await setUp();
    const person = id('per_');
    const grant = (clientId: string, iat: number) => ({ accountId: person, clientId, iat, kind: 'Grant' });
    const t = nowSeconds(clock);
    await storage('Grant').upsert('grant-old', grant('client-old', t - 100), 3600);
    await storage('Grant').upsert('grant-new', grant('client-new', t), 7200);
    await storage('Grant').upsert('grant-else', { ...grant('client-old', t), accountId: id('per_') }, 3600);

    const listed = await eventually(
      () => grants.listByPerson(person),
      (found) => found.length === 2,
      { what: "the person's two grants" },
    );

    expect(listed).toEqual([
      { grantId: 'grant-new', clientId: 'client-new', clientName: null, grantedAt: t * SECOND },
      { grantId: 'grant-old', clientId: 'client-old', clientName: null, grantedAt: (t - 100) * SECOND },
    ]);
    clock.advance(3600 * SECOND);
    await expect(grants.listByPerson(person)).resolves.toEqual([listed[0]]);
  });

  test("revoking a grant takes it and every code and token under it; another person's is refused", async () => {
    const { storage, grants, clock } = await setUp();
    const person = id('per_');
    const t = nowSeconds(clock);
    await storage('Grant').upsert(
      'grant-r',
      { accountId: person, clientId: 'client-r', iat: t, kind: 'Grant' },
      3600,
    );
    await storage('AccessToken').upsert('at-r', token('grant-r', { accountId: person }), 900);
    await storage('RefreshToken').upsert(
      'rt-r',
      token('grant-r', { accountId: person, kind: 'RefreshToken' }),
      3600,
    );
    await eventually(
      () => grants.listByPerson(person),
      (found) => found.length === 1,
      { what: 'the grant listed' },
    );

    await expect(grants.revoke(id('per_'), 'grant-r')).resolves.toBe(false);
    await expect(storage('AccessToken').find('at-r')).resolves.toBeDefined();
    await expect(grants.revoke(person, 'grant-r')).resolves.toBe(true);

    await expect(storage('Grant').find('grant-r')).resolves.toBeUndefined();
    await expect(storage('AccessToken').find('at-r')).resolves.toBeUndefined();
    await expect(storage('RefreshToken').find('rt-r')).resolves.toBeUndefined();
    await eventually(
      () => grants.listByPerson(person),
      (found) => found.length === 0,
      { what: 'the grant gone from the list' },
    );
    await expect(grants.revoke(person, 'grant-r')).resolves.toBe(false);
  });

  test('names each client as it registered', async () => {
    const { storage, grants, clock } = await setUp();
    const person = id('per_');
    await storage('Client').upsert('client-named', { client_id: 'client-named', client_name: 'Claude Code' });
    await storage('Grant').upsert(
      'grant-named',
      { accountId: person, clientId: 'client-named', iat: nowSeconds(clock), kind: 'Grant' },
      3600,
    );
    const [listed] = await eventually(
      () => grants.listByPerson(person),
      (found) => found.length === 1,
      { what: 'the grant listed' },
    );
    expect(listed).toMatchObject({ clientId: 'client-named', clientName: 'Claude Code' });
  });
});
