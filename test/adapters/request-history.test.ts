// The request history over DynamoDB Local: records written in batches and read back whole, each item
// holding the listed fields and an expiry 30 days on (no body, nothing else); one integration's records
// newest first (ties by id), paged by `starting_after` without repeats or gaps, in a time window
// (`since` in, `until` out), filtered by status, method and path prefix without short pages; and the core's
// list over it: the 30 days kept, `starting_after` only of the very list asked.
import { DynamoDbApiRequestStore } from '../../lambdas/adapters/dynamodb/api-request-store';
import { keys } from '../../lambdas/adapters/dynamodb/keys';
import { getItem } from '../../lambdas/adapters/dynamodb/table';
import { TTL_ATTRIBUTE } from '../../lambdas/adapters/dynamodb/table-schema';
import { isServiceError } from '../../lambdas/core/errors';
import type { Environment, Micros } from '../../lambdas/core/model';
import type { ApiRequestPageQuery } from '../../lambdas/core/ports';
import { listApiRequests } from '../../lambdas/core/request-history/list';
import type { ApiRequestRecord } from '../../lambdas/core/request-history/model';
import { readApiRequestQuery } from '../../lambdas/core/request-history/query';
import { formatTime } from '../../lambdas/core/time';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { id, SECOND, TestClock } from '../support/fixtures';

const db = useTestDynamoDb();
const DAY = 24 * 3600 * SECOND;

const setUp = async () => {
  const tableName = await db.freshTable();
  const store = new DynamoDbApiRequestStore(db.doc, tableName);
  const clock = new TestClock();
  const integrationId = id('int_');
  /** A record of `integrationId` at `time` (by default a microsecond after the last one made). */
  const record = (overrides: Partial<ApiRequestRecord> = {}): ApiRequestRecord => ({
    id: id('rqs_'),
    time: clock.tick(),
    method: 'GET',
    path: '/v1/contract-reviews',
    status: 200,
    durationMs: 4,
    environment: 'production' as Environment,
    integrationId,
    ...overrides,
  });
  const everything: ApiRequestPageQuery = { limit: 100, window: { since: 0 }, filter: {} };
  const ports = { environment: 'production' as Environment, clock, apiRequests: store };
  return { tableName, store, clock, integrationId, record, everything, ports };
};

/** Newest first, ties by id (descending), as the list must answer. */
const newestFirst = (records: ApiRequestRecord[]) =>
  [...records].sort((a, b) => b.time - a.time || (a.id < b.id ? 1 : -1));

const ids = (records: readonly { id: string }[]) => records.map((r) => r.id);

test('records are written in batches and read back whole; an item holds the listed fields, an expiry 30 days on, nothing else', async () => {
  const { tableName, store, record } = await setUp();
  const records = Array.from({ length: 60 }, (_, i) =>
    record({ method: i % 2 ? 'POST' : 'GET', status: 200 + i, durationMs: i }),
  );
  await store.write(records);
  for (const r of [records[0], records[27], records[59]] as ApiRequestRecord[]) {
    expect(await store.get(r.id)).toEqual(r);
  }
  expect(await store.get(id('rqs_'))).toBeNull();

  const sample = records[27] as ApiRequestRecord;
  const item = await getItem(db.doc, tableName, keys.apiRequest(sample.id));
  expect(Object.keys(item ?? {}).sort()).toEqual(
    [
      'pk',
      'sk',
      'gsi1pk',
      'gsi1sk',
      'type',
      'id',
      'time',
      'method',
      'path',
      'status',
      'duration_ms',
      'environment',
      'integration_id',
      TTL_ATTRIBUTE,
    ].sort(),
  );
  expect(item?.[TTL_ATTRIBUTE]).toBe(Math.floor(sample.time / SECOND) + 30 * 24 * 3600);
});

