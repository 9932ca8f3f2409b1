// core/webhooks -> the shape of a delivery run as it travels outside the process: the delivery queue's
// message body (adapters/queues/delivery-queue.ts) and, with the time it waits until, the input of the
// delivery wait workflow's task (workers/hand-back-delivery.ts). One schema for both, and the one way
// that input is made.
import * as z from 'zod/mini';
import { ENVIRONMENTS } from '../model';
import type { DueDelivery } from '../ports';
import { dueTime } from '../timed-step';

export const DeliveryRunShape = z.object({
  kind: z.literal('delivery'),
  environment: z.enum(ENVIRONMENTS),
  messageId: z.string().check(z.regex(/^msg_[A-Za-z0-9]+$/)),
  round: z.int().check(z.gte(1)),
});

/** The wait workflow's input for `delivery`: the run, and the time its Wait state waits until. */
export const deliveryWaitInput = ({ run, dueAt }: DueDelivery) => ({ ...run, dueAt: dueTime(dueAt) });
