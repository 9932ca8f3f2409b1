// unit -> webhook endpoints and delivery (lambdas/core/webhooks/endpoints.ts, delivery.ts) over in-memory
// ports: a clock that moves only when told, ids counted from 1, stores keeping records in maps, a sender
// answering as scripted and keeping every request, a delivery queue recording what it is handed. The fan-out's choice
// of endpoints, the 8 attempts on the schedule (scaled by delayScale), every request verified with the
// independent `standardwebhooks` verifier at the time it was sent, rotations, redeliveries, test events,
// and the endpoint rules.
import { afterEach, describe, expect, jest, test } from '@jest/globals';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { ConcurrentChange, ServiceError } from '../../lambdas/core/errors';
import { EVENT_TYPES, type EventType, type ServiceEvent } from '../../lambdas/core/events';
import type { Micros, Page, Scope } from '../../lambdas/core/model';
import type {
  AttemptOutcome,
  Clock,
  DeliveryQueue,
  DeliveryRun,
  DueDelivery,
  EventBus,
  EventOutbox,
  Ids,
  MessageChange,
  Ports,
  WebhookEndpointStore,
  WebhookMessageStore,
  WebhookSender,
} from '../../lambdas/core/ports';
import { formatTime, HOUR, MINUTE, SECOND } from '../../lambdas/core/time';
import { waitUntil } from '../../lambdas/core/timed-step';
import {
  attemptDeliveries,
  attemptDelivery,
  CLAIM_MICROS,
  type DeliveryStep,
  fanOutEvent,
  redeliverMessage,
  redriveDeliveries,
  sendTestEvent,
} from '../../lambdas/core/webhooks/delivery';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  type EndpointPolicy,
  endpointScope,
  MAX_ENDPOINTS,
  ownEndpoint,
  presentWebhookEndpoint,
  ROTATION_OVERLAP_MS,
  receives,
  rotateWebhookEndpointSecret,
  setWebhookEndpointEnabled,
  signingSecrets,
  updateWebhookEndpointEvents,
} from '../../lambdas/core/webhooks/endpoints';
import { messageScope } from '../../lambdas/core/webhooks/messages';
import type { DeliveryAttempt, WebhookEndpoint, WebhookMessage } from '../../lambdas/core/webhooks/model';
import { publishPending, REPUBLISH_AFTER } from '../../lambdas/core/webhooks/publish';
import { isSigningSecret, testEventData } from '../../lambdas/core/webhooks/signing';
import { TestClock } from '../support/fixtures';
import { linesOf } from '../support/log-capture';

const T0: Micros = Date.UTC(2026, 10, 21, 9, 30) * 1000;
const SCOPE: Scope = { organisationId: 'org_harbour', integrationId: 'int_sales', environment: 'production' };
const OTHER_INTEGRATION: Scope = { ...SCOPE, integrationId: 'int_other' };
const OTHER_ORGANISATION: Scope = { ...SCOPE, organisationId: 'org_other' };
const SANDBOX: Scope = { ...SCOPE, environment: 'sandbox' };
const DEPLOYED: EndpointPolicy = { allowLoopbackHttp: false };
const HOOK_URL = 'https://hooks.example.com/service';
const PAGES = 'https://pages.example.com';

/** The pauses after failed attempts 1 to 7 (interface.md "Delivery"), written out rather than imported. */
const SCHEDULE: readonly Micros[] = [
  1 * MINUTE,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  6 * HOUR,
  12 * HOUR,
  24 * HOUR,
];

// The fakes

const copy = <T>(value: T): T => structuredClone(value);

/** Ids counted from 1 (`whe_1`, `evt_2`, `msg_3`, …). */
const sequentialIds = (): Ids => {
  let n = 0;
  return {
    id: (prefix) => `${prefix}_${++n}`,
    secret: (prefix) => `${prefix}secret${++n}`,
  };
};

/** The records of `ids` that exist, by id. */
const presentOf = async <T>(
  ids: readonly string[],
  get: (id: string) => Promise<T | null>,
): Promise<Map<string, T>> => {
  const found = new Map<string, T>();
  for (const id of ids) {
    const record = await get(id);
    if (record !== null) found.set(id, record);
  }
  return found;
};

class FakeEndpointStore implements WebhookEndpointStore {
  readonly records = new Map<string, WebhookEndpoint>();
  /** Writers that get in first, one before each coming update: concurrent changes. */
  readonly interleaved: Array<() => void> = [];
  updates = 0;

  async create(endpoint: WebhookEndpoint): Promise<void> {
    if (this.records.has(endpoint.id)) throw new Error(`${endpoint.id} exists already`);
    this.records.set(endpoint.id, copy(endpoint));
  }
  async update(endpoint: WebhookEndpoint, expectedUpdatedAt: Micros): Promise<void> {
    this.updates++;
    this.interleaved.shift()?.();
    const current = this.records.get(endpoint.id);
    if (!current || current.updatedAt !== expectedUpdatedAt) throw new ConcurrentChange(endpoint.id);
    this.records.set(endpoint.id, copy(endpoint));
  }
  async delete(id: string): Promise<void> {
    this.records.delete(id);
  }
  async get(id: string): Promise<WebhookEndpoint | null> {
    const endpoint = this.records.get(id);
    return endpoint ? copy(endpoint) : null;
  }
  async getMany(ids: readonly string[]): Promise<Map<string, WebhookEndpoint>> {
    return presentOf(ids, (id) => this.get(id));
  }
  async listByIntegration(integrationId: string): Promise<WebhookEndpoint[]> {
    return [...this.records.values()]
      .filter((e) => e.scope.integrationId === integrationId)
      .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id))
      .map(copy);
  }
}

class FakeOutbox implements EventOutbox {
  readonly events = new Map<string, ServiceEvent>();
  /** In the order recorded: oldest first. */
  readonly pendingIds = new Set<string>();

  record(event: ServiceEvent): void {
    this.events.set(event.id, copy(event));
    this.pendingIds.add(event.id);
  }
  async pending(limit: number): Promise<ServiceEvent[]> {
    return [...this.pendingIds].slice(0, limit).map((id) => copy(this.events.get(id) as ServiceEvent));
  }
  readonly publishedAt = new Map<string, Micros>();
  async publishable(limit: number, publishedBefore: Micros): Promise<ServiceEvent[]> {
    const due = [...this.pendingIds].filter((id) => (this.publishedAt.get(id) ?? -1) < publishedBefore);
    return due.slice(0, limit).map((id) => copy(this.events.get(id) as ServiceEvent));
  }
  async markPublished(eventIds: readonly string[], at: Micros): Promise<void> {
    for (const id of eventIds) if (this.pendingIds.has(id)) this.publishedAt.set(id, at);
  }
  async acknowledge(eventId: string): Promise<void> {
    this.pendingIds.delete(eventId);
  }
  async get(eventId: string): Promise<ServiceEvent | null> {
    const event = this.events.get(eventId);
    return event ? copy(event) : null;
  }
}

const runOf = (message: Pick<WebhookMessage, 'id' | 'round' | 'scope'>): DeliveryRun => ({
  kind: 'delivery',
  environment: message.scope.environment,
  messageId: message.id,
  round: message.round,
});

class FakeMessageStore implements WebhookMessageStore {
  readonly records = new Map<string, WebhookMessage>();
  readonly attemptLog = new Map<string, DeliveryAttempt[]>();
  /** Writers that get in first, one before each coming update. */
  readonly interleaved: Array<() => void> = [];

  constructor(private readonly outbox: FakeOutbox) {}

