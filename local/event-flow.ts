// local -> the local stack's queues and their consumers, as deployed: rendering (each contract run's
// Process state sends its attempts to the render queue, whose consumer renders two at once), and the
// event flow and webhook delivery: each environment's recorded
// events are published to its event bus (a local bus routing by the deployed rules), which hands them to
// its webhook fan-out queue on the local SQS twin, whose consumer fans them out to messages and hands
// those to the delivery queue, whose consumer makes the attempts. Retries wait in the delivery queue, or
// past its reach in the delivery wait workflow (the local workflow runner). Queues live in memory: after a
// start the publisher publishes every pending event again and the delivery re-drive hands on every
// unfinished delivery (local/delivery-sweep.ts).
import type { SQSClient } from '@aws-sdk/client-sqs';
import { createSqsClient } from '../lambdas/adapters/queues/sqs-client';
import { sqsWorkQueue } from '../lambdas/adapters/queues/sqs-work-queue';
import { rendersPerOrganisation } from '../lambdas/core/contracts/render-slots';
import { ENVIRONMENTS, type Environment } from '../lambdas/core/model';
import type { WorkQueue } from '../lambdas/core/ports';
import type { Services } from '../lambdas/core/services';
import { deliveryRecords } from '../lambdas/hosts/queue-consumers/delivery-records';
import { fanOutRecords } from '../lambdas/hosts/queue-consumers/fan-out-records';
import { renderRecords } from '../lambdas/hosts/queue-consumers/render-records';
import { startLocalDeliverySweep } from './delivery-sweep';
import { localEventBus } from './emulators/event-bus';
import { type LocalQueue, type LocalSqs, startLocalSqs } from './emulators/sqs';
import { startLocalEventPublisher } from './event-publisher';
import { consumeQueue, type QueueConsumerOptions } from './queue-consumer';

/**
 * The consumers' settings, beside the deployed mappings' (lib/webhook-delivery.ts): the same batches of
 * 10 and receives before the dead-letter queue; fewer batches at once on one machine's two cores, and
 * shorter visibility timeouts, so that a failed batch is back sooner.
 */
const FAN_OUT = { batchSize: 10, concurrency: 4, visibilityTimeoutSeconds: 30, receives: 5 };
/** Each delivery batch sends its attempts at once: 8 batches are up to 80 requests under way. */
const DELIVERY = { batchSize: 10, concurrency: 8, visibilityTimeoutSeconds: 60, receives: 5 };
/**
 * Renders one at a time per poller, two at once: each holds a few canvases and keeps a core busy (on
 * one machine; deployed, Lambda scales out to the mapping's limit). A render may take 15 minutes.
 */
const RENDER = { batchSize: 1, concurrency: 2, visibilityTimeoutSeconds: 16 * 60, receives: 3 };
/** How long a render over its organisation's share (one of the two) waits in the queue before it is seen again. */
const RENDER_RETRY_SECONDS = 2;

/** The local queues' names in an environment. */
const queueNames = (environment: Environment) => ({
  fanOut: `webhook-fan-out-${environment}`,
  delivery: `webhook-delivery-${environment}`,
  render: `contract-render-${environment}`,
});

interface EnvironmentQueues {
  fanOut: LocalQueue;
  delivery: LocalQueue;
  render: LocalQueue;
}

/** The local SQS twin with each environment's queues, made before the services that send to them. */
export interface LocalQueues {
  /** Each environment's delivery queue, as the work-queue port. */
  delivery: Readonly<Record<Environment, WorkQueue>>;
  /** Each environment's render queue, which the contract runs' Process state sends to. */
  render: Readonly<Record<Environment, WorkQueue>>;
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
        render: make(queueNames(environment).render, RENDER),
      },
    ]),
  ) as Record<Environment, EnvironmentQueues>;
  const workQueues = (of: (own: EnvironmentQueues) => LocalQueue) =>
    Object.fromEntries(
      ENVIRONMENTS.map((environment) => [environment, sqsWorkQueue(client, of(queues[environment]).url)]),
    ) as Record<Environment, WorkQueue>;
  return {
    sqs,
    client,
    queues,
    delivery: workQueues((own) => own.delivery),
    render: workQueues((own) => own.render),
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
  // Renders under way stop with the stack; their runs are re-driven after the next start.
  const stopping = new AbortController();
  const flows = ENVIRONMENTS.map((environment) => {
    const own = services[environment];
    const { fanOut, delivery, render } = queues[environment];
    const bus = localEventBus({ 'webhook-fan-out': sqsWorkQueue(client, fanOut.url) }, sqs.region);
    const consumers = [
      consumer(fanOut, fanOutRecords(own), FAN_OUT),
      consumer(delivery, deliveryRecords(own), DELIVERY),
      consumer(
        render,
        renderRecords(
          own,
          {
            perOrganisation: rendersPerOrganisation(RENDER.concurrency),
            queue: sqsWorkQueue(client, render.url),
            retrySeconds: RENDER_RETRY_SECONDS,
          },
          stopping.signal,
        ),
        RENDER,
      ),
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
      stopping.abort();
      await publisher.stop();
      await sweep.stop();
      await Promise.all(flows.flatMap(({ consumers }) => consumers.map((c) => c.stop())));
    },
  };
};
