// core/webhooks -> the records of webhook delivery (interface.md "Events", decisions.md §6): endpoints an
// integration registers per environment, and one message per (event, endpoint subscribed when it
// happened), with every attempt to deliver it.
import type { EventType } from '../events';
import type { Micros, Scope } from '../model';

/** A signing secret; during a rotation the previous one keeps signing beside the new one until it expires. */
export interface EndpointSecret {
  /** `whsec_…`, shown once when made. */
  secret: string;
  createdAt: Micros;
  /** When a rotated-out secret stops signing; null for the current one. */
  expiresAt: Micros | null;
}

export interface WebhookEndpoint {
  /** `whe_…` */
  id: string;
  scope: Scope;
  url: string;
  /**
   * The events it receives, each with the time it was subscribed: an event goes only to an endpoint
   * subscribed to it when it happened, so fan-out compares the event's time with this.
   */
  subscriptions: Partial<Record<EventType, Micros>>;
  /** Newest first; the first is the current secret. */
  secrets: EndpointSecret[];
  enabled: boolean;
  createdAt: Micros;
  updatedAt: Micros;
}

export type MessageType = EventType | 'test';

/** One attempt to deliver a message (decisions.md §6). */
export interface DeliveryAttempt {
  /** 1 to 8 in one round of delivery; a redelivery starts a new round. */
  number: number;
  round: number;
  at: Micros;
  /** The answer's status, or null when none came (network error, time-out, refused address). */
  status: number | null;
  error: string | null;
  durationMs: number;
  /** At most 1 KiB of the answer's body. */
  body: string;
}

export interface WebhookMessage {
  /** `msg_…`: the `webhook-id` of every attempt and redelivery. */
  id: string;
  /** The event it carries (`evt_…`), or null for a test event. */
  eventId: string | null;
  endpointId: string;
  scope: Scope;
  type: MessageType;
  /** The envelope's `timestamp`: when the event happened. */
  occurredAt: Micros;
  /** The envelope's `data`, JSON text as recorded. */
  data: string;
  test: boolean;
  /** `delivered` after a 2xx; `failed` once the last attempt of a round failed. */
  state: 'pending' | 'delivered' | 'failed';
  /** Rounds of delivery: 1, plus one per redelivery. */
  round: number;
  /** Attempts made in this round (0 to 8); each is kept as a `DeliveryAttempt`. */
  attemptsInRound: number;
  /** When the next attempt of the round is due; null once delivered or failed. */
  nextAttemptAt: Micros | null;
  /**
   * Until when one consumer holds the next attempt (it is sending it): a queue may hand a delivery out
   * twice, and the copy that finds it held does not send. Null when no attempt is under way.
   */
  claimedUntil: Micros | null;
  createdAt: Micros;
  updatedAt: Micros;
}