  private add(message: WebhookMessage): void {
    if (this.records.has(message.id)) throw new Error(`${message.id} exists already`);
    this.records.set(message.id, copy(message));
  }
  async fanOut(eventId: string, messages: WebhookMessage[]): Promise<boolean> {
    if (!this.outbox.pendingIds.has(eventId)) return false;
    this.outbox.pendingIds.delete(eventId);
    for (const message of messages) this.add(message);
    return true;
  }
  async create(message: WebhookMessage): Promise<void> {
    this.add(message);
  }
  async get(id: string): Promise<WebhookMessage | null> {
    const message = this.records.get(id);
    return message ? copy(message) : null;
  }
  async getMany(ids: readonly string[]): Promise<Map<string, WebhookMessage>> {
    return presentOf(ids, (id) => this.get(id));
  }
  async pendingDeliveries(limit: number, after?: WebhookMessage): Promise<WebhookMessage[]> {
    const pending = [...this.records.values()]
      .filter((m) => m.state === 'pending')
      .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
    const from = after ? pending.findIndex((m) => m.id === after.id) + 1 : 0;
    return pending.slice(from, from + limit).map(copy);
  }
  /** Each change on its own, in order (the adapter's fallback; its one transaction is tested on DynamoDB Local). */
  async updateMany(changes: readonly MessageChange[]): Promise<boolean[]> {
    const written: boolean[] = [];
    for (const { message, expectedUpdatedAt, effects } of changes)
      written.push(
        await this.update(message, expectedUpdatedAt, effects).then(
          () => true,
          (error: unknown) => {
            if (error instanceof ConcurrentChange) return false;
            throw error;
          },
        ),
      );
    return written;
  }
  async update(
    message: WebhookMessage,
    expectedUpdatedAt: Micros,
    effects: { attempt?: DeliveryAttempt; finish?: DeliveryRun; start?: DeliveryRun },
  ): Promise<void> {
    this.interleaved.shift()?.();
    const current = this.records.get(message.id);
    if (!current || current.updatedAt !== expectedUpdatedAt) throw new ConcurrentChange(message.id);
    this.records.set(message.id, copy(message));
    if (effects.attempt) {
      const log = this.attemptLog.get(message.id) ?? [];
      log.push(copy(effects.attempt));
      this.attemptLog.set(message.id, log);
    }
  }
  async attempts(messageId: string): Promise<DeliveryAttempt[]> {
    return [...(this.attemptLog.get(messageId) ?? [])]
      .sort((a, b) => a.round - b.round || a.number - b.number)
      .map(copy);
  }
  async listByEndpoint(endpointId: string, { limit }: { limit: number }): Promise<Page<WebhookMessage>> {
    const all = [...this.records.values()]
      .filter((m) => m.endpointId === endpointId)
      .sort((a, b) => b.createdAt - a.createdAt || b.id.localeCompare(a.id));
    return { items: all.slice(0, limit).map(copy), hasMore: all.length > limit };
  }
}

interface SentRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The clock when it was sent. */
  at: Micros;
}

/** What a receiver answering `status` comes to; null: no answer at all. */
const answer = (status: number | null): AttemptOutcome =>
  status === null
    ? { status: null, error: 'connect ECONNREFUSED 203.0.113.7:443', durationMs: 3, body: '' }
    : { status, error: null, durationMs: 42, body: status < 300 ? 'thanks' : `status ${status}` };

class FakeSender implements WebhookSender {
  readonly requests: SentRequest[] = [];
  /** Answers in order; once they run out, `otherwise`. */
  readonly script: AttemptOutcome[] = [];
  otherwise: AttemptOutcome = answer(200);

  constructor(private readonly clock: Clock) {}

  async send(request: { url: string; headers: Record<string, string>; body: string }) {
    this.requests.push({ ...copy(request), at: this.clock.now() });
    return this.script.shift() ?? this.otherwise;
  }
}

class FakeDeliveryQueue implements DeliveryQueue {
  readonly scheduled: DueDelivery[] = [];
  failing = false;
  async schedule(deliveries: readonly DueDelivery[]): Promise<void> {
    if (this.failing) throw new Error('SQS is unavailable');
    this.scheduled.push(...deliveries.map(copy));
  }
  /** The runs handed on, in order. */
  get handedOn(): DeliveryRun[] {
    return this.scheduled.map(({ run }) => run);
  }
}

type DeliveryPorts = Pick<
  Ports,
  'clock' | 'deliveryQueue' | 'ids' | 'outbox' | 'webhookEndpoints' | 'webhookMessages' | 'webhookSender'
>;

const world = () => {
  const clock = new TestClock(T0);
  const ids = sequentialIds();
  const outbox = new FakeOutbox();

  const endpoints = new FakeEndpointStore();
  const messages = new FakeMessageStore(outbox);
  const sender = new FakeSender(clock);
  const queue = new FakeDeliveryQueue();
  const ports: DeliveryPorts = {
    clock,
    deliveryQueue: queue,
    ids,
    outbox,
    webhookEndpoints: endpoints,
    webhookMessages: messages,
    webhookSender: sender,
  };
  return { clock, ids, outbox, endpoints, messages, sender, queue, ports };
};
type World = ReturnType<typeof world>;

// Helpers

const register = (w: World, events: EventType[], scope: Scope = SCOPE, url = HOOK_URL) =>
  createWebhookEndpoint(w.ports, scope, { url, events }, DEPLOYED);

/** An event that happens now, recorded in the outbox. */
const happen = (w: World, type: EventType, scope: Scope = SCOPE): ServiceEvent => {
  const event: ServiceEvent = {
    id: w.ids.id('evt'),
    type,
    scope,
    occurredAt: w.clock.now(),
    data: JSON.stringify({ client_id: 'cli_7', reference: 'sale-14-wattle-grove', note: 'Zoë ✓' }),
  };
  w.outbox.record(event);
  return event;
};

/** Registers an endpoint, lets an event happen a second later and fans it out: the one message. */
const oneMessage = async (w: World, type: EventType = 'clients.submitted') => {
  const registered = await register(w, [type]);
  w.clock.advance(SECOND);
  const event = happen(w, type);
  const made = await fanOutEvent(w.ports, event);
  expect(made).toHaveLength(1);
  const message = made[0] as WebhookMessage;
  // The workflow starts a moment after the fan-out.
  w.clock.advance(SECOND);
  return { ...registered, event, message, run: runOf(message) };
};

/** Registers `n` endpoints, lets an event happen a second later and fans it out: its `n` messages. */
const messagesOfOneEvent = async (w: World, n: number): Promise<WebhookMessage[]> => {
  for (let i = 0; i < n; i++) await register(w, ['clients.submitted']);
  w.clock.advance(SECOND);
  const made = await fanOutEvent(w.ports, happen(w, 'clients.submitted'));
  expect(made).toHaveLength(n);
  return made;
};

/** The runs of the messages pending delivery, oldest first. */
const pendingRuns = async (w: World): Promise<DeliveryRun[]> =>
  (await w.messages.pendingDeliveries(100)).map(runOf);

const stored = async (w: World, id: string): Promise<WebhookMessage> => {
  const message = await w.messages.get(id);
  if (message === null) throw new Error(`${id} is not stored`);
  return message;
};

/** Runs a round's workflow as the ASL does: attempt, wait until the due time, attempt again, until done. */
const drive = async (w: World, run: DeliveryRun, delayScale = 1): Promise<DeliveryStep[]> => {
  const steps: DeliveryStep[] = [];
  for (let i = 0; i < 40; i++) {
    const step = await attemptDelivery(w.ports, run, delayScale);
    steps.push(step);
    if (step.done) return steps;
    w.clock.until(Date.parse(step.dueAt) * 1000);
  }
  throw new Error('the round did not end within 40 steps');
};

/** What the standardwebhooks verifier says of a request, its clock at `atMicros` (the sending time). */
const verdict = (secret: string, request: SentRequest, atMicros: Micros = request.at): string => {
  const clock = jest.spyOn(Date, 'now').mockReturnValue(Math.floor(atMicros / 1000));
  try {
    new Webhook(secret).verify(request.body, request.headers);
    return 'verified';
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.message;
    throw error;
  } finally {
    clock.mockRestore();
  }
};

const refusal = async (action: Promise<unknown>): Promise<string> => {
  try {
    await action;
  } catch (error) {
    if (error instanceof ServiceError) return `${error.code}: ${error.message}`;
    throw error;
  }
  throw new Error('the action was not refused');
};