test("one integration's records, newest first with ties by id, paged without repeats or gaps", async () => {
  const { store, clock, record, everything } = await setUp();
  const now = clock.now();
  // Three records share one microsecond: the id orders them.
  const mine = [
    ...Array.from({ length: 20 }, () => record()),
    record({ time: now + 100 }),
    record({ time: now + 100 }),
    record({ time: now + 100 }),
  ];
  const theirs = Array.from({ length: 5 }, () => record({ integrationId: id('int_') }));
  await store.write([...mine, ...theirs]);

  const all = await store.list(mine[0]?.integrationId as string, everything);
  expect(all).toEqual({ items: newestFirst(mine), hasMore: false });

  const pages: ApiRequestRecord[][] = [];
  let after: ApiRequestRecord | undefined;
  for (;;) {
    const page = await store.list(mine[0]?.integrationId as string, {
      ...everything,
      limit: 4,
      ...(after && { startingAfter: after }),
    });
    pages.push(page.items);
    after = page.items.at(-1);
    if (!page.hasMore) break;
  }
  expect(pages.map((p) => p.length)).toEqual([4, 4, 4, 4, 4, 3]);
  expect(ids(pages.flat())).toEqual(ids(newestFirst(mine)));
});

test('a time window takes `since` and leaves out `until`', async () => {
  const { store, record, integrationId, everything } = await setUp();
  const base = 1_763_717_400_000_000;
  const records = [0, 1, 2, 3, 4].map((s) => record({ time: base + s * SECOND }));
  await store.write(records);
  const within = (since: Micros, until?: Micros) =>
    store
      .list(integrationId, { ...everything, window: { since, ...(until !== undefined && { until }) } })
      .then((page) => ids(page.items));
  const timesOf = (...seconds: number[]) => seconds.map((s) => records[s]?.id);
  expect(await within(base + SECOND, base + 3 * SECOND)).toEqual(timesOf(2, 1));
  expect(await within(base + 3 * SECOND)).toEqual(timesOf(4, 3));
  expect(await within(base + 1, base + SECOND)).toEqual([]);
  expect(await within(base, base + 1)).toEqual(timesOf(0));
});

test('filters by status, method and path prefix fill whole pages, reading on past what they leave out', async () => {
  const { store, record, integrationId, everything } = await setUp();
  const noise = Array.from({ length: 450 }, () => record());
  const rare = [
    record({ status: 404, method: 'DELETE', path: '/v1/clients/cli_1' }),
    record({ status: 429, method: 'GET', path: '/v1/clients/cli_2' }),
    record({ status: 503, method: 'POST', path: '/v1/token' }),
  ];
  // The rare ones are the oldest: a page of them is found only by reading past every other.
  await store.write([...rare, ...noise].map((r, i) => ({ ...r, time: 1_763_717_400_000_000 + i })));
  const listed = (filter: ApiRequestPageQuery['filter'], limit = 10) =>
    store.list(integrationId, { ...everything, limit, filter });

  expect(ids((await listed({ status: { from: 400, to: 499 } })).items)).toEqual(
    ids([rare[1], rare[0]] as ApiRequestRecord[]),
  );
  expect(ids((await listed({ status: { from: 503, to: 503 } })).items)).toEqual([rare[2]?.id]);
  expect(ids((await listed({ method: 'DELETE' })).items)).toEqual([rare[0]?.id]);
  expect(ids((await listed({ pathPrefix: '/v1/clients/' })).items)).toEqual(
    ids([rare[1], rare[0]] as ApiRequestRecord[]),
  );
  expect(
    ids((await listed({ pathPrefix: '/v1/clients/', method: 'GET', status: { from: 400, to: 499 } })).items),
  ).toEqual([rare[1]?.id]);
  expect(await listed({ method: 'PATCH' })).toEqual({ items: [], hasMore: false });

  const first = await listed({ pathPrefix: '/v1/clients/' }, 1);
  expect({ ids: ids(first.items), hasMore: first.hasMore }).toEqual({ ids: [rare[1]?.id], hasMore: true });
  const second = await store.list(integrationId, {
    ...everything,
    limit: 1,
    filter: { pathPrefix: '/v1/clients/' },
    startingAfter: first.items[0] as ApiRequestRecord,
  });
  expect({ ids: ids(second.items), hasMore: second.hasMore }).toEqual({ ids: [rare[0]?.id], hasMore: false });

  const twoHundred = await listed({ status: { from: 200, to: 299 } }, 100);
  expect(twoHundred.items).toHaveLength(100);
  expect(twoHundred.hasMore).toBe(true);
});

