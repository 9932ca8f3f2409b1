// local -> the local stack's publisher of recorded events to each environment's event bus, looking at
// the outbox a few times a second (deployed, the table's stream and a schedule invoke the same core
// function). Its first look publishes every pending event: the local queues forgot them on the restart.
import { log } from '../lambdas/core/log';
import type { Micros } from '../lambdas/core/model';
import type { EventBus, Ports } from '../lambdas/core/ports';
import { publishPending } from '../lambdas/core/webhooks/publish';

const INTERVAL_MS = 200;

export interface LocalEventPublisher {
  stop(): Promise<void>;
}

export const startLocalEventPublisher = (
  environments: ReadonlyArray<{ ports: Ports; bus: EventBus }>,
): LocalEventPublisher => {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> = Promise.resolve();
  /** Each environment's outbox until none is publishable; `publishedBefore` by environment, if given. */
  const publishAll = async (publishedBefore: ReadonlyArray<Micros | undefined> = []) => {
    for (const [i, { ports, bus }] of environments.entries()) {
      try {
        const before = publishedBefore[i];
        while (!stopped && (await publishPending(ports, bus, { publishedBefore: before })) > 0);
      } catch (error) {
        log.error('publishing events failed; trying again', { error });
      }
    }
  };
  /** One look, then the next INTERVAL_MS after it ends. */
  const look = (publishedBefore?: ReadonlyArray<Micros | undefined>) => {
    round = publishAll(publishedBefore).finally(() => {
      if (!stopped) timer = setTimeout(look, INTERVAL_MS);
    });
  };
  // The first look: everything pending, however recently published before this start.
  look(environments.map(({ ports }) => ports.clock.now()));
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await round;
    },
  };
};
