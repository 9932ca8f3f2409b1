// Webhook endpoints and messages over DynamoDB Local: endpoints created, read back whole, replaced only
// when unchanged since read, deleted, listed per integration oldest first; the fan-out of an event as one
// transaction (its messages, each pending delivery, the event out of the outbox) that only one of two
// racing fan-outs wins; a test message; updates with their attempt, all or nothing, one at a time or
// many at once; the pending deliveries, paged oldest first; attempts by round and number; an endpoint's
// messages newest first.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDbEventOutbox } from '../../lambdas/adapters/dynamodb/event-outbox';
import { eventItem } from '../../lambdas/adapters/dynamodb/items';
import { keys } from '../../lambdas/adapters/dynamodb/keys';
import { DynamoDbRunStore } from '../../lambdas/adapters/dynamodb/run-store';
import { getItem } from '../../lambdas/adapters/dynamodb/table';
import { DynamoDbWebhookEndpointStore } from '../../lambdas/adapters/dynamodb/webhook-endpoint-store';
import { DynamoDbWebhookMessageStore } from '../../lambdas/adapters/dynamodb/webhook-message-store';
import { ConcurrentChange } from '../../lambdas/core/errors';
import type { ServiceEvent } from '../../lambdas/core/events';
import type { Micros, Scope } from '../../lambdas/core/model';
import { type DeliveryRun, type RunRequest, runSubject } from '../../lambdas/core/ports';
import type { DeliveryAttempt, WebhookEndpoint, WebhookMessage } from '../../lambdas/core/webhooks/model';
import { useTestDynamoDb } from '../support/dynamodb-local';
import {
  webhookEndpoint as endpoint,
  id,
  webhookMessage as message,
  SECOND,
  scopeIn,
  TestClock,
} from '../support/fixtures';

const db = useTestDynamoDb();

const setUp = async () => {
  const tableName = await db.freshTable();
  const clock = new TestClock();
  const endpoints = new DynamoDbWebhookEndpointStore(db.doc, tableName);
  const messages = new DynamoDbWebhookMessageStore(db.doc, tableName);
  const runs = new DynamoDbRunStore(db.doc, tableName, clock);
  const outbox = new DynamoDbEventOutbox(db.doc, tableName);
  const scope = scopeIn('production');
  /** Records an event in the outbox as a store's transaction would, a tick after the last write. */
  const recordEvent = async (of: Scope = scope): Promise<ServiceEvent> => {
    const event: ServiceEvent = {
      id: id('evt_'),
      type: 'clients.submitted',
      scope: of,
      occurredAt: clock.tick(),
      data: JSON.stringify({ client_id: id('cli_'), first_name: 'Zoë', note: '契約 ✓' }),
    };
    await db.doc.send(new PutCommand({ TableName: tableName, Item: eventItem(event) }));
    return event;
  };
  const messageItem = (id: string) => getItem(db.doc, tableName, keys.webhookMessage(id));
  return { tableName, clock, endpoints, messages, runs, outbox, scope, recordEvent, messageItem };
};

/** The runs of the messages pending delivery, oldest first. */
const pendingRuns = async (messages: DynamoDbWebhookMessageStore): Promise<DeliveryRun[]> =>
  (await messages.pendingDeliveries(100)).map(runOf);

const runOf = (m: Pick<WebhookMessage, 'id' | 'round' | 'scope'>): DeliveryRun => ({
  kind: 'delivery',
  environment: m.scope.environment,
  messageId: m.id,
  round: m.round,
});

const attempt = (
  round: number,
  number: number,
  at: Micros,
  status: number | null = 500,
): DeliveryAttempt => ({
  round,
  number,
  at,
  status,
  error: status === null ? 'connect ECONNREFUSED 203.0.113.7:443' : null,
  durationMs: 1234,
  body: status === null ? '' : `{"error":"busy — réessayez"}`,
});

/** Runs compared whatever order a tie of creation times gives them. */
const byMessage = (runs: RunRequest[]) =>
  [...runs].sort((a, b) => runSubjectOf(a).localeCompare(runSubjectOf(b)));
const runSubjectOf = (run: RunRequest) => `${run.kind}:${runSubject(run)}`;

