// adapter -> the delivery-queue port: a delivery due within the queue's reach goes to the delivery queue
// with that delay (SQS holds a message back up to 15 minutes); one due later goes to a wait workflow
// (Step Functions deployed, the local runner here) that hands it back when due. The queue's message is
// the run, as JSON; `deliveryRunOf` reads it back for the consumer.
import * as z from 'zod/mini';
import {
  type Clock,
  type DeliveryQueue,
  type DeliveryRun,
  type DueDelivery,
  MAX_QUEUE_DELAY_SECONDS,
  type QueuedWork,
  type WorkQueue,
} from '../../core/ports';
import { DeliveryRunShape } from '../../core/webhooks/delivery-run';

/** The workflow that waits out a delivery's long pause and then schedules it again. */
export interface DeliveryWaits {
  /** Starts the wait of `delivery`; starting the same wait twice starts one. */
  start(delivery: DueDelivery): Promise<void>;
}

export interface QueuedDeliveriesOptions {
  queue: WorkQueue;
  waits: DeliveryWaits;
  clock: Clock;
  /**
   * DELAY_SCALE: the queue's reach is divided by it as the schedule's pauses are, so that the local stack
   * sends the same retries to the workflow as deployed (past 30 minutes) however fast its schedule runs.
   */
  delayScale: number;
}

/** The run a delivery queue's message carries; throws on anything else. */
export const deliveryRunOf = (body: string): DeliveryRun => {
  const parsed = DeliveryRunShape.safeParse(JSON.parse(body));
  if (!parsed.success) throw new Error(`not a delivery run: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
};

const bodyOf = ({ kind, environment, messageId, round }: DeliveryRun): string =>
  JSON.stringify({ kind, environment, messageId, round });

export const queuedDeliveries = ({
  queue,
  waits,
  clock,
  delayScale,
}: QueuedDeliveriesOptions): DeliveryQueue => ({
  schedule: async (deliveries) => {
    const now = clock.now();
    const reach = MAX_QUEUE_DELAY_SECONDS / delayScale;
    const queued: QueuedWork[] = [];
    const waiting: DueDelivery[] = [];
    for (const delivery of deliveries) {
      const seconds = Math.max(0, (delivery.dueAt - now) / 1_000_000);
      if (seconds > reach) waiting.push(delivery);
      // Whole seconds, rounded up: a delivery never comes back before it is due.
      else
        queued.push({
          body: bodyOf(delivery.run),
          delaySeconds: Math.min(Math.ceil(seconds), MAX_QUEUE_DELAY_SECONDS),
        });
    }
    await Promise.all([queue.send(queued), ...waiting.map((delivery) => waits.start(delivery))]);
  },
});
