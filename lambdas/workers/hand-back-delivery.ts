// workers -> the one task of a delivery's wait workflow (lib/workflows/webhook-delivery.asl.json): once a
// retry past the delivery queue's reach is due, the run goes back to the queue, whose consumer makes
// the attempt. Handing back twice is harmless: the consumer holds an attempt before it sends it.

import * as z from 'zod/mini';
import type { Ports } from '../core/ports';
import type { Services } from '../core/services';
import { dueMicros } from '../core/timed-step';
import { DeliveryRunShape } from '../core/webhooks/delivery-run';
import { worker } from './worker';

export const DeliveryWaitInput = z.extend(DeliveryRunShape, {
  /** What the Wait state waited until (ISO 8601). */
  dueAt: z.iso.datetime(),
});

export const handBackDelivery = worker(
  DeliveryWaitInput,
  async (
    { dueAt, ...run },
    { ports }: Services<Pick<Ports, 'deliveryQueue'>>,
  ): Promise<{ handedBack: true }> => {
    await ports.deliveryQueue.schedule([{ run, dueAt: dueMicros(dueAt) }]);
    return { handedBack: true };
  },
);
