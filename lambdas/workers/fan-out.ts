// workers -> deployed, the fan-out of recorded events to webhook messages: invoked by the table's
// stream when events are written (and on a schedule, so a missed invocation only delays). It reads the
// outbox itself, so what the stream carries does not matter and nothing is fanned out twice.
import type { Ports } from '../core/ports';
import { fanOutPending } from '../core/webhooks/delivery';

/** Fans out every pending event; resolves with how many there were. */
export const fanOutAll = async (ports: Ports): Promise<{ events: number }> => {
  let events = 0;
  for (let taken = -1; taken !== 0; events += taken) taken = await fanOutPending(ports);
  return { events };
};