afterEach(() => {
  jest.restoreAllMocks();
});

// Fan-out

describe('fan-out', () => {
  test('an event goes to each enabled endpoint of its scope subscribed to it when it happened, and no other', async () => {
    const w = world();
    const both = await register(w, ['clients.submitted', 'clients.accepted']);
    const otherType = await register(w, ['clients.accepted']);
    const disabled = await register(w, ['clients.submitted']);
    await setWebhookEndpointEnabled(w.ports, SCOPE, disabled.endpoint.id, false);
    await register(w, ['clients.submitted'], OTHER_INTEGRATION);
    // Another environment's endpoint of the same integration (another table when deployed).
    w.endpoints.records.set('whe_sandbox', { ...both.endpoint, id: 'whe_sandbox', scope: SANDBOX });
    w.clock.advance(SECOND);
    // Subscribed at the very moment the event happens: it receives it.
    const atTheMoment = await register(w, ['clients.submitted']);
    const event = happen(w, 'clients.submitted');
    w.clock.advance(1);
    // Subscribed one microsecond after: nothing of it, whether a new endpoint or a new event choice.
    await register(w, ['clients.submitted']);
    await updateWebhookEndpointEvents(w.ports, SCOPE, otherType.endpoint.id, [
      'clients.accepted',
      'clients.submitted',
    ]);
    w.clock.advance(SECOND);
    const fanOutAt = w.clock.now();

    const made = await fanOutEvent(w.ports, event);

    expect(made.map((m) => m.endpointId)).toEqual([both.endpoint.id, atTheMoment.endpoint.id]);
    for (const message of made)
      expect(message).toEqual({
        id: expect.stringMatching(/^msg_\d+$/),
        eventId: event.id,
        endpointId: message.endpointId,
        scope: SCOPE,
        type: 'clients.submitted',
        occurredAt: event.occurredAt,
        data: event.data,
        test: false,
        state: 'pending',
        round: 1,
        attemptsInRound: 0,
        nextAttemptAt: fanOutAt,
        claimedUntil: null,
        createdAt: fanOutAt,
        updatedAt: fanOutAt,
      });
    expect(new Set(made.map((m) => m.id)).size).toBe(2);
    for (const message of made) expect(await w.messages.get(message.id)).toEqual(message);
    expect(w.messages.records.size).toBe(2);
    // Each message's first round is recorded and started; the event has left the outbox.
    expect(await pendingRuns(w)).toEqual(made.map(runOf));
    expect(w.queue.handedOn).toEqual(made.map(runOf));
    expect(await w.outbox.pending(10)).toEqual([]);
    expect(await w.outbox.get(event.id)).toEqual(event);
  });

  test('receives: enabled, subscribed to the type, and subscribed no later than the event', async () => {
    const w = world();
    const { endpoint } = await register(w, ['clients.accepted']);
    expect(receives(endpoint, 'clients.accepted', T0)).toBe(true);
    expect(receives(endpoint, 'clients.accepted', T0 + HOUR)).toBe(true);
    expect(receives(endpoint, 'clients.accepted', T0 - 1)).toBe(false);
    expect(receives(endpoint, 'clients.submitted', T0 + HOUR)).toBe(false);
    expect(receives({ ...endpoint, enabled: false }, 'clients.accepted', T0 + HOUR)).toBe(false);
  });

  test('an event with no subscriber leaves the outbox with no message', async () => {
    const w = world();
    await register(w, ['clients.accepted']);
    w.clock.advance(SECOND);
    const event = happen(w, 'contract-reviews.analysis.completed');
    expect(await fanOutEvent(w.ports, event)).toEqual([]);
    expect(await w.outbox.pending(10)).toEqual([]);
    expect(w.messages.records.size).toBe(0);
    expect(w.queue.handedOn).toEqual([]);
  });

  test('an event fanned out already makes nothing more and starts nothing', async () => {
    const w = world();
    const { event, message } = await oneMessage(w);
    expect(await fanOutEvent(w.ports, event)).toEqual([]);
    expect([...w.messages.records.keys()]).toEqual([message.id]);
    expect(w.queue.handedOn).toEqual([runOf(message)]);
    expect(await pendingRuns(w)).toEqual([runOf(message)]);
  });

  test('publishPending publishes the oldest pending events up to its limit, each once until it is due again', async () => {
    const w = world();
    const published: ServiceEvent[][] = [];
    const bus: EventBus = { publish: async (events) => void published.push(events.map(copy)) };
    w.clock.advance(SECOND);
    const events = [happen(w, 'clients.submitted'), happen(w, 'clients.submitted')];
    w.clock.advance(1);
    events.push(happen(w, 'clients.submitted'));

    expect(await publishPending(w.ports, bus, { limit: 2 })).toBe(2);
    expect(await publishPending(w.ports, bus, { limit: 2 })).toBe(1);
    expect(await publishPending(w.ports, bus, { limit: 2 })).toBe(0);
    expect(published.flat()).toEqual(events);
    // Fanned out meanwhile: never published again. Not fanned out a minute on: published again.
    await fanOutEvent(w.ports, events[0] as ServiceEvent);
    w.clock.advance(REPUBLISH_AFTER + 1);
    expect(await publishPending(w.ports, bus)).toBe(2);
    expect(published.at(-1)?.map((e) => e.id)).toEqual([events[1]?.id, events[2]?.id]);
  });

  test('a bus that refuses leaves the events publishable: nothing is marked published', async () => {
    const w = world();
    const event = happen(w, 'clients.submitted');
    const refusing: EventBus = {
      publish: async () => {
        throw new Error('the bus is down');
      },
    };
    await expect(publishPending(w.ports, refusing)).rejects.toThrow('the bus is down');
    const seen: string[] = [];
    expect(
      await publishPending(w.ports, { publish: async (e) => void seen.push(...e.map((x) => x.id)) }),
    ).toBe(1);
    expect(seen).toEqual([event.id]);
  });

  test('a queue that refuses the deliveries loses nothing: the recorded runs are there for the re-drive', async () => {
    const w = world();
    await register(w, ['clients.submitted']);
    await register(w, ['clients.submitted']);
    w.clock.advance(SECOND);
    const event = happen(w, 'clients.submitted');
    w.queue.failing = true;
    let made: Awaited<ReturnType<typeof fanOutEvent>> = [];
    const logged = await linesOf(async () => {
      made = await fanOutEvent(w.ports, event);
    });
    expect(made).toHaveLength(2);
    expect(await pendingRuns(w)).toEqual(made.map(runOf));
    expect(await w.outbox.pending(10)).toEqual([]);
    expect(logged.map((line) => [line.level, line.message, line.ids])).toEqual([
      ['WARN', 'deliveries not handed to the queue; the re-drive will', made.map((message) => message.id)],
    ]);
  });
});

// Attempts

