// host -> the local stack's event flow, as deployed: each environment's recorded events are published
// to its event bus (a local bus routing by the deployed rules), which hands them to its webhook fan-out
// queue on the local SQS twin, whose consumer fans them out to messages. Queues live in memory: the
// publisher's first look after a start publishes every pending event again.
import { localEventBus } from '../adapters/events/local-event-bus';
import { startLocalSqs } from '../adapters/queues/local-sqs';
import { createSqsClient } from '../adapters/queues/sqs-client';
import { sqsWorkQueue } from '../adapters/queues/sqs-work-queue';
import type { Environment } from '../core/model';
import type { Services } from '../core/services';
import { fanOutRecords } from './fan-out-records';
import { startLocalEventPublisher } from './local-event-publisher';
import { consumeQueue } from './local-queue-consumer';

/** Batches of 10, as the deployed event source mapping hands them (lib/webhook-delivery.ts). */
const FAN_OUT_BATCH = 10;
/** Batches at once: 4 on one machine's two cores (deployed, at most 10). */
const FAN_OUT_CONCURRENCY = 4;
/** Seconds a received event stays hidden: 30 here (deployed 180), so a failed fan-out is back sooner. */
const FAN_OUT_VISIBILITY_SECONDS = 30;
/** Receives before an event that keeps failing is kept aside in the dead-letter queue, as deployed. */
const FAN_OUT_RECEIVES = 5;

export interface LocalEventFlow {
  stop(): Promise<void>;
}

export const startLocalEventFlow = async (
  services: Readonly<Record<Environment, Services>>,
): Promise<LocalEventFlow> => {
  const sqs = await startLocalSqs(0);
  const client = createSqsClient({ region: sqs.region, endpoint: sqs.endpoint });
  const flows = Object.entries(services).map(([environment, { ports }]) => {
    const { queue } = sqs.createQueue(`webhook-fan-out-${environment}`, {
      visibilityTimeoutSeconds: FAN_OUT_VISIBILITY_SECONDS,
      deadLetterAfter: FAN_OUT_RECEIVES,
    });
    const bus = localEventBus({ 'webhook-fan-out': sqsWorkQueue(client, queue.url) }, sqs.region);
    const consumer = consumeQueue(client, fanOutRecords(ports), {
      queueUrl: queue.url,
      queueArn: queue.arn,
      region: sqs.region,
      batchSize: FAN_OUT_BATCH,
      concurrency: FAN_OUT_CONCURRENCY,
      waitSeconds: 5,
    });
    return { ports, bus, consumer };
  });
  const publisher = startLocalEventPublisher(flows);
  return {
    stop: async () => {
      await publisher.stop();
      await Promise.all(flows.map(({ consumer }) => consumer.stop()));
      client.destroy();
      await sqs.stop();
    },
  };
};
