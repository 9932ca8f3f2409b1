// host -> the local stack's fan-out of recorded events to webhook messages, looking at each environment's
// outbox a few times a second (deployed, the table's stream invokes the same core function).
import { log } from '../core/log';
import type { Environment } from '../core/model';
import type { Services } from '../core/services';
import { fanOutPending } from '../core/webhooks/delivery';

const INTERVAL_MS = 200;

export interface LocalFanOut {
  stop(): Promise<void>;
}

export const startLocalFanOut = (services: Record<Environment, Services>): LocalFanOut => {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> = Promise.resolve();
  const tick = () => {
    timer = setTimeout(() => {
      round = (async () => {
        for (const { ports } of Object.values(services)) {
          try {
            await fanOutPending(ports);
          } catch (error) {
            log.error('fan-out failed; trying again', { error });
          }
        }
      })().finally(() => {
        if (!stopped) tick();
      });
    }, INTERVAL_MS);
  };
  tick();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await round;
    },
  };
};