describe('attemptDelivery', () => {
  test('a 2xx answer delivers the message and ends the round with it', async () => {
    const w = world();
    const { endpoint, message, run } = await oneMessage(w);
    const at = w.clock.now();
    w.sender.script.push(answer(204));

    expect(await attemptDelivery(w.ports, run, 1)).toEqual({ done: true });

    expect(w.sender.requests).toHaveLength(1);
    expect(w.sender.requests[0]?.url).toBe(endpoint.url);
    expect(await stored(w, message.id)).toMatchObject({
      state: 'delivered',
      round: 1,
      attemptsInRound: 1,
      nextAttemptAt: null,
    });
    expect(await w.messages.attempts(message.id)).toEqual([
      { round: 1, number: 1, at, status: 204, error: null, durationMs: 42, body: 'thanks' },
    ]);
    expect(await pendingRuns(w)).not.toContainEqual(run);
    expect(await pendingRuns(w)).toEqual([]);
  });

  test.each([200, 201, 299])('%i is success', async (status) => {
    const w = world();
    const { message, run } = await oneMessage(w);
    w.sender.script.push(answer(status));
    expect(await attemptDelivery(w.ports, run, 1)).toEqual({ done: true });
    expect((await stored(w, message.id)).state).toBe('delivered');
  });

  test.each<[number | null, string]>([
    [301, 'a redirect (not followed)'],
    [400, 'a client error'],
    [429, 'too many requests'],
    [500, 'a server error'],
    [null, 'no answer'],
  ])('%s (%s) is retried a minute later', async (status) => {
    const w = world();
    const { message, run } = await oneMessage(w);
    const at = w.clock.now();
    w.sender.script.push(answer(status));
    const step = await attemptDelivery(w.ports, run, 1);
    expect(step).toEqual({ done: false, dueAt: new Date((at + MINUTE) / 1000).toISOString() });
    expect(await stored(w, message.id)).toMatchObject({
      state: 'pending',
      attemptsInRound: 1,
      nextAttemptAt: at + MINUTE,
    });
    expect(await w.messages.attempts(message.id)).toEqual([{ round: 1, number: 1, at, ...answer(status) }]);
    expect(await pendingRuns(w)).toEqual([run]);
  });

  test('before the stored due time it waits it out and sends nothing (as after a restart)', async () => {
    const w = world();
    const { message, run } = await oneMessage(w);
    w.sender.script.push(answer(503));
    const first = await attemptDelivery(w.ports, run, 1);
    const after = await stored(w, message.id);
    const due = after.nextAttemptAt as Micros;

    // Called again at once, and a microsecond before the due time: the same due time, nothing sent.
    expect(await attemptDelivery(w.ports, run, 1)).toEqual(first);
    w.clock.until(due - 1);
    expect(await attemptDelivery(w.ports, run, 1)).toEqual(first);
    expect(w.sender.requests).toHaveLength(1);
    expect(await w.messages.attempts(message.id)).toHaveLength(1);
    expect(await stored(w, message.id)).toEqual(after);

    // At the due time, the second attempt.
    w.clock.until(due);
    expect(await attemptDelivery(w.ports, run, 1)).toEqual({ done: true });
    expect(w.sender.requests).toHaveLength(2);
    expect((await w.messages.attempts(message.id)).map((a) => [a.number, a.at, a.status])).toEqual([
      [1, due - MINUTE, 503],
      [2, due, 200],
    ]);
  });

  test.each([1, 60, 1000])(
    'a receiver that always fails gets 8 attempts, the pauses divided by delayScale %i, then the message fails',
    async (delayScale) => {
      const w = world();
      const { secret, event, message, run } = await oneMessage(w);
      w.sender.otherwise = answer(500);

      const steps = await drive(w, run, delayScale);

      const requests = w.sender.requests;
      expect(requests).toHaveLength(8);
      const pauses = requests.slice(1).map((r, i) => r.at - (requests[i] as SentRequest).at);
      expect(pauses).toEqual(SCHEDULE.map((pause) => pause / delayScale));
      // Each step but the last named the time of the next attempt.
      expect(steps).toEqual([
        ...requests.slice(1).map((r) => ({ done: false, dueAt: new Date(r.at / 1000).toISOString() })),
        { done: true },
      ]);
      expect(await stored(w, message.id)).toMatchObject({
        state: 'failed',
        round: 1,
        attemptsInRound: 8,
        nextAttemptAt: null,
      });
      expect(await w.messages.attempts(message.id)).toEqual(
        requests.map((r, i) => ({ round: 1, number: i + 1, at: r.at, ...answer(500) })),
      );
      expect(await pendingRuns(w)).not.toContainEqual(run);
      // Driving the finished round again sends nothing.
      expect(await attemptDelivery(w.ports, run, delayScale)).toEqual({ done: true });
      expect(requests).toHaveLength(8);

      // Every attempt: the same webhook-id and body, signed afresh when sent, verified then.
      for (const request of requests) {
        expect(request.headers['webhook-id']).toBe(message.id);
        expect(request.headers['webhook-timestamp']).toBe(String(Math.floor(request.at / SECOND)));
        expect(request.headers['content-type']).toBe('application/json');
        expect(request.body).toBe(requests[0]?.body);
        expect(verdict(secret, request)).toBe('verified');
      }
      const first = requests[0] as SentRequest;
      const last = requests[7] as SentRequest;
      if (delayScale === 1) {
        // Hours later, the first attempt's signature is stale; only the fresh one verifies.
        expect(new Set(requests.map((r) => r.headers['webhook-timestamp'])).size).toBe(8);
        expect(verdict(secret, first, last.at)).toBe('Message timestamp too old');
      }
      expect(JSON.parse(first.body)).toEqual({
        type: 'clients.submitted',
        timestamp: formatTime(event.occurredAt),
        test: false,
        data: JSON.parse(event.data),
      });
      expect(first.body.endsWith(`"data":${event.data}}`)).toBe(true);
    },
  );

  test('a success after failures ends the round at that attempt', async () => {
    const w = world();
    const { message, run } = await oneMessage(w);
    w.sender.script.push(answer(500), answer(null), answer(502), answer(200));
    const steps = await drive(w, run, 60);
    expect(steps).toHaveLength(4);
    expect(w.sender.requests).toHaveLength(4);
    expect(await stored(w, message.id)).toMatchObject({ state: 'delivered', attemptsInRound: 4 });
    expect((await w.messages.attempts(message.id)).map((a) => a.status)).toEqual([500, null, 502, 200]);
  });

  test('a deleted endpoint fails the message without a request', async () => {
    const w = world();
    const { endpoint, message, run } = await oneMessage(w);
    await deleteWebhookEndpoint(w.ports, SCOPE, endpoint.id);
    const at = w.clock.now();
    expect(await attemptDelivery(w.ports, run, 1)).toEqual({ done: true });
    expect(w.sender.requests).toEqual([]);
    expect(await stored(w, message.id)).toMatchObject({
      state: 'failed',
      attemptsInRound: 1,
      nextAttemptAt: null,
    });
    expect(await w.messages.attempts(message.id)).toEqual([
      { round: 1, number: 1, at, status: null, error: 'the endpoint was deleted', durationMs: 0, body: '' },
    ]);
    expect(await pendingRuns(w)).not.toContainEqual(run);
  });

  test('a disabled endpoint gets an attempt recorded with an error and is tried again on schedule', async () => {
    const w = world();
    const { secret, endpoint, message, run } = await oneMessage(w);
    await setWebhookEndpointEnabled(w.ports, SCOPE, endpoint.id, false);
    const at = w.clock.now();
    const step = await attemptDelivery(w.ports, run, 1);
    expect(step).toEqual({ done: false, dueAt: new Date((at + MINUTE) / 1000).toISOString() });
    expect(w.sender.requests).toEqual([]);
    expect(await w.messages.attempts(message.id)).toEqual([
      { round: 1, number: 1, at, status: null, error: 'the endpoint is disabled', durationMs: 0, body: '' },
    ]);
    expect(await stored(w, message.id)).toMatchObject({ state: 'pending', nextAttemptAt: at + MINUTE });

    // Enabled again before the next attempt: that one is sent.
    await setWebhookEndpointEnabled(w.ports, SCOPE, endpoint.id, true);
    w.clock.until(at + MINUTE);
    expect(await attemptDelivery(w.ports, run, 1)).toEqual({ done: true });
    expect(w.sender.requests).toHaveLength(1);
    expect(verdict(secret, w.sender.requests[0] as SentRequest)).toBe('verified');
    expect(await stored(w, message.id)).toMatchObject({ state: 'delivered', attemptsInRound: 2 });
  });

  test('a delivery of a message that no longer exists is done, without a request', async () => {
    const w = world();
    const run: DeliveryRun = { kind: 'delivery', environment: 'production', messageId: 'msg_gone', round: 1 };
    expect(await attemptDelivery(w.ports, run, 1)).toEqual({ done: true });
    expect(w.sender.requests).toEqual([]);
  });

  test('signed with the secrets of the moment: two signatures during a rotation, one after it', async () => {
    const w = world();
    const { secret: old, endpoint, message, run } = await oneMessage(w);
    w.sender.script.push(answer(500));
    // Attempt 1 before the rotation: one signature, the old secret's.
    await attemptDelivery(w.ports, run, 1);
    const { secret: fresh } = await rotateWebhookEndpointSecret(w.ports, SCOPE, endpoint.id);
    w.clock.until((await stored(w, message.id)).nextAttemptAt as Micros);
    // Attempt 2 during the rotation: both, newest first; a receiver holding either secret verifies it.
    w.sender.script.push(answer(500));
    await attemptDelivery(w.ports, run, 1);
    const [before, during] = w.sender.requests as [SentRequest, SentRequest];
    expect(before.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(verdict(old, before)).toBe('verified');
    expect(verdict(fresh, before)).toBe('No matching signature found');
    const signatures = during.headers['webhook-signature']?.split(' ') ?? [];
    expect(signatures).toHaveLength(2);
    expect(signatures.every((s) => s.startsWith('v1,'))).toBe(true);
    expect(verdict(fresh, during)).toBe('verified');
    expect(verdict(old, during)).toBe('verified');
    expect(
      verdict(fresh, { ...during, headers: { ...during.headers, 'webhook-signature': signatures[0] ?? '' } }),
    ).toBe('verified');
    expect(
      verdict(old, { ...during, headers: { ...during.headers, 'webhook-signature': signatures[1] ?? '' } }),
    ).toBe('verified');

    // Once the overlap is over, an attempt carries the new secret's signature alone.
    w.clock.advance(ROTATION_OVERLAP_MS * 1000);
    await attemptDelivery(w.ports, run, 1);
    const after = w.sender.requests[2] as SentRequest;
    expect(after.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(verdict(fresh, after)).toBe('verified');
    expect(verdict(old, after)).toBe('No matching signature found');
    expect(new Set(w.sender.requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([message.id]));
  });
});

// Redelivery

describe('attemptDelivery with copies of one delivery (a queue hands a message out at least once)', () => {
  test('a copy that finds the attempt made since it read the message sends nothing and is done', async () => {
    const w = world();
    const { message, run } = await oneMessage(w);
    // The other copy holds and records attempt 1 (failed, the next due in a minute) just before this one holds it.
    w.messages.interleaved.push(() => {
      const current = w.messages.records.get(message.id) as WebhookMessage;
      w.messages.records.set(message.id, {
        ...current,
        attemptsInRound: 1,
        nextAttemptAt: w.clock.now() + 60 * SECOND,
        updatedAt: current.updatedAt + 1,
      });
    });
    expect(await attemptDelivery(w.ports, run, 1)).toEqual({ done: true });
    expect(w.sender.requests).toEqual([]);
    expect(await stored(w, message.id)).toMatchObject({ state: 'pending', attemptsInRound: 1 });
    // The message still has its round to go, which the other copy hands on.
    expect(await pendingRuns(w)).toEqual([run]);
  });

  test('a copy that finds the attempt held by another consumer sends nothing', async () => {
    const w = world();
    const { message, run } = await oneMessage(w);
    const held = { ...(await stored(w, message.id)), claimedUntil: w.clock.now() + 10 * SECOND };
    w.messages.records.set(message.id, held);
    expect(await attemptDelivery(w.ports, run, 1)).toEqual({ done: true });
    expect(w.sender.requests).toEqual([]);
    expect(await stored(w, message.id)).toEqual(held);
  });

  test('a hold that lapsed (its consumer stopped mid-attempt) is taken over: the attempt is made once more', async () => {
    const w = world();
    const { message, run } = await oneMessage(w);
    w.messages.records.set(message.id, {
      ...(await stored(w, message.id)),
      claimedUntil: w.clock.now() + CLAIM_MICROS,
    });
    w.clock.advance(CLAIM_MICROS);
    expect(await attemptDelivery(w.ports, run, 1)).toEqual({ done: true });
    expect(w.sender.requests).toHaveLength(1);
    expect(await stored(w, message.id)).toMatchObject({ state: 'delivered', claimedUntil: null });
  });

  test('two copies at once: one holds the attempt and sends it, the other sends nothing', async () => {
    const w = world();
    const { message, run } = await oneMessage(w);
    const steps = await Promise.all([attemptDelivery(w.ports, run, 1), attemptDelivery(w.ports, run, 1)]);
    expect(steps).toEqual([{ done: true }, { done: true }]);
    expect(w.sender.requests).toHaveLength(1);
    expect(await w.messages.attempts(message.id)).toHaveLength(1);
  });

  test('a send that outlasts its hold, overtaken by another copy: its record is refused and it stops there', async () => {
    const w = world();
    const { message, run } = await oneMessage(w);
    w.sender.otherwise = answer(500);
    // While this copy sends, its hold lapses and another copy takes the message over and records attempt 1.
    w.messages.interleaved.push(
      () => {},
      () => {
        const current = w.messages.records.get(message.id) as WebhookMessage;
        w.messages.records.set(message.id, {
          ...current,
          attemptsInRound: 1,
          claimedUntil: null,
          nextAttemptAt: w.clock.now() + 60 * SECOND,
          updatedAt: current.updatedAt + 1,
        });
      },
    );
    expect(await attemptDelivery(w.ports, run, 1)).toEqual({ done: true });
    expect(w.sender.requests).toHaveLength(1);
    expect(await w.messages.attempts(message.id)).toEqual([]);
    expect(await stored(w, message.id)).toMatchObject({ attemptsInRound: 1, state: 'pending' });
  });
});

describe('attemptDeliveries (a batch from the delivery queue)', () => {
  test('each due attempt is made once (a second copy in the batch sends nothing), one not yet due waits, one whose round is over is done', async () => {
    const w = world();
    const [a, b, later, over] = (await messagesOfOneEvent(w, 4)) as [
      WebhookMessage,
      WebhookMessage,
      WebhookMessage,
      WebhookMessage,
    ];
    w.messages.records.set(later.id, { ...later, nextAttemptAt: w.clock.now() + MINUTE });
    w.messages.records.set(over.id, { ...over, state: 'delivered', nextAttemptAt: null });
    w.sender.script.push(answer(200), answer(500));

    const runs = [a, b, a, later, over].map(runOf);
    const steps = await attemptDeliveries(w.ports, runs, 1);

    expect(w.sender.requests.map((request) => request.headers['webhook-id'])).toEqual([a.id, b.id]);
    expect(steps).toEqual([
      { done: true },
      waitUntil((await stored(w, b.id)).nextAttemptAt as number),
      { done: true },
      waitUntil(w.clock.now() + MINUTE),
      { done: true },
    ]);
    expect(await stored(w, a.id)).toMatchObject({ state: 'delivered', claimedUntil: null });
    expect(await stored(w, b.id)).toMatchObject({ state: 'pending', attemptsInRound: 1, claimedUntil: null });
    expect(await pendingRuns(w)).toEqual([runOf(b), runOf(later)]);
  });
});

describe('redriveDeliveries', () => {
  test('after a start (nothing queued), every pending delivery is handed on at its due time, a held one when its hold lapses', async () => {
    const w = world();
    const [due, later, held] = (await messagesOfOneEvent(w, 3)) as [
      WebhookMessage,
      WebhookMessage,
      WebhookMessage,
    ];
    const now = w.clock.now();
    w.messages.records.set(later.id, { ...later, nextAttemptAt: now + HOUR });
    w.messages.records.set(held.id, { ...held, claimedUntil: now + 20 * SECOND });
    w.queue.scheduled.length = 0;

    const pending = await w.messages.pendingDeliveries(10);
    expect(await redriveDeliveries(w.ports, pending, null)).toBe(3);
    expect(w.queue.scheduled).toEqual([
      { run: runOf(due), dueAt: due.nextAttemptAt },
      { run: runOf(later), dueAt: now + HOUR },
      { run: runOf(held), dueAt: now + 20 * SECOND },
    ]);
  });

  test('later, only deliveries overdue and unheld for the given time are handed on; one whose round is over, never', async () => {
    const w = world();
    const [lost, recent, over] = (await messagesOfOneEvent(w, 3)) as [
      WebhookMessage,
      WebhookMessage,
      WebhookMessage,
    ];
    w.clock.advance(10 * SECOND);
    const now = w.clock.now();
    w.messages.records.set(recent.id, { ...recent, nextAttemptAt: now - SECOND });
    w.messages.records.set(over.id, { ...over, state: 'delivered', nextAttemptAt: null });
    w.queue.scheduled.length = 0;

    const pending = await w.messages.pendingDeliveries(10);
    expect(pending.map(runOf)).toEqual([runOf(lost), runOf(recent)]);
    // A message whose round is over, should a list still show it, is not handed on.
    expect(await redriveDeliveries(w.ports, [...pending, await stored(w, over.id)], 5 * SECOND)).toBe(1);
    expect(w.queue.scheduled).toEqual([{ run: runOf(lost), dueAt: lost.nextAttemptAt }]);
  });
});

describe('redeliverMessage', () => {
  test('refuses a message still being delivered', async () => {
    const w = world();
    const { message, run } = await oneMessage(w);
    expect(await refusal(redeliverMessage(w.ports, SCOPE, message.id))).toContain('still being delivered');
    w.sender.script.push(answer(500));
    await attemptDelivery(w.ports, run, 1);
    expect(await refusal(redeliverMessage(w.ports, SCOPE, message.id))).toContain('attempt 2 is due');
    expect((await stored(w, message.id)).round).toBe(1);
    expect(w.queue.handedOn).toEqual([run]);
  });

  test('a delivered message is delivered again as round 2 with the same webhook-id', async () => {
    const w = world();
    const { secret, message, run } = await oneMessage(w);
    await drive(w, run);
    const delivered = await stored(w, message.id);
    w.clock.advance(HOUR);
    const now = w.clock.now();

    const again = await redeliverMessage(w.ports, SCOPE, message.id);

    expect(again).toEqual({
      ...delivered,
      state: 'pending',
      round: 2,
      attemptsInRound: 0,
      nextAttemptAt: now,
      updatedAt: now,
    });
    expect(await stored(w, message.id)).toEqual(again);
    const round2 = runOf(again);
    expect(round2).toEqual({ ...run, round: 2 });
    expect(await pendingRuns(w)).toEqual([round2]);
    expect(w.queue.handedOn).toEqual([run, round2]);

    expect(await drive(w, round2)).toEqual([{ done: true }]);
    const [first, second] = w.sender.requests as [SentRequest, SentRequest];
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.body).toBe(first.body);
    expect(second.headers['webhook-timestamp']).toBe(String(Math.floor(now / SECOND)));
    expect(verdict(secret, second)).toBe('verified');
    expect((await w.messages.attempts(message.id)).map((a) => [a.round, a.number])).toEqual([
      [1, 1],
      [2, 1],
    ]);
    expect(await stored(w, message.id)).toMatchObject({ state: 'delivered', round: 2, attemptsInRound: 1 });
    expect(await pendingRuns(w)).toEqual([]);
  });

  test('a failed message gets a whole new round of 8 attempts', async () => {
    const w = world();
    const { message, run } = await oneMessage(w);
    w.sender.otherwise = answer(500);
    await drive(w, run, 1000);
    expect((await stored(w, message.id)).state).toBe('failed');
    const again = await redeliverMessage(w.ports, SCOPE, message.id);
    await drive(w, runOf(again), 1000);
    expect(w.sender.requests).toHaveLength(16);
    const attempts = await w.messages.attempts(message.id);
    expect(attempts.map((a) => [a.round, a.number])).toEqual([
      ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => [1, n]),
      ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => [2, n]),
    ]);
    expect(await stored(w, message.id)).toMatchObject({ state: 'failed', round: 2, attemptsInRound: 8 });
  });

  test('the run of an older round ends without sending and leaves the new round alone', async () => {
    const w = world();
    const { message, run } = await oneMessage(w);
    await drive(w, run);
    const again = await redeliverMessage(w.ports, SCOPE, message.id);

    // The round-1 run, re-driven late (as after a restart), finds round 2 under way.
    expect(await attemptDelivery(w.ports, run, 1)).toEqual({ done: true });
    expect(w.sender.requests).toHaveLength(1);
    expect(await stored(w, message.id)).toEqual(again);
    expect(await pendingRuns(w)).toEqual([runOf(again)]);
  });

  test("another scope's message, an unknown one, and one whose endpoint is gone are refused", async () => {
    const w = world();
    const { endpoint, message, run } = await oneMessage(w);
    await drive(w, run);
    for (const scope of [OTHER_INTEGRATION, OTHER_ORGANISATION, SANDBOX])
      expect(await refusal(redeliverMessage(w.ports, scope, message.id))).toBe(
        'not_found: No webhook message with that id exists here.',
      );
    expect(await refusal(redeliverMessage(w.ports, SCOPE, 'msg_unknown'))).toBe(
      'not_found: No webhook message with that id exists here.',
    );
    await deleteWebhookEndpoint(w.ports, SCOPE, endpoint.id);
    expect(await refusal(redeliverMessage(w.ports, SCOPE, message.id))).toBe(
      'not_found: No webhook endpoint with that id exists here.',
    );
    expect((await stored(w, message.id)).round).toBe(1);
    expect(w.queue.handedOn).toEqual([run]);
  });
});

