// host -> the function that publishes recorded events to the environment's event bus (the table's
// stream invokes it when events are written, and a schedule, so a missed invocation only delays).
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { eventBridgeBus } from '../../../adapters/events/eventbridge-bus';
import type { Ports } from '../../../core/ports';
import { publishPending } from '../../../core/webhooks/publish';
import { builtOnFirstUse } from '../built-on-first-use';
import { portsLambda } from '../lambda';

const bus = builtOnFirstUse(async () => {
  const name = process.env.EVENT_BUS_NAME;
  if (!name) throw new Error('EVENT_BUS_NAME is not set');
  return eventBridgeBus(new EventBridgeClient({}), name);
});

export const handler = portsLambda(async (ports: Pick<Ports, 'clock' | 'outbox'>) => {
  let published = 0;
  // Until none is left; a time-out leaves the rest for the next invocation.
  for (let taken = -1; taken !== 0; published += taken) taken = await publishPending(ports, await bus());
  return { published };
});
