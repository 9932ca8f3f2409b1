// core -> the events the interface announces ("Events": event kinds), recorded in the outbox in the same
// transaction as the state change they announce, for webhook delivery to fan out.
import type { Client, ContractReview, Micros, Scope } from './model';
import type { Ids } from './ports/foundation';
import { presentContractReview } from './present';
import type { EventTypeJson, ListOf } from './shapes';

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

/** When each event happens and what its `data` holds (interface.md, Event kinds). */
const EVENT_DESCRIPTIONS: Readonly<Record<EventType, { when: string; data: string }>> = {
  'contract-reviews.processing.failed': {
    when: 'The PDF could not be processed; processing.state is failed with failure_reason. Not final: a new version may follow.',
    data: '{ contract_review }',
  },
  'contract-reviews.analysis.completed': {
    when: 'A version has been analysed.',
    data: '{ contract_review }',
  },
  'contract-reviews.analysis.failed': {
    when: 'A version could not be analysed (declared by the interface; not sent yet).',
    data: '{ channel, url, contract_review }, as declared',
  },
  'contract-reviews.lawyer_review.requested': {
    when: "A lawyer's review is due (the analysis is done).",
    data: '{ contract_review }',
  },
  'contract-reviews.lawyer_review.completed': {
    when: 'A lawyer reviewed and published; a publication.published follows for each channel.',
    data: '{ contract_review }',
  },
  'contract-reviews.publication.published': {
    when: 'A channel went live or was republished.',
    data: '{ channel, url, contract_review }',
  },
  'contract-reviews.publication.withdrawn': {
    when: 'A channel was taken down.',
    data: '{ channel, url, contract_review }',
  },
  'clients.submitted': {
    when: 'The sign-up form was submitted: one message per buyer, every submission.',
    data: 'the client',
  },
  'clients.accepted': {
    when: 'The sign-up was accepted: one message per buyer, at once or minutes or days after submission.',
    data: 'the client',
  },
};

/** The events an endpoint can subscribe to, each with when it happens and its `data`: `{data}`. */
export const listEventTypes = (): ListOf<EventTypeJson> => ({
  data: EVENT_TYPES.map((type) => ({ type, ...EVENT_DESCRIPTIONS[type] })),
});

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