// Test events

describe('sendTestEvent', () => {
  test('a test event: its own message and run, type test, the data of publication.published', async () => {
    const w = world();
    // Subscribed to something else entirely: a test event goes to the endpoint all the same.
    const { secret, endpoint } = await register(w, ['clients.accepted']);
    w.clock.advance(SECOND);
    const now = w.clock.now();

    const message = await sendTestEvent(w.ports, SCOPE, endpoint.id, `${PAGES}/`);

    expect(message).toEqual({
      id: expect.stringMatching(/^msg_\d+$/),
      eventId: null,
      endpointId: endpoint.id,
      scope: SCOPE,
      type: 'test',
      occurredAt: now,
      data: testEventData(PAGES, now),
      test: true,
      state: 'pending',
      round: 1,
      attemptsInRound: 0,
      nextAttemptAt: now,
      claimedUntil: null,
      createdAt: now,
      updatedAt: now,
    });
    expect(await stored(w, message.id)).toEqual(message);
    expect(await pendingRuns(w)).toEqual([runOf(message)]);
    expect(w.queue.handedOn).toEqual([runOf(message)]);

    expect(await drive(w, runOf(message))).toEqual([{ done: true }]);
    const request = w.sender.requests[0] as SentRequest;
    expect(verdict(secret, request)).toBe('verified');
    expect(request.headers['webhook-id']).toBe(message.id);
    const body = JSON.parse(request.body);
    expect(body).toMatchObject({ type: 'test', timestamp: formatTime(now), test: true });
    expect(Object.keys(body)).toEqual(['type', 'timestamp', 'test', 'data']);
    expect(Object.keys(body.data)).toEqual(['channel', 'url', 'contract_review']);
    expect(body.data.url).toBe(`${PAGES}/example/`);
    expect(body.data.contract_review.id).toMatch(/^crv_/);
    expect(await stored(w, message.id)).toMatchObject({ state: 'delivered' });
  });

  test("another scope's endpoint or an unknown one is refused, and nothing is recorded", async () => {
    const w = world();
    const { endpoint } = await register(w, ['clients.accepted']);
    for (const scope of [OTHER_INTEGRATION, OTHER_ORGANISATION, SANDBOX])
      expect(await refusal(sendTestEvent(w.ports, scope, endpoint.id, PAGES))).toBe(
        'not_found: No webhook endpoint with that id exists here.',
      );
    expect(await refusal(sendTestEvent(w.ports, SCOPE, 'whe_unknown', PAGES))).toBe(
      'not_found: No webhook endpoint with that id exists here.',
    );
    expect(w.messages.records.size).toBe(0);
    expect(w.queue.handedOn).toEqual([]);
  });
});

