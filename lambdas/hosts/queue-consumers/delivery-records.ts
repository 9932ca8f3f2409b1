// host -> webhook delivery as a queue's consumer, the same deployed (an SQS event source mapping) and
// locally (local/queue-consumer.ts): each record is a delivery run, whose message's next attempt is made
// if due, the batch's together (lambdas/core/webhooks/delivery.ts). The runs whose next attempt is to
// come are handed on, all in one call, before the batch is reported: if that fails, their records are
// reported failed, so that the queue brings them back and they are handed on then.

import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { deliveryRunOf } from '../../adapters/queues/delivery-queue';
import { log } from '../../core/log';
import type { DeliveryRun, Ports } from '../../core/ports';
import type { Services } from '../../core/services';
import { dueMicros } from '../../core/timed-step';
import { attemptDeliveries } from '../../core/webhooks/delivery';

const failure = (message: string, records: readonly SQSRecord[], error: unknown) => {
  log.error(message, {
    queue_message_ids: records.map((record) => record.messageId),
    error,
  });
  return records.map((record) => ({ itemIdentifier: record.messageId }));
};

export const deliveryRecords =
  ({
    ports,
    settings,
  }: Services<
    Pick<
      Ports,
      'clock' | 'deliveryQueue' | 'environment' | 'webhookEndpoints' | 'webhookMessages' | 'webhookSender'
    >
  >) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    const queued: Array<{ record: SQSRecord; run: DeliveryRun }> = [];
    for (const record of event.Records) {
      try {
        const run = deliveryRunOf(record.body);
        if (run.environment !== ports.environment)
          throw new Error(`a ${run.environment} delivery on the ${ports.environment} queue`);
        queued.push({ record, run });
      } catch (error) {
        // Kept aside in the dead-letter queue after its receives: no consumer can take it.
        failures.push(...failure('a queued delivery is not one of this queue', [record], error));
      }
    }
    let steps: Awaited<ReturnType<typeof attemptDeliveries>>;
    try {
      steps = await attemptDeliveries(
        ports,
        queued.map(({ run }) => run),
        settings.delayScale,
      );
    } catch (error) {
      // What was recorded stays recorded: the copies that come back find those attempts made.
      const records = queued.map(({ record }) => record);
      return {
        batchItemFailures: [
          ...failures,
          ...failure('queued deliveries failed; the queue will bring them back', records, error),
        ],
      };
    }
    const next = queued.flatMap(({ record, run }, i) => {
      const step = steps[i];
      return step && !step.done ? [{ record, delivery: { run, dueAt: dueMicros(step.dueAt) } }] : [];
    });
    try {
      await ports.deliveryQueue.schedule(next.map(({ delivery }) => delivery));
    } catch (error) {
      const records = next.map(({ record }) => record);
      failures.push(
        ...failure('next attempts not handed on; the queue will bring their deliveries back', records, error),
      );
    }
    return { batchItemFailures: failures };
  };
