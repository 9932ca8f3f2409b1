// test support -> a settable clock and domain records, for the adapter tests and the core's unit tests.
import { randomUUID } from 'node:crypto';
import type {
  ApiKeyRecord,
  Client,
  ContractReview,
  ContractVersion,
  Environment,
  Micros,
  Onboarding,
  Organisation,
  Scope,
} from '../../lambdas/core/model';
import type { Clock, IdempotencyCompletion } from '../../lambdas/core/ports';
import type { WebhookEndpoint, WebhookMessage } from '../../lambdas/core/webhooks/model';

/** A clock that stands still until moved, starting at a realistic time. */
export class TestClock implements Clock {
  constructor(private time: Micros = Date.UTC(2026, 10, 21, 9, 30) * 1000) {}
  now(): Micros {
    return this.time;
  }
  advance(micros: Micros): void {
    this.time += micros;
  }
  /** Moves on to `at`, unless it is already later. */
  until(at: Micros): void {
    this.time = Math.max(this.time, at);
  }
  /** Moves on by one microsecond and answers the new time: distinct creation times. */
  tick(): Micros {
    this.time += 1;
    return this.time;
  }
}

export const SECOND = 1_000_000;

export const id = (prefix: string): string => `${prefix}${randomUUID().replaceAll('-', '')}`;

export const scopeIn = (environment: Environment, organisationId = id('org_')): Scope => ({
  organisationId,
  integrationId: id('int_'),
  environment,
});

export const organisation = (overrides: Partial<Organisation> = {}): Organisation => ({
  id: id('org_'),
  name: 'Harbour Conveyancing',
  ownerId: id('per_'),
  createdAt: 1_763_717_400_000_000,
  ...overrides,
});

export const apiKey = (scope: Scope, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  id: id('key_'),
  organisationId: scope.organisationId,
  integrationId: scope.integrationId,
  environment: scope.environment,
  hash: randomUUID().replaceAll('-', '').repeat(2),
  prefix: 'svc_test_abcd',
  name: null,
  createdAt: 1_763_717_400_000_000,
  lastUsedAt: null,
  revokedAt: null,
  ...overrides,
});

export const contractReview = (
  scope: Scope,
  createdAt: Micros,
  overrides: Partial<ContractReview> = {},
): ContractReview => ({
  id: id('crv_'),
  scope,
  externalReference: id('ref-'),
  product: 'legal_information',
  version: 1,
  review: 'lawyer',
  processing: { state: 'pending', completedAt: null, failureReason: null, failedAt: null },
  analysis: { state: 'pending', completedAt: null, failureReason: null, failedAt: null },
  lawyerReview: { state: 'not_requested', requestedAt: null, completedAt: null },
  publications: [
    { channel: 'contract_viewer', state: 'pending', slug: id('s'), url: null, publishedAt: null },
    { channel: 'review', state: 'pending', slug: id('s'), url: null, publishedAt: null },
  ],
  clients: [],
  recipient: null,
  createdAt,
  updatedAt: createdAt,
  ...overrides,
});

export const contractVersion = (
  review: ContractReview,
  version: number,
  createdAt: Micros,
): ContractVersion => ({
  contractReviewId: review.id,
  version,
  fileSha256: randomUUID().replaceAll('-', '').repeat(2),
  fileSize: 123_456,
  pageCount: 12,
  blobKey: `contracts/${review.id}/${version}.pdf`,
  createdAt,
});

export const completion = (
  scope: Scope,
  key: string,
  fingerprint: string,
  status = 202,
): IdempotencyCompletion => ({
  scope,
  key,
  fingerprint,
  answer: { status, body: JSON.stringify({ key, status }) },
});

export const onboarding = (
  scope: Scope,
  createdAt: Micros,
  overrides: Partial<Onboarding> = {},
): Onboarding => ({
  id: id('onb_'),
  scope,
  reference: id('customer-'),
  state: 'open',
  clientIds: [],
  createdAt,
  submittedAt: null,
  acceptedAt: null,
  ...overrides,
});

export const client = (of: Onboarding, createdAt: Micros, overrides: Partial<Client> = {}): Client => ({
  id: id('cli_'),
  scope: of.scope,
  onboardingId: of.id,
  reference: of.reference,
  primary: false,
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: `${randomUUID()}@example.com`,
  mobile: null,
  createdAt,
  ...overrides,
});

/** A signing secret of the service's shape: `whsec_` and the base64 of 32 bytes. */
const whsec = () => `whsec_${Buffer.from(id('k').slice(0, 32)).toString('base64')}`;

/** A webhook endpoint of `scope` made at `createdAt`, mid-rotation (two secrets, the older expiring). */
export const webhookEndpoint = (
  scope: Scope,
  createdAt: Micros,
  overrides: Partial<WebhookEndpoint> = {},
): WebhookEndpoint => ({
  id: id('whe_'),
  scope,
  url: 'https://hooks.example.com/service?source=contracts',
  subscriptions: { 'clients.submitted': createdAt, 'contract-reviews.analysis.completed': createdAt - 5 },
  secrets: [
    { secret: whsec(), createdAt, expiresAt: null },
    { secret: whsec(), createdAt: createdAt - 10, expiresAt: createdAt + 86_400 * SECOND },
  ],
  enabled: true,
  createdAt,
  updatedAt: createdAt,
  ...overrides,
});

/** A message to `of` made at `createdAt`, pending its first attempt (due then). */
export const webhookMessage = (
  of: WebhookEndpoint,
  createdAt: Micros,
  overrides: Partial<WebhookMessage> = {},
): WebhookMessage => ({
  id: id('msg_'),
  eventId: id('evt_'),
  endpointId: of.id,
  scope: of.scope,
  type: 'clients.submitted',
  occurredAt: createdAt - 7,
  data: '{"client_id":"cli_1","first_name":"Zoë"}',
  test: false,
  state: 'pending',
  round: 1,
  attemptsInRound: 0,
  nextAttemptAt: createdAt,
  claimedUntil: null,
  createdAt,
  updatedAt: createdAt,
  ...overrides,
});