describe('webhook endpoint store', () => {
  test('an endpoint reads back exactly as created; an unknown id reads as null; an id is never created twice', async () => {
    const { clock, endpoints, scope } = await setUp();
    const created = endpoint(scope, clock.tick(), { enabled: false });
    await endpoints.create(created);
    expect(await endpoints.get(created.id)).toEqual(created);
    expect(await endpoints.get('whe_unknown')).toBeNull();

    const again = { ...created, url: 'https://elsewhere.example.com/' };
    await expect(endpoints.create(again)).rejects.toThrow();
    expect(await endpoints.get(created.id)).toEqual(created);
  });

  test('update replaces it when unchanged since read; a stale read or a deleted endpoint is ConcurrentChange', async () => {
    const { clock, endpoints, scope } = await setUp();
    const created = endpoint(scope, clock.tick());
    await endpoints.create(created);
    const changed: WebhookEndpoint = {
      ...created,
      subscriptions: { 'clients.accepted': clock.tick() },
      secrets: [created.secrets[0] as WebhookEndpoint['secrets'][number]],
      enabled: false,
      updatedAt: clock.now(),
    };
    await endpoints.update(changed, created.updatedAt);
    expect(await endpoints.get(created.id)).toEqual(changed);

    // Written against the first read, after `changed` replaced it.
    const stale = { ...created, url: 'https://stale.example.com/', updatedAt: clock.tick() };
    const write = endpoints.update(stale, created.updatedAt);
    await expect(write).rejects.toBeInstanceOf(ConcurrentChange);
    await expect(write).rejects.toMatchObject({ recordId: created.id });
    expect(await endpoints.get(created.id)).toEqual(changed);

    await endpoints.delete(created.id);
    await expect(
      endpoints.update({ ...changed, updatedAt: clock.tick() }, changed.updatedAt),
    ).rejects.toBeInstanceOf(ConcurrentChange);
    expect(await endpoints.get(created.id)).toBeNull();
  });

  test('listByIntegration: every endpoint of the integration, oldest first, whatever their ids; delete takes one out', async () => {
    const { clock, endpoints, scope } = await setUp();
    const other = scopeIn('production', scope.organisationId);
    // Ids in the reverse order of creation: an order by id, or newest first, would differ.
    const c = endpoint(scope, clock.tick(), { id: 'whe_ccc' });
    const theirs = endpoint(other, clock.tick(), { id: 'whe_bbb_other' });
    const b = endpoint(scope, clock.tick(), { id: 'whe_bbb' });
    const a = endpoint(scope, clock.tick(), { id: 'whe_aaa' });
    for (const e of [c, theirs, b, a]) await endpoints.create(e);
    // A change later on keeps its place: the list is by creation.
    const changedC = { ...c, enabled: false, updatedAt: clock.tick() };
    await endpoints.update(changedC, c.updatedAt);

    expect(await endpoints.listByIntegration(scope.integrationId)).toEqual([changedC, b, a]);
    expect(await endpoints.listByIntegration(other.integrationId)).toEqual([theirs]);
    expect(await endpoints.listByIntegration('int_unknown')).toEqual([]);

    await endpoints.delete(b.id);
    expect(await endpoints.get(b.id)).toBeNull();
    expect(await endpoints.listByIntegration(scope.integrationId)).toEqual([changedC, a]);
    await expect(endpoints.delete('whe_never')).resolves.toBeUndefined();
  });
});

