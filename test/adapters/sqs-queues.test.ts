// The work queues on SQS against the local SQS twin (fauxqs, speaking the SQS API to the real
// @aws-sdk/client-sqs), and the local stand-in for Lambda's event source mapping that consumes them.
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { createSqsClient } from '../../lambdas/adapters/queues/sqs-client';
import { batchesOf, sqsWorkQueue } from '../../lambdas/adapters/queues/sqs-work-queue';
import type { QueuedWork } from '../../lambdas/core/ports';
import { type LocalSqs, startLocalSqs } from '../../local/emulators/sqs';
import { consumeQueue, type QueueConsumer, type QueueHandler } from '../../local/queue-consumer';
import { eventually } from '../support/eventually';
import { linesOf } from '../support/log-capture';

let sqs: LocalSqs;
let client: SQSClient;
let consumers: QueueConsumer[] = [];
let queues = 0;

beforeAll(async () => {
  sqs = await startLocalSqs(0);
  client = createSqsClient({ region: sqs.region, endpoint: sqs.endpoint });
});

afterEach(async () => {
  await Promise.all(consumers.map((consumer) => consumer.stop()));
  consumers = [];
});

afterAll(async () => {
  client?.destroy();
  await sqs?.stop();
});

/** A new queue (visible again 1 s after a failed receive), and its dead-letter queue after `deadLetterAfter`. */
const newQueue = (deadLetterAfter?: number) => {
  const name = `work-${++queues}`;
  const created = sqs.createQueue(name, { visibilityTimeoutSeconds: 1, deadLetterAfter });
  return { name, ...created };
};

/** Bodies in the order the handler saw them, each time it saw them. */
const consume = (queue: { url: string; arn: string }, handler: QueueHandler, concurrency = 2) => {
  consumers.push(
    consumeQueue(client, handler, {
      queueUrl: queue.url,
      queueArn: queue.arn,
      region: sqs.region,
      batchSize: 10,
      concurrency,
      waitSeconds: 1,
    }),
  );
};

const bodies = (event: SQSEvent) => event.Records.map((record) => record.body);
const work = (count: number, prefix = 'job'): QueuedWork[] =>
  Array.from({ length: count }, (_, i) => ({ body: JSON.stringify({ job: `${prefix}-${i}` }) }));

describe('batches within SQS limits', () => {
  test('at most 10 entries and 256 KiB a batch, in order', () => {
    const small = work(25);
    expect(batchesOf(small).map((batch) => batch.length)).toEqual([10, 10, 5]);
    expect(batchesOf(small).flat()).toEqual(small);
    const large = Array.from({ length: 5 }, (_, i) => ({ body: `${i}`.repeat(100 * 1024) }));
    expect(batchesOf(large).map((batch) => batch.length)).toEqual([2, 2, 1]);
  });

  test('a message over the limit, or a delay past 15 minutes, is refused before anything is sent', async () => {
    expect(() => batchesOf([{ body: 'x'.repeat(256 * 1024 + 1) }])).toThrow(
      /a queued message of 262145 bytes is over the limit/,
    );
    const { name, queue } = newQueue();
    // The bad delay is in the second batch: the first is not sent either.
    const send = sqsWorkQueue(client, queue.url).send([...work(12), { body: 'late', delaySeconds: 901 }]);
    await expect(send).rejects.toThrow(/0 to 900 whole seconds/);
    expect(sqs.depth(name)).toEqual({ ready: 0, delayed: 0, inFlight: 0 });
  });
});

describe('sending and consuming', () => {
  test('25 messages sent in batches each reach the handler once', async () => {
    const { name, queue } = newQueue();
    await sqsWorkQueue(client, queue.url).send(work(25));
    const seen: string[] = [];
    consume(queue, async (event) => {
      seen.push(...bodies(event));
      return { batchItemFailures: [] };
    });
    await eventually(
      async () => seen.length,
      (count) => count >= 25,
      { what: '25 messages handled' },
    );
    await eventually(
      async () => sqs.depth(name),
      (depth) => depth.ready + depth.inFlight === 0,
      {
        what: 'the queue empty',
      },
    );
    expect([...seen].sort()).toEqual(
      work(25)
        .map((message) => message.body)
        .sort(),
    );
  });

  test('a delayed message is held back by the queue, then handed over', async () => {
    const { name, queue } = newQueue();
    await sqsWorkQueue(client, queue.url).send([{ body: 'later', delaySeconds: 1 }]);
    expect(sqs.depth(name).delayed).toBe(1);
    const seen: string[] = [];
    consume(queue, async (event) => {
      seen.push(...bodies(event));
      return { batchItemFailures: [] };
    });
    await eventually(
      async () => seen,
      (all) => all.length > 0,
      { what: 'the delayed message handled' },
    );
    expect(seen).toEqual(['later']);
  });

  test('a partial batch failure: only the failed message comes back', async () => {
    const { name, queue } = newQueue();
    await sqsWorkQueue(client, queue.url).send([{ body: 'ok-1' }, { body: 'flaky' }, { body: 'ok-2' }]);
    const seen: string[] = [];
    consume(
      queue,
      async (event) => {
        seen.push(...bodies(event));
        const firstFlaky = event.Records.filter(
          (record) => record.body === 'flaky' && record.attributes.ApproximateReceiveCount === '1',
        );
        return { batchItemFailures: firstFlaky.map((record) => ({ itemIdentifier: record.messageId })) };
      },
      1,
    );
    await eventually(
      async () => seen.filter((body) => body === 'flaky').length,
      (n) => n === 2,
      {
        what: 'the failed message handled again',
      },
    );
    await eventually(
      async () => sqs.depth(name),
      (depth) => depth.ready + depth.inFlight === 0,
      {
        what: 'the queue empty',
      },
    );
    expect(seen.filter((body) => body.startsWith('ok-')).sort()).toEqual(['ok-1', 'ok-2']);
  });

  test('a handler that throws gets its whole batch again', async () => {
    const { queue } = newQueue();
    await sqsWorkQueue(client, queue.url).send([{ body: 'a' }, { body: 'b' }]);
    const receives: string[][] = [];
    consume(
      queue,
      async (event) => {
        receives.push(bodies(event));
        if (receives.length === 1) throw new Error('the handler fell over');
        return { batchItemFailures: [] };
      },
      1,
    );
    const logged = await linesOf(async () => {
      await eventually(
        async () => receives.flat().length,
        (n) => n >= 4,
        { what: 'both messages handled twice' },
      );
    });
    expect(receives.flat().sort()).toEqual(['a', 'a', 'b', 'b']);
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 'ERROR',
        queue: queue.arn,
        error: expect.objectContaining({ message: 'the handler fell over' }),
      }),
    );
  });

  test('a message that always fails goes to the dead-letter queue after its receives', async () => {
    const { name, queue } = newQueue(2);
    await sqsWorkQueue(client, queue.url).send([{ body: 'poison' }]);
    let receives = 0;
    consume(
      queue,
      async (event) => {
        receives += event.Records.length;
        return { batchItemFailures: event.Records.map((record) => ({ itemIdentifier: record.messageId })) };
      },
      1,
    );
    await eventually(
      async () => sqs.depth(`${name}-dlq`).ready,
      (n) => n === 1,
      {
        what: 'the message in the dead-letter queue',
      },
    );
    expect(receives).toBe(2);
    expect(sqs.depth(name)).toEqual({ ready: 0, delayed: 0, inFlight: 0 });
  });
});
