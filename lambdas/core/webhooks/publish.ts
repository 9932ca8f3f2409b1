// core/webhooks -> events leave the outbox for the event bus, whose rules hand them to the webhook
// fan-out's queue. The outbox stays the record: an event is pending until the fan-out's transaction
// takes it out with its messages, so a publish made twice makes no second message, and a publish the
// bus or its queue lost is made again once it is REPUBLISH_AFTER old.
import type { Micros } from '../model';
import type { EventBus, Ports } from '../ports';
import { SECOND } from '../time';

/** A published event not fanned out by then is published again. */
export const REPUBLISH_AFTER: Micros = 60 * SECOND;

export interface PublishOptions {
  limit?: number;
  /**
   * Publish events last published before this (default: REPUBLISH_AFTER ago). A local stack starts with
   * its start time: its queues forgot everything published before it.
   */
  publishedBefore?: Micros;
}

/** Publishes the outbox's publishable events (at most `limit`); resolves with how many. */
export const publishPending = async (
  ports: Pick<Ports, 'outbox' | 'clock'>,
  bus: EventBus,
  { limit = 100, publishedBefore }: PublishOptions = {},
): Promise<number> => {
  const now = ports.clock.now();
  const events = await ports.outbox.publishable(limit, publishedBefore ?? now - REPUBLISH_AFTER);
  if (events.length === 0) return 0;
  await bus.publish(events);
  await ports.outbox.markPublished(
    events.map((event) => event.id),
    now,
  );
  return events.length;
};