describe('webhook message store: fan-out', () => {
  test('records the messages, each pending delivery, and takes the event out of the outbox', async () => {
    const { clock, endpoints, messages, outbox, scope, recordEvent, messageItem } = await setUp();
    const first = endpoint(scope, clock.tick());
    const second = endpoint(scope, clock.tick());
    await endpoints.create(first);
    await endpoints.create(second);
    const event = await recordEvent();
    const later = await recordEvent();
    const now = clock.tick();
    const made = [
      message(first, now, { eventId: event.id, data: event.data }),
      message(second, now, { eventId: event.id, data: event.data }),
    ];

    expect(await messages.fanOut(event.id, made)).toBe(true);

    for (const m of made) expect(await messages.get(m.id)).toEqual(m);
    expect(byMessage(await pendingRuns(messages))).toEqual(byMessage(made.map(runOf)));
    // No item beside the message: it is its own delivery's record.
    expect(await messageItem((made[0] as WebhookMessage).id)).toMatchObject({ gsi2pk: 'DELIVERIES#pending' });
    expect((await outbox.pending(10)).map((e) => e.id)).toEqual([later.id]);
    // Out of the outbox, and still readable for redelivery.
    expect(await outbox.get(event.id)).toEqual(event);
    expect((await messages.listByEndpoint(first.id, { limit: 10 })).items).toEqual([made[0]]);
    expect(await messages.attempts(made[0]?.id as string)).toEqual([]);
  });

  test('an event with no subscribed endpoint leaves the outbox with nothing written', async () => {
    const { messages, outbox, recordEvent } = await setUp();
    const event = await recordEvent();
    expect(await messages.fanOut(event.id, [])).toBe(true);
    expect(await outbox.pending(10)).toEqual([]);
    expect(await pendingRuns(messages)).toEqual([]);
  });

  test('an event fanned out already: false, and nothing written', async () => {
    const { clock, endpoints, messages, outbox, scope, recordEvent } = await setUp();
    const target = endpoint(scope, clock.tick());
    await endpoints.create(target);
    const event = await recordEvent();
    const winner = message(target, clock.tick(), { eventId: event.id });
    expect(await messages.fanOut(event.id, [winner])).toBe(true);

    const late = message(target, clock.tick(), { eventId: event.id });
    expect(await messages.fanOut(event.id, [late])).toBe(false);
    expect(await messages.get(late.id)).toBeNull();
    expect(await pendingRuns(messages)).toEqual([runOf(winner)]);
    expect((await messages.listByEndpoint(target.id, { limit: 10 })).items).toEqual([winner]);
    expect(await outbox.pending(10)).toEqual([]);

    // An event never recorded is no pending event either.
    const stray = message(target, clock.tick());
    expect(await messages.fanOut('evt_never', [stray])).toBe(false);
    expect(await messages.get(stray.id)).toBeNull();
  });

  test('two fan-outs of one event at once: exactly one wins, and only its messages and runs exist', async () => {
    const { clock, endpoints, messages, outbox, scope, recordEvent } = await setUp();
    const target = endpoint(scope, clock.tick());
    await endpoints.create(target);
    const winners: WebhookMessage[] = [];
    for (let i = 0; i < 3; i++) {
      const event = await recordEvent();
      const now = clock.tick();
      const mine = [message(target, now, { eventId: event.id }), message(target, now, { eventId: event.id })];
      const yours = [
        message(target, now, { eventId: event.id }),
        message(target, now, { eventId: event.id }),
      ];

      const results = await Promise.all([messages.fanOut(event.id, mine), messages.fanOut(event.id, yours)]);

      expect([...results].sort()).toEqual([false, true]);
      const [won, lost] = results[0] ? [mine, yours] : [yours, mine];
      for (const m of won) expect(await messages.get(m.id)).toEqual(m);
      for (const m of lost) expect(await messages.get(m.id)).toBeNull();
      winners.push(...won);
    }
    expect(byMessage(await pendingRuns(messages))).toEqual(byMessage(winners.map(runOf)));
    expect((await messages.listByEndpoint(target.id, { limit: 20 })).items).toHaveLength(winners.length);
    expect(await outbox.pending(10)).toEqual([]);
  });

  test('a fan-out that cannot write a message writes nothing and leaves the event pending', async () => {
    const { clock, endpoints, messages, outbox, scope, recordEvent } = await setUp();
    const target = endpoint(scope, clock.tick());
    await endpoints.create(target);
    const taken = message(target, clock.tick());
    await messages.create(taken);
    const event = await recordEvent();
    const fresh = message(target, clock.tick(), { eventId: event.id });
    // The second message's id is taken: the whole transaction is refused.
    await expect(
      messages.fanOut(event.id, [fresh, { ...taken, eventId: event.id, createdAt: clock.tick() }]),
    ).rejects.toThrow('a transaction condition failed unexpectedly');
    expect(await messages.get(fresh.id)).toBeNull();
    expect(await messages.get(taken.id)).toEqual(taken);
    expect((await outbox.pending(10)).map((e) => e.id)).toEqual([event.id]);
    expect(await pendingRuns(messages)).toEqual([runOf(taken)]);
  });
});

