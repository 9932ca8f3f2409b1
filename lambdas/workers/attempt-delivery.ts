// workers -> the delivery workflow's one task: attempts a webhook message if its next attempt is due and
// says when the following one is (lambdas/core/webhooks/delivery.ts).
import * as z from 'zod/mini';
import { ENVIRONMENTS } from '../core/model';
import { attemptDelivery as attempt, type DeliveryStep } from '../core/webhooks/delivery';
import { worker } from './worker';

const DeliveryRunInput = z.object({
  kind: z.literal('delivery'),
  environment: z.enum(ENVIRONMENTS),
  messageId: z.string().check(z.regex(/^msg_[A-Za-z0-9]+$/)),
  round: z.int().check(z.gte(1)),
});

export const attemptDelivery = worker(
  DeliveryRunInput,
  (run, { ports, settings }): Promise<DeliveryStep> => attempt(ports, run, settings.delayScale),
);