// Endpoints

describe('createWebhookEndpoint', () => {
  test('records the endpoint with each event subscribed now and one new secret, returned once', async () => {
    const w = world();
    const { endpoint, secret } = await createWebhookEndpoint(
      w.ports,
      SCOPE,
      { url: 'https://Hooks.Example.com/service?x=1', events: ['clients.accepted', 'clients.submitted'] },
      DEPLOYED,
    );
    expect(isSigningSecret(secret)).toBe(true);
    expect(endpoint).toEqual({
      id: 'whe_1',
      scope: SCOPE,
      url: 'https://hooks.example.com/service?x=1',
      subscriptions: { 'clients.accepted': T0, 'clients.submitted': T0 },
      secrets: [{ secret, createdAt: T0, expiresAt: null }],
      enabled: true,
      createdAt: T0,
      updatedAt: T0,
    });
    expect(await w.endpoints.get(endpoint.id)).toEqual(endpoint);
    const another = await register(w, ['clients.accepted']);
    expect(another.secret).not.toBe(secret);
  });

  test.each<[string[], string]>([
    [[], 'request_invalid: Choose at least one event.'],
    [['clients.finished'], 'Unknown event clients.finished'],
    [['contract-reviews.*'], 'Unknown event contract-reviews.*'],
    [['*'], 'no wildcards'],
    [['clients.accepted', 'clients.accepted'], 'An event is named twice'],
    [['Clients.Accepted'], 'Unknown event'],
  ])('events %j are refused: %s', async (events, reason) => {
    const w = world();
    const message = await refusal(createWebhookEndpoint(w.ports, SCOPE, { url: HOOK_URL, events }, DEPLOYED));
    expect(message).toContain(reason);
    expect(w.endpoints.records.size).toBe(0);
  });

  test.each([
    'http://hooks.example.com/service',
    'https://10.0.0.7/hook',
    'https://169.254.169.254/latest',
    'https://127.0.0.1/hook',
    'https://user:pass@hooks.example.com/',
    'https://hooks.example.com/#frag',
    'not a url',
  ])('the address %s is refused', async (url) => {
    const w = world();
    const message = await refusal(
      createWebhookEndpoint(w.ports, SCOPE, { url, events: ['clients.accepted'] }, DEPLOYED),
    );
    expect(message).toMatch(/^request_invalid: This endpoint address cannot be used: /);
    expect(w.endpoints.records.size).toBe(0);
  });

  test('loopback http only where the policy allows it (the local stack)', async () => {
    const w = world();
    const request = { url: 'http://127.0.0.1:8080/hook', events: ['clients.accepted'] };
    expect(await refusal(createWebhookEndpoint(w.ports, SCOPE, request, DEPLOYED))).toContain(
      'cannot be used: it must use https',
    );
    const { endpoint } = await createWebhookEndpoint(w.ports, SCOPE, request, { allowLoopbackHttp: true });
    expect(endpoint.url).toBe('http://127.0.0.1:8080/hook');
  });

  test(`at most ${MAX_ENDPOINTS} endpoints per integration; another integration has its own`, async () => {
    const w = world();
    for (let i = 0; i < MAX_ENDPOINTS; i++)
      await register(w, ['clients.accepted'], SCOPE, `${HOOK_URL}/${i}`);
    expect(await refusal(register(w, ['clients.accepted']))).toContain(`at most ${MAX_ENDPOINTS}`);
    expect(w.endpoints.records.size).toBe(MAX_ENDPOINTS);
    await register(w, ['clients.accepted'], OTHER_INTEGRATION);
    expect(w.endpoints.records.size).toBe(MAX_ENDPOINTS + 1);
    // Deleting one makes room for one again.
    await deleteWebhookEndpoint(w.ports, SCOPE, 'whe_1');
    const { endpoint } = await register(w, ['clients.accepted'], SCOPE, `${HOOK_URL}/again`);
    expect(w.endpoints.records.get(endpoint.id)).toEqual(endpoint);
    expect(w.endpoints.records.has('whe_1')).toBe(false);
    expect(w.endpoints.records.size).toBe(MAX_ENDPOINTS + 1);
    expect(await refusal(register(w, ['clients.accepted']))).toContain(`at most ${MAX_ENDPOINTS}`);
  });
});

