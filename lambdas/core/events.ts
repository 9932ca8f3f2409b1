// core -> the events the interface announces ("Events": event kinds), recorded in the outbox in the same
// transaction as the state change they announce, for webhook delivery to fan out.
import type { Client, ContractReview, Micros, Scope } from './model';
import type { Ids } from './ports';
import { presentContractReview } from './present';

export const EVENT_TYPES = [
  'contract-reviews.processing.failed',
  'contract-reviews.analysis.completed',
  'contract-reviews.analysis.failed',
  'contract-reviews.lawyer_review.requested',
  'contract-reviews.lawyer_review.completed',
  'contract-reviews.publication.published',
  'contract-reviews.publication.withdrawn',
  'clients.submitted',
  'clients.accepted',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export interface ServiceEvent {
  /** `evt_…`: one event; each endpoint's message about it gets its own `msg_…` id. */
  id: string;
  type: EventType;
  scope: Scope;
  /** When it happened: the envelope's `timestamp`, never changed by retries. */
  occurredAt: Micros;
  /** The envelope's `data` as JSON text, exactly as it will be delivered. */
  data: string;
}

type ContractReviewEventType = Extract<EventType, `contract-reviews.${string}`>;

/** An event about a contract review, carrying it exactly as `GET /v1/contract-reviews/{id}` shows it now. */
export const contractReviewEvent = (
  ids: Ids,
  type: ContractReviewEventType,
  review: ContractReview,
  occurredAt: Micros,
  publication?: { channel: string; url: string },
): ServiceEvent => ({
  id: ids.id('evt'),
  type,
  scope: review.scope,
  occurredAt,
  data: JSON.stringify({
    ...(publication && { channel: publication.channel, url: publication.url }),
    contract_review: presentContractReview(review),
  }),
});

/** `clients.submitted` or `clients.accepted` for one buyer: the client data, all required and nothing else. */
export const clientEvent = (
  ids: Ids,
  type: 'clients.submitted' | 'clients.accepted',
  client: Client,
  occurredAt: Micros,
): ServiceEvent => ({
  id: ids.id('evt'),
  type,
  scope: client.scope,
  occurredAt,
  data: JSON.stringify({
    client_id: client.id,
    onboarding_id: client.onboardingId,
    reference: client.reference,
    primary: client.primary,
    first_name: client.firstName,
    last_name: client.lastName,
    email: client.email,
  }),
});
