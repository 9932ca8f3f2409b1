// host -> the local stack's event flow and webhook delivery, as deployed: each environment's recorded
// events are published to its event bus (a local bus routing by the deployed rules), which hands them to
// its webhook fan-out queue on the local SQS twin, whose consumer fans them out to messages and hands
// those to the delivery queue, whose consumer makes the attempts. Retries wait in the delivery queue, or
// past its reach in the delivery wait workflow (the local workflow runner). Queues live in memory: after a
// start the publisher publishes every pending event again and the delivery re-drive hands on every
// unfinished delivery (local-delivery-sweep.ts).
import type { SQSClient } from '@aws-sdk/client-sqs';
import { localEventBus } from '../adapters/events/local-event-bus';
import { type LocalQueue, type LocalSqs, startLocalSqs } from '../adapters/queues/local-sqs';
import { createSqsClient } from '../adapters/queues/sqs-client';
import { sqsWorkQueue } from '../adapters/queues/sqs-work-queue';
import { ENVIRONMENTS, type Environment } from '../core/model';
import type { WorkQueue } from '../core/ports';
import type { Services } from '../core/services';
import { deliveryRecords } from './delivery-records';
import { fanOutRecords } from './fan-out-records';
import { startLocalDeliverySweep } from './local-delivery-sweep';
import { startLocalEventPublisher } from './local-event-publisher';
import { consumeQueue, type QueueConsumerOptions } from './local-queue-consumer';

/**
 * The consumers' settings, beside the deployed mappings' (lib/webhook-delivery.ts): the same batches of
 * 10 and receives before the dead-letter queue; fewer batches at once on one machine's two cores, and
 * shorter visibility timeouts, so that a failed batch is back sooner.
 */
const FAN_OUT = { batchSize: 10, concurrency: 4, visibilityTimeoutSeconds: 30, receives: 5 };
/** Each delivery batch sends its attempts at once: 8 batches are up to 80 requests under way. */
const DELIVERY = { batchSize: 10, concurrency: 8, visibilityTimeoutSeconds: 60, receives: 5 };

/** The local queues' names in an environment. */
const queueNames = (environment: Environment) => ({
  fanOut: `webhook-fan-out-${environment}`,
  delivery: `webhook-delivery-${environment}`,
});

interface EnvironmentQueues {
  fanOut: LocalQueue;
  delivery: LocalQueue;
}

/** The local SQS twin with each environment's queues, made before the services that send to them. */
export interface LocalQueues {
  /** Each environment's delivery queue, as the work-queue port. */
  delivery: Readonly<Record<Environment, WorkQueue>>;
  readonly sqs: LocalSqs;
  readonly client: SQSClient;
  readonly queues: Readonly<Record<Environment, EnvironmentQueues>>;
  stop(): Promise<void>;
}

export const startLocalQueues = async (): Promise<LocalQueues> => {
  const sqs = await startLocalSqs(0);
  const client = createSqsClient({ region: sqs.region, endpoint: sqs.endpoint });
  const make = (name: string, settings: { visibilityTimeoutSeconds: number; receives: number }) =>
    sqs.createQueue(name, {
      visibilityTimeoutSeconds: settings.visibilityTimeoutSeconds,
      deadLetterAfter: settings.receives,
    }).queue;
  const queues = Object.fromEntries(
    ENVIRONMENTS.map((environment) => [
      environment,
      {
        fanOut: make(queueNames(environment).fanOut, FAN_OUT),
        delivery: make(queueNames(environment).delivery, DELIVERY),
      },
    ]),
  ) as Record<Environment, EnvironmentQueues>;
  return {
    sqs,
    client,
    queues,
    delivery: Object.fromEntries(
      ENVIRONMENTS.map((environment) => [
        environment,
        sqsWorkQueue(client, queues[environment].delivery.url),
      ]),
    ) as Record<Environment, WorkQueue>,
    stop: async () => {
      client.destroy();
      await sqs.stop();
    },
  };
};

export interface LocalEventFlow {
  stop(): Promise<void>;
}

export const startLocalEventFlow = (
  services: Readonly<Record<Environment, Services>>,
  { client, sqs, queues }: LocalQueues,
): LocalEventFlow => {
  const consumer = (
    queue: LocalQueue,
    handler: Parameters<typeof consumeQueue>[1],
    { batchSize, concurrency }: Pick<QueueConsumerOptions, 'batchSize' | 'concurrency'>,
  ) =>
    consumeQueue(client, handler, {
      queueUrl: queue.url,
      queueArn: queue.arn,
      region: sqs.region,
      batchSize,
      concurrency,
      waitSeconds: 5,
    });
  const flows = ENVIRONMENTS.map((environment) => {
    const own = services[environment];
    const { fanOut, delivery } = queues[environment];
    const bus = localEventBus({ 'webhook-fan-out': sqsWorkQueue(client, fanOut.url) }, sqs.region);
    const consumers = [
      consumer(fanOut, fanOutRecords(own), FAN_OUT),
      consumer(delivery, deliveryRecords(own), DELIVERY),
    ];
    const queueIdle = () => {
      const { ready, inFlight } = sqs.depth(queueNames(environment).delivery);
      return ready === 0 && inFlight === 0;
    };
    return { ports: own.ports, bus, consumers, queueIdle };
  });
  const sweep = startLocalDeliverySweep(flows);
  const publisher = startLocalEventPublisher(flows);
  return {
    stop: async () => {
      await publisher.stop();
      await sweep.stop();
      await Promise.all(flows.flatMap(({ consumers }) => consumers.map((c) => c.stop())));
    },
  };
};