describe('changing an endpoint', () => {
  test('updateWebhookEndpointEvents keeps the subscription time of kept events and stamps new ones', async () => {
    const w = world();
    const { endpoint } = await register(w, ['clients.submitted', 'clients.accepted']);
    w.clock.advance(HOUR);
    const now = w.clock.now();
    const updated = await updateWebhookEndpointEvents(w.ports, SCOPE, endpoint.id, [
      'clients.accepted',
      'contract-reviews.analysis.completed',
    ]);
    expect(updated).toEqual({
      ...endpoint,
      subscriptions: { 'clients.accepted': T0, 'contract-reviews.analysis.completed': now },
      updatedAt: now,
    });
    expect(await w.endpoints.get(endpoint.id)).toEqual(updated);
    // Dropped and chosen again: subscribed anew, from now.
    w.clock.advance(HOUR);
    const again = await updateWebhookEndpointEvents(w.ports, SCOPE, endpoint.id, [
      'clients.submitted',
      'clients.accepted',
    ]);
    expect(again.subscriptions).toEqual({ 'clients.submitted': now + HOUR, 'clients.accepted': T0 });
  });

  test('the same rules as at creation; a refused change changes nothing', async () => {
    const w = world();
    const { endpoint } = await register(w, ['clients.submitted']);
    for (const events of [[], ['*'], ['clients.submitted', 'clients.submitted']])
      await expect(updateWebhookEndpointEvents(w.ports, SCOPE, endpoint.id, events)).rejects.toThrow(
        ServiceError,
      );
    expect(await w.endpoints.get(endpoint.id)).toEqual(endpoint);
  });

  test('a change that loses a race is made again on the endpoint as it now is', async () => {
    const w = world();
    const { endpoint } = await register(w, ['clients.submitted']);
    w.clock.advance(SECOND);
    // Someone disables it between this change's read and its write.
    w.endpoints.interleaved.push(() => {
      const current = w.endpoints.records.get(endpoint.id) as WebhookEndpoint;
      w.endpoints.records.set(endpoint.id, { ...current, enabled: false, updatedAt: current.updatedAt + 5 });
    });
    const updated = await updateWebhookEndpointEvents(w.ports, SCOPE, endpoint.id, ['clients.accepted']);
    expect(updated.enabled).toBe(false);
    expect(Object.keys(updated.subscriptions)).toEqual(['clients.accepted']);
    expect(await w.endpoints.get(endpoint.id)).toEqual(updated);
    expect(w.endpoints.updates).toBe(2);
  });

  test('a change that keeps losing gives up with ConcurrentChange after 5 tries', async () => {
    const w = world();
    const { endpoint } = await register(w, ['clients.submitted']);
    for (let i = 0; i < 6; i++)
      w.endpoints.interleaved.push(() => {
        const current = w.endpoints.records.get(endpoint.id) as WebhookEndpoint;
        w.endpoints.records.set(endpoint.id, { ...current, updatedAt: current.updatedAt + 1 });
      });
    await expect(setWebhookEndpointEnabled(w.ports, SCOPE, endpoint.id, false)).rejects.toThrow(
      ConcurrentChange,
    );
    expect(w.endpoints.updates).toBe(5);
    expect((await w.endpoints.get(endpoint.id))?.enabled).toBe(true);
  });

  test('a disabled endpoint gets no message of an event fanned out while it is disabled; enabled, it does', async () => {
    const w = world();
    const { endpoint } = await register(w, ['clients.submitted']);
    w.clock.advance(SECOND);
    const disabled = await setWebhookEndpointEnabled(w.ports, SCOPE, endpoint.id, false);
    expect(disabled).toMatchObject({ enabled: false, updatedAt: T0 + SECOND });
    expect(await fanOutEvent(w.ports, happen(w, 'clients.submitted'))).toEqual([]);
    w.clock.advance(SECOND);
    await setWebhookEndpointEnabled(w.ports, SCOPE, endpoint.id, true);
    expect(await fanOutEvent(w.ports, happen(w, 'clients.submitted'))).toHaveLength(1);
  });

  test('rotateWebhookEndpointSecret: the old secret keeps signing for the overlap, then is dropped', async () => {
    const w = world();
    const { endpoint, secret: first } = await register(w, ['clients.submitted']);
    expect(signingSecrets(endpoint, T0)).toEqual([first]);
    w.clock.advance(HOUR);
    const rotatedAt = w.clock.now();
    const expiry = rotatedAt + ROTATION_OVERLAP_MS * 1000;

    const { endpoint: rotated, secret: second } = await rotateWebhookEndpointSecret(
      w.ports,
      SCOPE,
      endpoint.id,
    );

    expect(isSigningSecret(second)).toBe(true);
    expect(second).not.toBe(first);
    expect(rotated.secrets).toEqual([
      { secret: second, createdAt: rotatedAt, expiresAt: null },
      { secret: first, createdAt: T0, expiresAt: expiry },
    ]);
    expect(rotated.updatedAt).toBe(rotatedAt);
    expect(await w.endpoints.get(endpoint.id)).toEqual(rotated);
    expect(ROTATION_OVERLAP_MS).toBe(24 * 60 * 60 * 1000);
    expect(signingSecrets(rotated, rotatedAt)).toEqual([second, first]);
    expect(signingSecrets(rotated, expiry - 1)).toEqual([second, first]);
    expect(signingSecrets(rotated, expiry)).toEqual([second]);

    // Rotated again within the overlap: the first keeps its own expiry, the second gets one.
    w.clock.advance(HOUR);
    const { endpoint: twice, secret: third } = await rotateWebhookEndpointSecret(w.ports, SCOPE, endpoint.id);
    const secondExpiry = rotatedAt + HOUR + ROTATION_OVERLAP_MS * 1000;
    expect(twice.secrets.map((s) => [s.secret, s.expiresAt])).toEqual([
      [third, null],
      [second, secondExpiry],
      [first, expiry],
    ]);
    expect(signingSecrets(twice, expiry)).toEqual([third, second]);
    // Rotated after the first has expired: it is gone from the record.
    w.clock.until(expiry);
    const { endpoint: later } = await rotateWebhookEndpointSecret(w.ports, SCOPE, endpoint.id);
    expect(later.secrets.map((s) => s.secret)).not.toContain(first);
    expect(later.secrets).toHaveLength(3);
  });

  test('deleteWebhookEndpoint removes it; the fan-out no longer finds it', async () => {
    const w = world();
    const { endpoint } = await register(w, ['clients.submitted']);
    await deleteWebhookEndpoint(w.ports, SCOPE, endpoint.id);
    expect(await w.endpoints.get(endpoint.id)).toBeNull();
    w.clock.advance(SECOND);
    expect(await fanOutEvent(w.ports, happen(w, 'clients.submitted'))).toEqual([]);
  });
});

