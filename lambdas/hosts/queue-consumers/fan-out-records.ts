// host -> the webhook fan-out as a queue's consumer, the same deployed (an SQS event source mapping)
// and locally (local/queue-consumer.ts): each record is an event as the bus delivered it, fanned out to
// its messages. A record that fails (or is not an event of this environment) is reported, so that the
// queue brings it back and, past its receives, keeps it in the dead-letter queue.

import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { serviceEventOf } from '../../adapters/events/bus-events';
import { log } from '../../core/log';
import type { Ports } from '../../core/ports';
import type { Services } from '../../core/services';
import { fanOutEvent } from '../../core/webhooks/delivery';

export const fanOutRecords =
  ({
    ports,
  }: Services<
    Pick<Ports, 'clock' | 'deliveryQueue' | 'environment' | 'ids' | 'webhookEndpoints' | 'webhookMessages'>
  >) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    await Promise.all(
      event.Records.map(async (record) => {
        try {
          const serviceEvent = serviceEventOf(JSON.parse(record.body));
          if (serviceEvent.scope.environment !== ports.environment)
            throw new Error(`a ${serviceEvent.scope.environment} event on the ${ports.environment} queue`);
          await fanOutEvent(ports, serviceEvent);
        } catch (error) {
          log.error('fan-out of a queued event failed; the queue will bring it back', {
            queue_message_id: record.messageId,
            error,
          });
          failures.push({ itemIdentifier: record.messageId });
        }
      }),
    );
    return { batchItemFailures: failures };
  };