describe('webhook message store: messages, attempts and runs', () => {
  test('create records a test message with the run of its first round; an id is never created twice', async () => {
    const { clock, endpoints, messages, scope } = await setUp();
    const target = endpoint(scope, clock.tick());
    await endpoints.create(target);
    const testMessage = message(target, clock.tick(), {
      eventId: null,
      type: 'test',
      test: true,
      data: '{"channel":"review_snapshot","url":"https://pages.example.com/example/"}',
    });
    await messages.create(testMessage);
    expect(await messages.get(testMessage.id)).toEqual(testMessage);
    expect(await pendingRuns(messages)).toEqual([runOf(testMessage)]);

    await expect(messages.create({ ...testMessage, data: '{}' })).rejects.toThrow();
    expect(await messages.get(testMessage.id)).toEqual(testMessage);
    expect(await pendingRuns(messages)).toEqual([runOf(testMessage)]);
  });

  test('update records its attempt; attempts come back by round and number, whatever order they were written in', async () => {
    const { clock, endpoints, messages, scope } = await setUp();
    const target = endpoint(scope, clock.tick());
    await endpoints.create(target);
    const first = message(target, clock.tick());
    const other = message(target, clock.tick());
    await messages.create(first);
    await messages.create(other);

    // Round 10 before 9 and 2: by number, not by text; round 1's attempts out of order.
    const written = [
      attempt(10, 1, clock.tick(), 503),
      attempt(1, 2, clock.tick(), null),
      attempt(9, 8, clock.tick(), 500),
      attempt(1, 1, clock.tick(), 500),
      attempt(2, 1, clock.tick(), 200),
    ];
    let current = first;
    for (const a of written) {
      const next = {
        ...current,
        round: a.round,
        attemptsInRound: a.number,
        nextAttemptAt: clock.tick() + 60 * SECOND,
        updatedAt: clock.now(),
      };
      await messages.update(next, current.updatedAt, { attempt: a });
      current = next;
    }
    expect(await messages.get(first.id)).toEqual(current);
    const [r10, r1n2, r9, r1n1, r2] = written as [
      DeliveryAttempt,
      DeliveryAttempt,
      DeliveryAttempt,
      DeliveryAttempt,
      DeliveryAttempt,
    ];
    expect(await messages.attempts(first.id)).toEqual([r1n1, r1n2, r2, r9, r10]);
    expect(await messages.attempts(other.id)).toEqual([]);
  });

  test('an update that ends the round takes the message out of the pending deliveries in the same write', async () => {
    const { clock, endpoints, messages, scope, messageItem } = await setUp();
    const target = endpoint(scope, clock.tick());
    await endpoints.create(target);
    const m = message(target, clock.tick());
    const stillGoing = message(target, clock.tick());
    await messages.create(m);
    await messages.create(stillGoing);
    const at = clock.tick();
    const delivered = {
      ...m,
      state: 'delivered' as const,
      attemptsInRound: 1,
      nextAttemptAt: null,
      updatedAt: at,
    };

    await messages.update(delivered, m.updatedAt, { attempt: attempt(1, 1, at, 200) });

    expect(await messages.get(m.id)).toEqual(delivered);
    expect(await messages.attempts(m.id)).toEqual([attempt(1, 1, at, 200)]);
    expect(await pendingRuns(messages)).toEqual([runOf(stillGoing)]);
    expect(await messageItem(m.id)).not.toHaveProperty('gsi2pk');
  });

  test("a redelivery's new round puts the message back among the pending deliveries", async () => {
    const { clock, endpoints, messages, scope } = await setUp();
    const target = endpoint(scope, clock.tick());
    await endpoints.create(target);
    const m = message(target, clock.tick());
    await messages.create(m);
    const failed = {
      ...m,
      state: 'failed' as const,
      attemptsInRound: 8,
      nextAttemptAt: null,
      updatedAt: clock.tick(),
    };
    await messages.update(failed, m.updatedAt, { attempt: attempt(1, 8, clock.now()) });
    expect(await pendingRuns(messages)).toEqual([]);

    const now = clock.tick();
    const again = {
      ...failed,
      state: 'pending' as const,
      round: 2,
      attemptsInRound: 0,
      nextAttemptAt: now,
      updatedAt: now,
    };
    await messages.update(again, failed.updatedAt, {});

    expect(await messages.get(m.id)).toEqual(again);
    expect(await pendingRuns(messages)).toEqual([{ ...runOf(m), round: 2 }]);
  });

  test('an update against a stale read is ConcurrentChange, and none of its effects is written', async () => {
    const { clock, endpoints, messages, scope } = await setUp();
    const target = endpoint(scope, clock.tick());
    await endpoints.create(target);
    const m = message(target, clock.tick());
    await messages.create(m);
    const first = {
      ...m,
      attemptsInRound: 1,
      nextAttemptAt: clock.tick() + 60 * SECOND,
      updatedAt: clock.now(),
    };
    await messages.update(first, m.updatedAt, { attempt: attempt(1, 1, clock.now()) });

    // Another writer's view from before `first`: refused with every effect.
    const stale = {
      ...m,
      state: 'delivered' as const,
      attemptsInRound: 1,
      nextAttemptAt: null,
      updatedAt: clock.tick(),
    };
    const write = messages.update(stale, m.updatedAt, { attempt: attempt(1, 1, clock.now(), 200) });
    await expect(write).rejects.toBeInstanceOf(ConcurrentChange);
    await expect(write).rejects.toMatchObject({ recordId: m.id });
    expect(await messages.get(m.id)).toEqual(first);
    expect(await messages.attempts(m.id)).toEqual([attempt(1, 1, first.updatedAt)]);
    expect(await pendingRuns(messages)).toEqual([runOf(m)]);

    const ghost = message(target, clock.tick());
    await expect(messages.update(ghost, ghost.updatedAt, {})).rejects.toBeInstanceOf(ConcurrentChange);
    expect(await messages.get(ghost.id)).toBeNull();
  });

  test('getMany reads the messages that exist, by id, in one call (and the endpoint store its endpoints)', async () => {
    const { clock, endpoints, messages, scope } = await setUp();
    const [a, b] = [endpoint(scope, clock.tick()), endpoint(scope, clock.tick())];
    await endpoints.create(a);
    await endpoints.create(b);
    const [m1, m2] = [message(a, clock.tick()), message(b, clock.tick())];
    await messages.create(m1);
    await messages.create(m2);
    const ghost = id('msg_');
    expect(await messages.getMany([m2.id, ghost, m1.id, m2.id])).toEqual(
      new Map([
        [m2.id, m2],
        [m1.id, m1],
      ]),
    );
    expect(await messages.getMany([])).toEqual(new Map());
    expect(await endpoints.getMany([a.id, b.id, id('whe_')])).toEqual(
      new Map([
        [a.id, a],
        [b.id, b],
      ]),
    );
  });

  test('updateMany writes every change with its effects when all apply; with one stale, the others still, and answers which', async () => {
    const { clock, endpoints, messages, scope } = await setUp();
    const target = endpoint(scope, clock.tick());
    await endpoints.create(target);
    const made = [
      message(target, clock.tick()),
      message(target, clock.tick()),
      message(target, clock.tick()),
    ];
    for (const m of made) await messages.create(m);
    const delivered = (m: WebhookMessage) => ({
      message: {
        ...m,
        state: 'delivered' as const,
        attemptsInRound: 1,
        nextAttemptAt: null,
        updatedAt: m.updatedAt + 1,
      },
      expectedUpdatedAt: m.updatedAt,
      effects: { attempt: attempt(1, 1, m.updatedAt + 1, 200) },
    });
    expect(await messages.updateMany(made.slice(0, 2).map(delivered))).toEqual([true, true]);
    for (const m of made.slice(0, 2)) {
      expect(await messages.get(m.id)).toMatchObject({ state: 'delivered', updatedAt: m.updatedAt + 1 });
      expect(await messages.attempts(m.id)).toHaveLength(1);
    }
    expect(await pendingRuns(messages)).toEqual([runOf(made[2] as WebhookMessage)]);

    // The first two again, as read before: stale; the third still applies and is written alone.
    const again = made.map(delivered);
    expect(await messages.updateMany(again)).toEqual([false, false, true]);
    expect(await messages.get((made[2] as WebhookMessage).id)).toMatchObject({ state: 'delivered' });
    expect(await messages.attempts((made[0] as WebhookMessage).id)).toHaveLength(1);
    expect(await pendingRuns(messages)).toEqual([]);
    expect(await messages.updateMany([])).toEqual([]);
  });

  test('pendingDeliveries pages through the pending messages oldest first, from after a given one, even one delivered since; no run is recorded for them', async () => {
    const { clock, endpoints, messages, runs, scope } = await setUp();
    const target = endpoint(scope, clock.tick());
    await endpoints.create(target);
    const made: WebhookMessage[] = [];
    for (let i = 0; i < 5; i++) {
      const m = message(target, clock.tick());
      await messages.create(m);
      made.push(m);
    }
    const page = async (limit: number, after?: WebhookMessage) =>
      (await messages.pendingDeliveries(limit, after)).map((m) => m.id);
    const ids = made.map((m) => m.id);
    expect(await messages.pendingDeliveries(2)).toEqual(made.slice(0, 2));
    expect(await page(2, made[1])).toEqual(ids.slice(2, 4));
    expect(await page(2, made[3])).toEqual(ids.slice(4));
    const second = made[1] as WebhookMessage;
    await messages.update(
      { ...second, state: 'delivered', nextAttemptAt: null, updatedAt: clock.tick() },
      second.updatedAt,
      {},
    );
    expect(await page(10)).toEqual([ids[0], ...ids.slice(2)]);
    expect(await page(10, second)).toEqual(ids.slice(2));
    expect(await runs.unfinished(10)).toEqual([]);
  });

  test("listByEndpoint: an endpoint's messages newest first, up to the limit, no other endpoint's", async () => {
    const { clock, endpoints, messages, scope } = await setUp();
    const target = endpoint(scope, clock.tick());
    const other = endpoint(scope, clock.tick());
    await endpoints.create(target);
    await endpoints.create(other);
    // Ids against the order of creation: an order by id would differ.
    const made = ['msg_ddd', 'msg_ccc', 'msg_bbb', 'msg_aaa'].map((messageId) =>
      message(target, clock.tick(), { id: messageId }),
    );
    const theirs = message(other, clock.tick());
    for (const m of [...made, theirs]) await messages.create(m);
    // An update later keeps the message in its place: the list is by creation.
    const updated = { ...made[0], attemptsInRound: 1, updatedAt: clock.tick() } as WebhookMessage;
    await messages.update(updated, made[0]?.updatedAt as Micros, {});

    const newestFirst = [made[3], made[2], made[1], updated];
    expect((await messages.listByEndpoint(target.id, { limit: 10 })).items).toEqual(newestFirst);
    expect((await messages.listByEndpoint(target.id, { limit: 2 })).items).toEqual(newestFirst.slice(0, 2));
    expect((await messages.listByEndpoint(other.id, { limit: 10 })).items).toEqual([theirs]);
    expect((await messages.listByEndpoint('whe_unknown', { limit: 10 })).items).toEqual([]);
  });

  test('listByEndpoint pages on from a message and keeps only a state when asked, filling each page', async () => {
    const { clock, endpoints, messages, scope } = await setUp();
    const target = endpoint(scope, clock.tick());
    await endpoints.create(target);
    // Oldest first: delivered, pending, delivered, failed, delivered, delivered.
    const states: WebhookMessage['state'][] = [
      'delivered',
      'pending',
      'delivered',
      'failed',
      'delivered',
      'delivered',
    ];
    const made = states.map((state) => message(target, clock.tick(), { state }));
    for (const m of made) await messages.create(m);
    const newestFirst = [...made].reverse();
    const delivered = newestFirst.filter((m) => m.state === 'delivered');

    const first = await messages.listByEndpoint(target.id, { limit: 2, state: 'delivered' });
    expect(first).toEqual({ items: delivered.slice(0, 2), hasMore: true });
    const second = await messages.listByEndpoint(target.id, {
      limit: 2,
      state: 'delivered',
      startingAfter: first.items[1],
    });
    // The page is full although a failed message lies between: the filter reads on.
    expect(second).toEqual({ items: delivered.slice(2, 4), hasMore: false });
    expect((await messages.listByEndpoint(target.id, { limit: 10, state: 'failed' })).items).toEqual(
      newestFirst.filter((m) => m.state === 'failed'),
    );
    const after = await messages.listByEndpoint(target.id, { limit: 3, startingAfter: newestFirst[2] });
    expect(after).toEqual({ items: newestFirst.slice(3), hasMore: false });
  });
});
