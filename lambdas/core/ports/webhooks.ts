// core -> the ports of webhooks: the event outbox, endpoints, messages, the sender, and the queues that hand deliveries on.

import type { ServiceEvent } from '../events';
import type { Micros, Page } from '../model';
import type { DeliveryAttempt, WebhookEndpoint, WebhookMessage } from '../webhooks/model';
import type { DeliveryRun } from './runs';

/** The events recorded with the changes they announce, waiting to be fanned out to webhook endpoints. */
export interface EventOutbox {
  /** Events not yet fanned out, oldest first. */
  pending(limit: number): Promise<ServiceEvent[]>;
  /**
   * Events not yet fanned out that were never published to the bus, or last published before
   * `publishedBefore` (a publish the bus or its queue lost is made again), oldest first.
   */
  publishable(limit: number, publishedBefore: Micros): Promise<ServiceEvent[]>;
  /** Records that these events went to the bus at `at`; one fanned out meanwhile is left alone. */
  markPublished(eventIds: readonly string[], at: Micros): Promise<void>;
  get(eventId: string): Promise<ServiceEvent | null>;
}

/** Webhook endpoints, per integration in this environment's table. */
export interface WebhookEndpointStore {
  /** Records a new endpoint. */
  create(endpoint: WebhookEndpoint): Promise<void>;
  /** Replaces the endpoint if it is unchanged since read (`updatedAt`), else throws `ConcurrentChange`. */
  update(endpoint: WebhookEndpoint, expectedUpdatedAt: Micros): Promise<void>;
  /** Deletes it; its messages stay readable (history), and no new ones are made for it. */
  delete(id: string): Promise<void>;
  get(id: string): Promise<WebhookEndpoint | null>;
  /** The endpoints of `ids` that exist, by id, in one read. */
  getMany(ids: readonly string[]): Promise<Map<string, WebhookEndpoint>>;
  /** Every endpoint of an integration, oldest first. */
  listByIntegration(integrationId: string): Promise<WebhookEndpoint[]>;
}

/** What is written with a message's change: the attempt it records. */
export interface MessageEffects {
  attempt?: DeliveryAttempt;
}

/** A change of a message, made only if it is unchanged since read (`expectedUpdatedAt`). */
export interface MessageChange {
  message: WebhookMessage;
  expectedUpdatedAt: Micros;
  effects: MessageEffects;
}

/**
 * Webhook messages, one per (event, endpoint subscribed when it happened), and their attempts. A message
 * is its own delivery's durable record: while `pending` it is in the list of deliveries to do.
 */
export interface WebhookMessageStore {
  /**
   * Records the messages of one event and marks the event fanned out, in one transaction. Writes nothing
   * and returns false when the event was fanned out already (by a fan-out racing this one).
   */
  fanOut(eventId: string, messages: WebhookMessage[]): Promise<boolean>;
  /** Records a message that is no event of the outbox (a test event). */
  create(message: WebhookMessage): Promise<void>;
  /**
   * The messages pending delivery, oldest first (there may be thousands: a failing endpoint's wait a
   * day); those after `after`, one of them (or one that was), when given.
   */
  pendingDeliveries(limit: number, after?: WebhookMessage): Promise<WebhookMessage[]>;
  get(id: string): Promise<WebhookMessage | null>;
  /** The messages of `ids` that exist, by id, in one read. */
  getMany(ids: readonly string[]): Promise<Map<string, WebhookMessage>>;
  /**
   * Replaces the message if it is unchanged since read (`updatedAt`), else throws `ConcurrentChange`;
   * in the same transaction records `attempt`.
   */
  update(message: WebhookMessage, expectedUpdatedAt: Micros, effects: MessageEffects): Promise<void>;
  /**
   * `update` of several messages (distinct ids) at once: one transaction when every one applies, else
   * each on its own. Answers, in order, whether each was written (false: `ConcurrentChange`).
   */
  updateMany(changes: readonly MessageChange[]): Promise<boolean[]>;
  /** The attempts of a message, every round, oldest first. */
  attempts(messageId: string): Promise<DeliveryAttempt[]>;
  /** An endpoint's messages, newest first, those in `state` only when given, after `startingAfter`. */
  listByEndpoint(
    endpointId: string,
    options: { limit: number; state?: WebhookMessage['state']; startingAfter?: WebhookMessage },
  ): Promise<Page<WebhookMessage>>;
}

/** Sends one signed attempt, after checking the address again (decisions.md §6); never throws. */
export interface WebhookSender {
  send(request: { url: string; headers: Record<string, string>; body: string }): Promise<AttemptOutcome>;
}

export interface AttemptOutcome {
  status: number | null;
  error: string | null;
  durationMs: number;
  /** At most 1 KiB of the answer's body. */
  body: string;
}

/** A delivery run handed on for its next attempt, due at `dueAt`. */
export interface DueDelivery {
  run: DeliveryRun;
  dueAt: Micros;
}

/**
 * Where webhook deliveries wait for their next attempt: the delivery queue, which holds a message up to
 * 15 minutes (its own delay), and past that a workflow that waits and hands the run back to the queue
 * when it is due. So only retries of failing endpoints ever start a state machine.
 */
export interface DeliveryQueue {
  /** Hands each run to the delivery consumer at its due time; resolves once every one is held. */
  schedule(deliveries: readonly DueDelivery[]): Promise<void>;
}

/** One piece of work for a queue: its text, and how long the queue holds it back first. */
export interface QueuedWork {
  body: string;
  /** Whole seconds, 0 to MAX_QUEUE_DELAY_SECONDS: a longer wait is a workflow's, not a queue's. */
  delaySeconds?: number;
}

/** The longest a queue holds a message back (SQS's limit: 15 minutes). */
export const MAX_QUEUE_DELAY_SECONDS = 900;

/**
 * A work queue (SQS deployed and against the local twin): what is sent is delivered at least once to
 * the queue's consumer, after its delay; a consumer that fails an item sees it again later.
 */
export interface WorkQueue {
  /** Sends every message, in as few calls as the queue allows; resolves once all are stored. */
  send(messages: readonly QueuedWork[]): Promise<void>;
}

/**
 * The event bus (EventBridge deployed, routed in this process locally): each event published goes to
 * every queue whose rule matches it, carrying the event's data exactly as recorded.
 */
export interface EventBus {
  /** Publishes every event; resolves once the bus has taken them all. */
  publish(events: readonly ServiceEvent[]): Promise<void>;
}

/** The webhooks area: the outbox, endpoints and messages, the sender, and the delivery queue. */
export interface WebhookPorts {
  outbox: EventOutbox;
  webhookEndpoints: WebhookEndpointStore;
  webhookMessages: WebhookMessageStore;
  webhookSender: WebhookSender;
  deliveryQueue: DeliveryQueue;
}
