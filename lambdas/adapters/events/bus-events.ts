// adapters -> a service event as the event bus carries it: an EventBridge entry whose detail holds the
// event with its data as JSON *text*, so that the receivers of a webhook get the bytes the outbox
// recorded (a bus may re-serialise an object, never the characters of a string). Read back with checks,
// as anything on a bus could have been put there by another publisher.
import * as z from 'zod/mini';
import { EVENT_TYPES, type ServiceEvent } from '../../core/events';
import { ENVIRONMENTS } from '../../core/model';

/** The `source` of every event this service publishes. */
export const EVENT_SOURCE = 'contract-service';

export interface BusEntry {
  Source: string;
  DetailType: string;
  Detail: string;
  Time: Date;
}

export const busEntryOf = (event: ServiceEvent): BusEntry => ({
  Source: EVENT_SOURCE,
  DetailType: event.type,
  Detail: JSON.stringify({
    id: event.id,
    type: event.type,
    scope: event.scope,
    occurredAt: event.occurredAt,
    data: event.data,
  }),
  Time: new Date(Math.floor(event.occurredAt / 1000)),
});

const Detail = z.object({
  id: z.string().check(z.regex(/^evt_[A-Za-z0-9]+$/)),
  type: z.enum(EVENT_TYPES),
  scope: z.object({
    organisationId: z.string(),
    integrationId: z.string(),
    environment: z.enum(ENVIRONMENTS),
  }),
  occurredAt: z.int().check(z.gte(0)),
  data: z.string(),
});

/** The service event in an event as the bus delivers it to a queue (`detail` an object). */
export const serviceEventOf = (delivered: unknown): ServiceEvent => {
  const envelope = z.object({ source: z.literal(EVENT_SOURCE), detail: z.unknown() }).parse(delivered);
  return Detail.parse(envelope.detail);
};
