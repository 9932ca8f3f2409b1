// workers -> deployed, the fan-out of recorded events to webhook messages: invoked by the table's
// stream when events are written (and on a schedule, so a missed invocation only delays). It reads the
// outbox itself, so what the stream carries does not matter and nothing is fanned out twice.
import { fanOutPending } from '../core/webhooks/delivery';

export const handler = async (): Promise<{ events: number }> => {
  const { awsServices } = await import('../adapters/aws/services');
  const { ports } = await awsServices();
  let events = 0;
  for (let taken = -1; taken !== 0; events += taken) taken = await fanOutPending(ports);
  return { events };
};
