// host -> the local stack's publisher of recorded events to each environment's event bus, looking at
// the outbox a few times a second (deployed, the table's stream and a schedule invoke the same core
// function). Its first look publishes every pending event: the local queues forgot them on the restart.
import { log } from '../core/log';
import type { EventBus, Ports } from '../core/ports';
import { publishPending } from '../core/webhooks/publish';

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
  const publishAll = async (publishedBefore?: (ports: Ports) => number) => {
    for (const { ports, bus } of environments) {
      try {
        const before = publishedBefore?.(ports);
        while (!stopped && (await publishPending(ports, bus, { publishedBefore: before })) > 0);
      } catch (error) {
        log.error('publishing events failed; trying again', { error });
      }
    }
  };
  const tick = () => {
    timer = setTimeout(() => {
      round = publishAll().finally(() => {
        if (!stopped) tick();
      });
    }, INTERVAL_MS);
  };
  // The first look: everything pending, however recently published before this start.
  const startedAt = new Map(environments.map(({ ports }) => [ports, ports.clock.now()]));
  round = publishAll((ports) => startedAt.get(ports) as number).finally(() => {
    if (!stopped) tick();
  });
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await round;
    },
  };
};
