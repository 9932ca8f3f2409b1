// local -> the local stack's re-drive of webhook deliveries (deployed, the scheduled re-drive runs the same
// core function, lambdas/workers/redrive-runs.ts). Its first look hands every pending delivery on
// at its due time: the local queue is new and empty after a start. Then, once a second while the
// environment's delivery queue has nothing ready or under way, it looks at the next page of pending
// deliveries and hands on those overdue and unheld (lost from the queue, or recorded by the operator tool
// beside the stack), so that the whole list is swept, page by page, whatever its size. While the queue is
// busy (a burst), a delivery due a while ago is most likely still in it: a copy would only be wasted work.
import { log } from '../lambdas/core/log';
import type { Ports } from '../lambdas/core/ports';
import { redriveDeliveries } from '../lambdas/core/webhooks/delivery';
import type { WebhookMessage } from '../lambdas/core/webhooks/model';

const INTERVAL_MS = 1_000;
const PAGE = 100;
/**
 * How long a delivery is due and unheld before this takes it for lost: a few seconds, so that a
 * redelivery the operator tool records goes out promptly.
 */
const OVERDUE_MICROS = 5_000_000;

export interface LocalDeliverySweep {
  stop(): Promise<void>;
}

export interface SweptEnvironment {
  ports: Ports;
  /** Whether its delivery queue has nothing ready to receive and nothing received and unfinished. */
  queueIdle(): boolean;
}

export const startLocalDeliverySweep = (environments: readonly SweptEnvironment[]): LocalDeliverySweep => {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const after = new Map<Ports, WebhookMessage | undefined>();

  /** One page of each environment's pending deliveries; back to the first after the last. */
  const sweepPage = async (ports: Ports, overdueBy: number | null): Promise<boolean> => {
    const page = await ports.webhookMessages.pendingDeliveries(PAGE, after.get(ports));
    await redriveDeliveries(ports, page, overdueBy);
    after.set(ports, page.length < PAGE ? undefined : page.at(-1));
    return page.length === PAGE;
  };

  const first = async () => {
    for (const { ports } of environments) while (!stopped && (await sweepPage(ports, null)));
  };
  const next = async () => {
    for (const { ports, queueIdle } of environments) if (queueIdle()) await sweepPage(ports, OVERDUE_MICROS);
  };

  let round: Promise<void> = Promise.resolve();
  const look = (sweep: () => Promise<void>) => {
    round = sweep()
      .catch((error: unknown) => log.error('the delivery re-drive failed; trying again', { error }))
      .finally(() => {
        if (!stopped) timer = setTimeout(() => look(next), INTERVAL_MS);
      });
  };
  look(first);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await round;
    },
  };
};
