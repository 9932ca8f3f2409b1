// The event bus: a service event as the bus carries it (its data byte for byte), the rules' matcher,
// EventBridge's batching and resending (a recording client stands in for AWS at the adapter's edge),
// and the local bus routing into queues of the local SQS twin by the same rules.
import type { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { busEntryOf, EVENT_SOURCE, serviceEventOf } from '../../lambdas/adapters/events/bus-events';
import { BUS_RULES, type BusRule, matchesPattern } from '../../lambdas/adapters/events/bus-rules';
import { entryBatches, eventBridgeBus } from '../../lambdas/adapters/events/eventbridge-bus';
import { createSqsClient } from '../../lambdas/adapters/queues/sqs-client';
import { sqsWorkQueue } from '../../lambdas/adapters/queues/sqs-work-queue';
import type { EventType, ServiceEvent } from '../../lambdas/core/events';
import { localEventBus } from '../../local/emulators/event-bus';
import { type LocalSqs, startLocalSqs } from '../../local/emulators/sqs';
import { consumeQueue, type QueueConsumer } from '../../local/queue-consumer';
import { eventually } from '../support/eventually';

const event = (n: number, type: EventType = 'clients.submitted', data?: string): ServiceEvent => ({
  id: `evt_${n}abc`,
  type,
  scope: { organisationId: 'org_harbour', integrationId: 'int_sales', environment: 'production' },
  occurredAt: 1_763_717_400_123_456 + n,
  // Spacing, escapes and characters a re-serialisation would change.
  data: data ?? `{"client_id":"cli_${n}", "first_name":"Zoë \\u2028 \\"Z\\"","n":1.50}`,
});

/** The event as a queue receives it from a bus (the JSON EventBridge delivers to an SQS target). */
const deliveredAs = (e: ServiceEvent) => {
  const entry = busEntryOf(e);
  return JSON.parse(
    JSON.stringify({
      source: entry.Source,
      'detail-type': entry.DetailType,
      detail: JSON.parse(entry.Detail),
    }),
  ) as unknown;
};

describe('a service event on the bus', () => {
  test('comes back with its data byte for byte', () => {
    const sent = event(1);
    const received = serviceEventOf(deliveredAs(sent));
    expect(received).toEqual(sent);
    expect(received.data).toBe(sent.data);
  });

  test("another publisher's event, or a malformed detail, is refused", () => {
    expect(() => serviceEventOf({ source: 'someone.else', detail: {} })).toThrow();
    expect(() =>
      serviceEventOf({ source: EVENT_SOURCE, detail: { id: 'evt_1', type: 'clients.submitted' } }),
    ).toThrow();
    expect(() =>
      serviceEventOf({
        source: EVENT_SOURCE,
        detail: { ...(deliveredAs(event(2)) as { detail: object }).detail, type: 'other' },
      }),
    ).toThrow();
  });
});

describe('rule patterns', () => {
  const body = (type: string) => ({
    source: EVENT_SOURCE,
    'detail-type': type,
    detail: { scope: { environment: 'sandbox' }, tags: ['a', 'b'] },
  });

  test('exact values, nested fields and array fields match as EventBridge matches them', () => {
    expect(
      matchesPattern(body('clients.accepted'), {
        source: [EVENT_SOURCE],
        'detail-type': ['clients.accepted'],
      }),
    ).toBe(true);
    expect(matchesPattern(body('clients.accepted'), { 'detail-type': ['clients.submitted'] })).toBe(false);
    expect(matchesPattern(body('x'), { detail: { scope: { environment: ['sandbox'] } } })).toBe(true);
    expect(matchesPattern(body('x'), { detail: { scope: { environment: ['production'] } } })).toBe(false);
    expect(matchesPattern(body('x'), { detail: { tags: ['b'] } })).toBe(true);
    expect(matchesPattern(body('x'), { detail: { missing: [null] } })).toBe(false);
  });

  test('every interface event reaches the webhook fan-out; an operator the local bus lacks is refused', () => {
    const fanOut = BUS_RULES.find((rule) => rule.name === 'webhook-fan-out') as BusRule;
    expect(
      matchesPattern(deliveredAs(event(3, 'contract-reviews.publication.withdrawn')), fanOut.pattern),
    ).toBe(true);
    expect(() => matchesPattern(body('x'), { source: [{ prefix: 'contract' } as never] })).toThrow(
      /exact values only/,
    );
  });
});

describe('EventBridge', () => {
  /** Answers each PutEvents with the next of `answers` (entries' error codes by index), recording the calls. */
  const recordingClient = (answers: Array<Record<number, string>>) => {
    const calls: PutEventsCommand['input'][] = [];
    const client = {
      send: async (command: PutEventsCommand) => {
        calls.push(command.input);
        const failures = answers[calls.length - 1] ?? {};
        const entries = command.input.Entries ?? [];
        return {
          FailedEntryCount: Object.keys(failures).length,
          Entries: entries.map((_, i) => (failures[i] ? { ErrorCode: failures[i] } : { EventId: `e${i}` })),
        };
      },
    } as unknown as EventBridgeClient;
    return { client, calls };
  };

  test('batches of at most 10 entries and 256 KiB', () => {
    expect(
      entryBatches(Array.from({ length: 25 }, (_, i) => busEntryOf(event(i)))).map((b) => b.length),
    ).toEqual([10, 10, 5]);
    const big = (n: number) => busEntryOf(event(n, 'clients.submitted', `{"x":"${'y'.repeat(100 * 1024)}"}`));
    expect(entryBatches([big(1), big(2), big(3)]).map((b) => b.length)).toEqual([2, 1]);
  });

  test('entries it fails are sent again, alone, on the named bus', async () => {
    const { client, calls } = recordingClient([{ 1: 'ThrottlingException', 3: 'InternalFailure' }]);
    const events = Array.from({ length: 4 }, (_, i) => event(i));
    await eventBridgeBus(client, 'service-production').publish(events);
    expect(calls).toHaveLength(2);
    expect(calls[0]?.Entries?.every((entry) => entry.EventBusName === 'service-production')).toBe(true);
    expect(calls[1]?.Entries?.map((entry) => JSON.parse(entry.Detail as string).id)).toEqual([
      events[1]?.id,
      events[3]?.id,
    ]);
  });

  test('an entry that keeps failing fails the publish (the outbox keeps the event)', async () => {
    const { client, calls } = recordingClient(Array.from({ length: 10 }, () => ({ 0: 'InternalFailure' })));
    await expect(eventBridgeBus(client, 'bus').publish([event(1)])).rejects.toThrow(
      /refused 1 event\(s\): InternalFailure/,
    );
    expect(calls).toHaveLength(4);
  });
});

describe('the local bus', () => {
  let sqs: LocalSqs;
  let client: SQSClient;
  let consumer: QueueConsumer | undefined;

  beforeAll(async () => {
    sqs = await startLocalSqs(0);
    client = createSqsClient({ region: sqs.region, endpoint: sqs.endpoint });
  });
  afterAll(async () => {
    await consumer?.stop();
    client?.destroy();
    await sqs?.stop();
  });

  test('routes each event to the queues whose rules match it, as EventBridge shapes it', async () => {
    const submitted = sqs.createQueue('submitted', { visibilityTimeoutSeconds: 5 }).queue;
    const everything = sqs.createQueue('everything', { visibilityTimeoutSeconds: 5 }).queue;
    const rules: BusRule[] = [
      { name: 'submitted', pattern: { 'detail-type': ['clients.submitted'] } },
      { name: 'everything', pattern: { source: [EVENT_SOURCE] } },
    ];
    const bus = localEventBus(
      { submitted: sqsWorkQueue(client, submitted.url), everything: sqsWorkQueue(client, everything.url) },
      sqs.region,
      rules,
    );
    const events = [...Array.from({ length: 11 }, (_, i) => event(i)), event(20, 'clients.accepted')];
    await bus.publish(events);

    const received: unknown[] = [];
    consumer = consumeQueue(
      client,
      async (sqsEvent) => {
        received.push(...sqsEvent.Records.map((record) => JSON.parse(record.body)));
        return { batchItemFailures: [] };
      },
      {
        queueUrl: everything.url,
        queueArn: everything.arn,
        region: sqs.region,
        batchSize: 10,
        concurrency: 1,
        waitSeconds: 1,
      },
    );
    await eventually(
      async () => received.length,
      (n) => n >= events.length,
      { what: 'every event on the queue' },
    );
    expect(received.map(serviceEventOf).sort((a, b) => a.occurredAt - b.occurredAt)).toEqual(events);
    expect(received[0]).toMatchObject({
      version: '0',
      source: EVENT_SOURCE,
      account: '000000000000',
      region: sqs.region,
    });
    // Only the 11 submissions match the narrower rule.
    expect(sqs.depth('submitted').ready).toBe(11);
  });

  test('a rule without a queue is refused at start', () => {
    expect(() => localEventBus({}, 'eu-west-1')).toThrow(/no queue for the bus rule webhook-fan-out/);
  });
});
