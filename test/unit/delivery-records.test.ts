// unit -> the delivery queue's consumer (lambdas/hosts/queue-consumers/delivery-records.ts), over in-memory ports: what it
// reports failed to the queue (so that SQS brings it back), and that the next attempts are handed on
// before the batch is deleted.
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import type { DeliveryRun, DueDelivery, Ports } from '../../lambdas/core/ports';
import type { Services } from '../../lambdas/core/services';
import { MINUTE } from '../../lambdas/core/time';
import type { WebhookMessage } from '../../lambdas/core/webhooks/model';
import { deliveryRecords } from '../../lambdas/hosts/queue-consumers/delivery-records';
import { id, scopeIn, TestClock, webhookEndpoint, webhookMessage } from '../support/fixtures';

const scope = scopeIn('production');

const record = (body: string): SQSRecord => ({ messageId: id('sqs-'), body }) as SQSRecord;

const runOf = (message: WebhookMessage): DeliveryRun => ({
  kind: 'delivery',
  environment: 'production',
  messageId: message.id,
  round: message.round,
});

/** A consumer over one stored message (due now) and its endpoint, whose receiver answers `status`. */
const consumer = (status: number, schedule: (deliveries: readonly DueDelivery[]) => Promise<void>) => {
  const clock = new TestClock();
  const now = clock.now();
  const endpoint = webhookEndpoint(scope, now, { url: 'https://hooks.example.com/in' });
  const message = webhookMessage(endpoint, now);
  let stored = message;
  const sent: string[] = [];
  const ports = {
    environment: 'production',
    clock,
    deliveryQueue: { schedule },
    webhookMessages: {
      getMany: async (ids: readonly string[]) =>
        new Map(ids.includes(stored.id) ? [[stored.id, stored]] : []),
      updateMany: async (changes: readonly { message: WebhookMessage; expectedUpdatedAt: number }[]) =>
        changes.map((change) => {
          if (change.expectedUpdatedAt !== stored.updatedAt) return false;
          stored = change.message;
          return true;
        }),
    },
    webhookEndpoints: { getMany: async () => new Map([[endpoint.id, endpoint]]) },
    webhookSender: {
      send: async (request: { url: string }) => {
        sent.push(request.url);
        return { status, error: null, durationMs: 5, body: '' };
      },
    },
  } as unknown as Ports;
  const services: Services = {
    ports,
    settings: {
      environment: 'production',
      baseUrls: { production: 'https://api.example.com', sandbox: 'https://sandbox.example.com' },
      pagesBaseUrl: 'https://pages.example.com',
      allowLoopbackWebhooks: false,
      delayScale: 1,
      rateLimits: true,
    },
  };
  return { handle: deliveryRecords(services), message, sent, stored: () => stored, now };
};

const event = (...records: SQSRecord[]): SQSEvent => ({ Records: records });

test('a delivered attempt: nothing reported failed, nothing handed on', async () => {
  const handedOn: DueDelivery[][] = [];
  const { handle, message, sent, stored } = consumer(200, async (d) => void handedOn.push([...d]));
  expect(await handle(event(record(JSON.stringify(runOf(message)))))).toEqual({ batchItemFailures: [] });
  expect(sent).toEqual(['https://hooks.example.com/in']);
  expect(stored().state).toBe('delivered');
  expect(handedOn).toEqual([[]]);
});

test('a failed attempt hands its run on for its stored due time a minute later (to the millisecond, never early)', async () => {
  const handedOn: DueDelivery[][] = [];
  const { handle, message, now, stored } = consumer(500, async (d) => void handedOn.push([...d]));
  expect(await handle(event(record(JSON.stringify(runOf(message)))))).toEqual({ batchItemFailures: [] });
  const due = stored().nextAttemptAt as number;
  expect(due - now).toBeGreaterThanOrEqual(MINUTE);
  expect(handedOn).toEqual([[{ run: runOf(message), dueAt: Math.ceil(due / 1000) * 1000 }]]);
});

test('when the next attempt cannot be handed on, its record is reported failed: the queue brings it back', async () => {
  const { handle, message, stored } = consumer(500, async () => {
    throw new Error('SQS is unavailable');
  });
  const queued = record(JSON.stringify(runOf(message)));
  expect(await handle(event(queued))).toEqual({ batchItemFailures: [{ itemIdentifier: queued.messageId }] });
  // The attempt itself is recorded: the record that comes back waits out its due time, and hands it on.
  expect(stored()).toMatchObject({ state: 'pending', attemptsInRound: 1, claimedUntil: null });
});

test('a record that is no delivery run of this environment is reported failed; the others are handled', async () => {
  const { handle, message, sent } = consumer(200, async () => {});
  const good = record(JSON.stringify(runOf(message)));
  const garbled = record('{"kind":"delivery"');
  const foreign = record(JSON.stringify({ ...runOf(message), environment: 'sandbox' }));
  const answer = await handle(event(garbled, good, foreign));
  expect(answer.batchItemFailures.map((failure) => failure.itemIdentifier).sort()).toEqual(
    [garbled.messageId, foreign.messageId].sort(),
  );
  expect(sent).toHaveLength(1);
});