describe('listApiRequests (the core) over the store', () => {
  const codeOf = async (work: Promise<unknown>) => {
    try {
      await work;
      return 'listed';
    } catch (error) {
      if (isServiceError(error)) return error.code;
      throw error;
    }
  };

  test('answers the API JSON shape, newest first, pages by request id', async () => {
    const { store, record, integrationId, ports } = await setUp();
    const records = Array.from({ length: 5 }, () => record());
    await store.write(records);
    const scope = { environment: 'production' as const, integrationId };
    const first = await listApiRequests(ports, scope, readApiRequestQuery([['limit', '3']]));
    const newest = records[4] as ApiRequestRecord;
    expect(first.has_more).toBe(true);
    expect(first.data[0]).toEqual({
      id: newest.id,
      time: formatTime(newest.time),
      method: 'GET',
      path: '/v1/contract-reviews',
      status: 200,
      duration_ms: 4,
      environment: 'production',
      integration_id: integrationId,
    });
    const rest = await listApiRequests(
      ports,
      scope,
      readApiRequestQuery([['starting_after', first.data[2]?.id as string]]),
    );
    expect([...first.data, ...rest.data].map((r) => r.id)).toEqual(ids(newestFirst(records)));
    expect(rest.has_more).toBe(false);
  });

  test('lists nothing older than 30 days, whatever `since` asks', async () => {
    const { store, clock, record, integrationId, ports } = await setUp();
    const now = clock.now();
    const old = record({ time: now - 30 * DAY - 1 });
    const kept = record({ time: now - 30 * DAY + SECOND });
    await store.write([old, kept]);
    const scope = { environment: 'production' as const, integrationId };
    const listed = await listApiRequests(
      ports,
      scope,
      readApiRequestQuery([['since', formatTime(now - 40 * DAY)]]),
    );
    expect(listed.data.map((r) => r.id)).toEqual([kept.id]);
    expect(
      await codeOf(listApiRequests(ports, scope, readApiRequestQuery([['starting_after', old.id]]))),
    ).toBe('starting_after_invalid');
  });

  test('`starting_after` must be a request of this very list: its integration, window and filters', async () => {
    const { store, record, integrationId, ports } = await setUp();
    const notFound = record({ status: 404 });
    const ok = record();
    const theirs = record({ integrationId: id('int_') });
    await store.write([notFound, ok, theirs]);
    const scope = { environment: 'production' as const, integrationId };
    const pageAfter = (startingAfter: string, ...more: Array<[string, string]>) =>
      codeOf(
        listApiRequests(ports, scope, readApiRequestQuery([['starting_after', startingAfter], ...more])),
      );
    expect(await pageAfter(ok.id)).toBe('listed');
    expect(await pageAfter(ok.id, ['status', '2xx'])).toBe('listed');
    expect(await pageAfter(ok.id, ['status', '4xx'])).toBe('starting_after_invalid');
    expect(await pageAfter(ok.id, ['method', 'POST'])).toBe('starting_after_invalid');
    expect(await pageAfter(ok.id, ['path_prefix', '/v1/clients'])).toBe('starting_after_invalid');
    expect(await pageAfter(ok.id, ['until', formatTime(ok.time)])).toBe('starting_after_invalid');
    expect(await pageAfter(ok.id, ['since', formatTime(ok.time + 1)])).toBe('starting_after_invalid');
    expect(await pageAfter(ok.id, ['since', formatTime(ok.time)])).toBe('listed');
    expect(await pageAfter(theirs.id)).toBe('starting_after_invalid');
    expect(await pageAfter(id('rqs_'))).toBe('starting_after_invalid');
    expect(await pageAfter('crv_abc')).toBe('starting_after_invalid');
    expect(await pageAfter(`rqs_${'a'.repeat(65)}`)).toBe('starting_after_invalid');
  });

  test("one environment's ports never list the other's history", async () => {
    const { integrationId, ports } = await setUp();
    await expect(
      listApiRequests(ports, { environment: 'sandbox', integrationId }, readApiRequestQuery([])),
    ).rejects.toThrow('the sandbox history is asked of the production ports');
  });
});