describe('presentWebhookEndpoint and ownEndpoint', () => {
  test('an endpoint is shown with its events in the interface order and the number of secrets, never a secret', async () => {
    const w = world();
    const { endpoint, secret } = await register(w, [
      'clients.submitted',
      'contract-reviews.analysis.completed',
    ]);
    w.clock.advance(SECOND);
    const { endpoint: rotated, secret: fresh } = await rotateWebhookEndpointSecret(
      w.ports,
      SCOPE,
      endpoint.id,
    );
    const shown = presentWebhookEndpoint(rotated, w.clock.now());
    expect(shown).toEqual({
      id: endpoint.id,
      url: HOOK_URL,
      events: EVENT_TYPES.filter(
        (e) => e === 'clients.submitted' || e === 'contract-reviews.analysis.completed',
      ),
      enabled: true,
      environment: 'production',
      signing_secrets: 2,
      created_at: formatTime(T0),
      updated_at: formatTime(T0 + SECOND),
    });
    expect(shown.events).toEqual(['contract-reviews.analysis.completed', 'clients.submitted']);
    const text = JSON.stringify(shown);
    for (const value of [secret, fresh, secret.slice('whsec_'.length), fresh.slice('whsec_'.length)])
      expect(text).not.toContain(value);
    expect(text).not.toContain('whsec_');
    expect(presentWebhookEndpoint(rotated, T0 + SECOND + ROTATION_OVERLAP_MS * 1000).signing_secrets).toBe(1);
  });

  test("an organisation names its endpoints and messages by id alone, in its environment; another's are not_found", async () => {
    const w = world();
    const { endpoint, message } = await oneMessage(w);
    const production = { ...w.ports, environment: 'production' as const };
    expect(await endpointScope(production, SCOPE.organisationId, endpoint.id)).toEqual(SCOPE);
    expect(await messageScope(production, SCOPE.organisationId, message.id)).toEqual(SCOPE);
    const unknown = [
      endpointScope(production, 'org_other', endpoint.id),
      endpointScope({ ...w.ports, environment: 'sandbox' }, SCOPE.organisationId, endpoint.id),
      endpointScope(production, SCOPE.organisationId, 'whe_999'),
      endpointScope(production, SCOPE.organisationId, message.id),
      messageScope(production, 'org_other', message.id),
      messageScope({ ...w.ports, environment: 'sandbox' }, SCOPE.organisationId, message.id),
      messageScope(production, SCOPE.organisationId, endpoint.id),
    ];
    for (const answer of unknown) expect(await refusal(answer)).toMatch(/^not_found: /);
  });

  test('a disabled endpoint is sent no test event: endpoint_disabled, and nothing is recorded', async () => {
    const w = world();
    const { endpoint } = await register(w, ['clients.accepted']);
    await setWebhookEndpointEnabled(w.ports, SCOPE, endpoint.id, false);

    expect(await refusal(sendTestEvent(w.ports, SCOPE, endpoint.id, PAGES))).toBe(
      'endpoint_disabled: This endpoint is disabled; enable it to send it a test event.',
    );
    expect(w.messages.records.size).toBe(0);
    await setWebhookEndpointEnabled(w.ports, SCOPE, endpoint.id, true);
    await expect(sendTestEvent(w.ports, SCOPE, endpoint.id, PAGES)).resolves.toMatchObject({ type: 'test' });
  });

  test("another scope's endpoint is as unknown as a made-up id, for reading and for every change", async () => {
    const w = world();
    const { endpoint } = await register(w, ['clients.submitted']);
    const unknown = 'not_found: No webhook endpoint with that id exists here.';
    expect(await ownEndpoint(w.ports, SCOPE, endpoint.id)).toEqual(endpoint);
    for (const scope of [OTHER_INTEGRATION, OTHER_ORGANISATION, SANDBOX]) {
      expect(await refusal(ownEndpoint(w.ports, scope, endpoint.id))).toBe(unknown);
      expect(
        await refusal(updateWebhookEndpointEvents(w.ports, scope, endpoint.id, ['clients.accepted'])),
      ).toBe(unknown);
      expect(await refusal(setWebhookEndpointEnabled(w.ports, scope, endpoint.id, false))).toBe(unknown);
      expect(await refusal(rotateWebhookEndpointSecret(w.ports, scope, endpoint.id))).toBe(unknown);
      expect(await refusal(deleteWebhookEndpoint(w.ports, scope, endpoint.id))).toBe(unknown);
    }
    expect(await refusal(ownEndpoint(w.ports, SCOPE, 'whe_999'))).toBe(
      'not_found: No webhook endpoint with that id exists here.',
    );
    expect(await w.endpoints.get(endpoint.id)).toEqual(endpoint);
    expect(w.endpoints.updates).toBe(0);
  });
});
