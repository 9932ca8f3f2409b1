// adapter -> the one mapping between domain records and table items: snake_case attributes, times as
// epoch microseconds, nulls kept as nulls. Items are read back as the shapes written here.

import type { EventType, ServiceEvent } from '../../core/events';
import type {
  ApiKeyRecord,
  Client,
  ContractReview,
  ContractVersion,
  Environment,
  Integration,
  LawyerReview,
  Micros,
  Onboarding,
  Organisation,
  Part,
  Publication,
  Recipient,
  SandboxBudget,
  Scope,
} from '../../core/model';
import type { Person } from '../../core/people/person';
import { type RunOutcome, type RunRequest, runSubject, type WorkflowRun } from '../../core/ports';
import { type ApiRequestRecord, REQUEST_HISTORY_KEPT } from '../../core/request-history/model';
import type { DeliveryAttempt, WebhookEndpoint, WebhookMessage } from '../../core/webhooks/model';
import { byCreation, keys } from './keys';
import { LIST_INDEX, PARTITION_KEY, SECOND_INDEX, SORT_KEY, TTL_ATTRIBUTE } from './table-schema';

/** An item as the document client reads it. */
export type Item = Record<string, unknown>;

interface ScopeAttributes {
  organisation_id: string;
  integration_id: string;
  environment: Scope['environment'];
}

const scopeAttributes = (scope: Scope): ScopeAttributes => ({
  organisation_id: scope.organisationId,
  integration_id: scope.integrationId,
  environment: scope.environment,
});

const scopeOf = (item: ScopeAttributes): Scope => ({
  organisationId: item.organisation_id,
  integrationId: item.integration_id,
  environment: item.environment,
});

// Organisation

interface OrganisationItem {
  id: string;
  name: string;
  owner_id: string;
  created_at: number;
}

export const organisationItem = (o: Organisation): Item => ({
  ...keys.organisation(o.id),
  // Every organisation by name (the back office's Organisations page), case folded, ties by id.
  [LIST_INDEX.partitionKey]: keys.organisationList,
  [LIST_INDEX.sortKey]: `${o.name.toLowerCase()}#${o.id}`,
  type: 'organisation',
  id: o.id,
  name: o.name,
  owner_id: o.ownerId,
  created_at: o.createdAt,
});

export const toOrganisation = (item: Item): Organisation => {
  const i = item as unknown as OrganisationItem;
  return { id: i.id, name: i.name, ownerId: i.owner_id, createdAt: i.created_at };
};

// Sandbox budget (the sandbox's table)

/** The item's attributes the contract review store's budget check reads and counts. */
export const SANDBOX_BUDGET_ATTRIBUTES = { total: 'sandbox_budget', used: 'sandbox_used' } as const;

export const toSandboxBudget = (
  organisationId: string,
  item: Item | undefined,
  defaultTotal: number,
): SandboxBudget => ({
  organisationId,
  total: typeof item?.sandbox_budget === 'number' ? item.sandbox_budget : defaultTotal,
  used: typeof item?.sandbox_used === 'number' ? item.sandbox_used : 0,
});

// Integration

interface IntegrationItem {
  id: string;
  organisation_id: string;
  integration_type: Integration['type'];
  name: string;
  created_at: number;
}

export const integrationItem = (i: Integration): Item => ({
  ...keys.integration(i.id),
  type: 'integration',
  id: i.id,
  organisation_id: i.organisationId,
  integration_type: i.type,
  name: i.name,
  created_at: i.createdAt,
  [LIST_INDEX.partitionKey]: keys.integrationList(i.organisationId),
  [LIST_INDEX.sortKey]: byCreation(i.createdAt, i.id),
});

export const toIntegration = (item: Item): Integration => {
  const i = item as unknown as IntegrationItem;
  return {
    id: i.id,
    organisationId: i.organisation_id,
    type: i.integration_type,
    name: i.name,
    createdAt: i.created_at,
  };
};

// Person (identity table), and the item that claims their email.

interface PersonItem {
  id: string;
  email: string;
  password_hash: string;
  created_at: number;
  organisation_id: string | null;
}

export const personItem = (p: Person): Item => ({
  ...keys.person(p.id),
  type: 'person',
  id: p.id,
  email: p.email,
  password_hash: p.passwordHash,
  created_at: p.createdAt,
  organisation_id: p.organisationId,
});

export const personEmailItem = (p: Person): Item => ({
  ...keys.personEmail(p.email),
  type: 'person_email',
  person_id: p.id,
});

export const toPerson = (item: Item): Person => {
  const i = item as unknown as PersonItem;
  return {
    id: i.id,
    email: i.email,
    passwordHash: i.password_hash,
    createdAt: i.created_at,
    organisationId: i.organisation_id,
  };
};

// API key: the record, and a copy under its hash for the lookup at token exchange.

interface ApiKeyItem {
  id: string;
  organisation_id: string;
  integration_id: string;
  environment: ApiKeyRecord['environment'];
  hash: string;
  prefix: string;
  /** Absent on keys made before keys had names and a last use. */
  name?: string | null;
  created_at: number;
  last_used_at?: number | null;
  revoked_at: number | null;
}

const apiKeyAttributes = (k: ApiKeyRecord): ApiKeyItem => ({
  id: k.id,
  organisation_id: k.organisationId,
  integration_id: k.integrationId,
  environment: k.environment,
  hash: k.hash,
  prefix: k.prefix,
  name: k.name,
  created_at: k.createdAt,
  last_used_at: k.lastUsedAt,
  revoked_at: k.revokedAt,
});

/** The key, in its integration's newest-first list. */
export const apiKeyItem = (k: ApiKeyRecord): Item => ({
  ...keys.apiKey(k.id),
  type: 'api_key',
  [LIST_INDEX.partitionKey]: keys.apiKeyList(k.integrationId),
  [LIST_INDEX.sortKey]: byCreation(k.createdAt, k.id),
  ...apiKeyAttributes(k),
});

export const apiKeyHashItem = (k: ApiKeyRecord): Item => ({
  ...keys.apiKeyHash(k.hash),
  type: 'api_key_hash',
  ...apiKeyAttributes(k),
});

export const toApiKey = (item: Item): ApiKeyRecord => {
  const i = item as unknown as ApiKeyItem;
  return {
    id: i.id,
    organisationId: i.organisation_id,
    integrationId: i.integration_id,
    environment: i.environment,
    hash: i.hash,
    prefix: i.prefix,
    name: i.name ?? null,
    createdAt: i.created_at,
    lastUsedAt: i.last_used_at ?? null,
    revokedAt: i.revoked_at,
  };
};

// Contract review

interface PartAttributes {
  state: Part['state'];
  completed_at: number | null;
  failure_reason: Part['failureReason'];
  failed_at: number | null;
}

interface LawyerReviewAttributes {
  state: LawyerReview['state'];
  requested_at: number | null;
  completed_at: number | null;
  wait_token?: string;
  text_key?: string;
  reviewer_name?: string;
}

interface PublicationAttributes {
  channel: Publication['channel'];
  state: Publication['state'];
  slug: string;
  url: string | null;
  published_at: number | null;
}

interface RecipientAttributes {
  first_name: string;
  last_name: string;
  email: string;
}

interface ContractReviewItem extends ScopeAttributes {
  id: string;
  external_reference: string;
  product: ContractReview['product'];
  version: number;
  review: ContractReview['review'];
  processing: PartAttributes;
  analysis: PartAttributes | null;
  lawyer_review: LawyerReviewAttributes | null;
  publications: PublicationAttributes[];
  clients: string[];
  recipient: RecipientAttributes | null;
  created_at: number;
  updated_at: number;
}

const partAttributes = (p: Part): PartAttributes => ({
  state: p.state,
  completed_at: p.completedAt,
  failure_reason: p.failureReason,
  failed_at: p.failedAt,
});

const toPart = (a: PartAttributes): Part => ({
  state: a.state,
  completedAt: a.completed_at,
  failureReason: a.failure_reason,
  failedAt: a.failed_at,
});

const recipientAttributes = (r: Recipient): RecipientAttributes => ({
  first_name: r.firstName,
  last_name: r.lastName,
  email: r.email,
});

/** A review whose lawyer review is requested: its place in the review queue, oldest request first. */
export const reviewQueueKeys = (r: ContractReview): Item =>
  r.lawyerReview?.state === 'requested'
    ? {
        [SECOND_INDEX.partitionKey]: keys.reviewQueue,
        [SECOND_INDEX.sortKey]: byCreation(r.lawyerReview.requestedAt ?? r.updatedAt, r.id),
      }
    : {};

export const contractReviewItem = (r: ContractReview): Item => ({
  ...keys.contractReview(r.id),
  type: 'contract_review',
  [LIST_INDEX.partitionKey]: keys.contractReviewList(r.scope.integrationId),
  [LIST_INDEX.sortKey]: byCreation(r.createdAt, r.id),
  // In the queue while requested: every write replaces the whole item, so one that publishes the review
  // or accepts a new version takes it out.
  ...reviewQueueKeys(r),
  id: r.id,
  ...scopeAttributes(r.scope),
  external_reference: r.externalReference,
  product: r.product,
  version: r.version,
  review: r.review,
  processing: partAttributes(r.processing),
  analysis: r.analysis && partAttributes(r.analysis),
  lawyer_review: r.lawyerReview && {
    state: r.lawyerReview.state,
    requested_at: r.lawyerReview.requestedAt,
    completed_at: r.lawyerReview.completedAt,
    ...(r.lawyerReview.waitToken !== undefined && { wait_token: r.lawyerReview.waitToken }),
    ...(r.lawyerReview.textKey !== undefined && { text_key: r.lawyerReview.textKey }),
    ...(r.lawyerReview.reviewerName !== undefined && { reviewer_name: r.lawyerReview.reviewerName }),
  },
  publications: r.publications.map(
    (p): PublicationAttributes => ({
      channel: p.channel,
      state: p.state,
      slug: p.slug,
      url: p.url,
      published_at: p.publishedAt,
    }),
  ),
  clients: [...r.clients],
  recipient: r.recipient && recipientAttributes(r.recipient),
  created_at: r.createdAt,
  updated_at: r.updatedAt,
});

export const toContractReview = (item: Item): ContractReview => {
  const i = item as unknown as ContractReviewItem;
  return {
    id: i.id,
    scope: scopeOf(i),
    externalReference: i.external_reference,
    product: i.product,
    version: i.version,
    review: i.review,
    processing: toPart(i.processing),
    analysis: i.analysis && toPart(i.analysis),
    lawyerReview: i.lawyer_review && {
      state: i.lawyer_review.state,
      requestedAt: i.lawyer_review.requested_at,
      completedAt: i.lawyer_review.completed_at,
      ...(i.lawyer_review.wait_token !== undefined && { waitToken: i.lawyer_review.wait_token }),
      ...(i.lawyer_review.text_key !== undefined && { textKey: i.lawyer_review.text_key }),
      ...(i.lawyer_review.reviewer_name !== undefined && { reviewerName: i.lawyer_review.reviewer_name }),
    },
    publications: i.publications.map((p) => ({
      channel: p.channel,
      state: p.state,
      slug: p.slug,
      url: p.url,
      publishedAt: p.published_at,
    })),
    clients: i.clients,
    recipient: i.recipient && {
      firstName: i.recipient.first_name,
      lastName: i.recipient.last_name,
      email: i.recipient.email,
    },
    createdAt: i.created_at,
    updatedAt: i.updated_at,
  };
};

export interface IndexKeys {
  partitionKey: string;
  sortKey: string;
}

/** Where an item sits in an index, as a query's ExclusiveStartKey: its table key and index key. */
export const indexPosition = (item: Item, index: IndexKeys): Item => ({
  [PARTITION_KEY]: item[PARTITION_KEY],
  [SORT_KEY]: item[SORT_KEY],
  [index.partitionKey]: item[index.partitionKey],
  [index.sortKey]: item[index.sortKey],
});

// Contract version

interface ContractVersionItem {
  contract_review_id: string;
  version: number;
  file_sha256: string;
  file_size: number;
  page_count: number;
  blob_key: string;
  created_at: number;
}

export const contractVersionItem = (v: ContractVersion): Item => ({
  ...keys.contractVersion(v.contractReviewId, v.version),
  type: 'contract_version',
  contract_review_id: v.contractReviewId,
  version: v.version,
  file_sha256: v.fileSha256,
  file_size: v.fileSize,
  page_count: v.pageCount,
  blob_key: v.blobKey,
  created_at: v.createdAt,
});

export const toContractVersion = (item: Item): ContractVersion => {
  const i = item as unknown as ContractVersionItem;
  return {
    contractReviewId: i.contract_review_id,
    version: i.version,
    fileSha256: i.file_sha256,
    fileSize: i.file_size,
    pageCount: i.page_count,
    blobKey: i.blob_key,
    createdAt: i.created_at,
  };
};

/** The durable record of a run, written with what makes it due; in the unfinished index until it ends. */
export const runItem = (run: WorkflowRun, createdAt: Micros): Item => ({
  ...keys.run(run),
  type: 'run',
  [LIST_INDEX.partitionKey]: keys.unfinishedRuns,
  [LIST_INDEX.sortKey]: byCreation(createdAt, `${runSubject(run)}#${run.kind}`),
  kind: run.kind,
  environment: run.environment,
  ...(run.kind === 'acceptance'
    ? { onboarding_id: run.onboardingId, submitted_at: run.submittedAt }
    : { contract_review_id: run.contractReviewId, version: run.version }),
  state: 'pending',
  created_at: createdAt,
});

/** The transaction writes that record `runs` with the change that makes them due; a run is due once, so
 * an existing record (started or finished) is never replaced. */
export const runWrites = (tableName: string, runs: readonly WorkflowRun[], createdAt: Micros) =>
  runs.map((run) => ({
    write: {
      Put: {
        TableName: tableName,
        Item: runItem(run, createdAt),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  }));

/**
 * The update that finishes a run: out of the unfinished index, with its outcome kept for whoever looks
 * into it later. Callers add their condition; `#state` and `:finished` are there for it.
 */
export const finishRunUpdate = (tableName: string, run: RunRequest, outcome: RunOutcome, now: Micros) => ({
  TableName: tableName,
  Key: keys.run(run),
  UpdateExpression: 'SET #state = :finished, outcome = :outcome, finished_at = :now REMOVE #pk, #sk',
  ExpressionAttributeNames: { '#state': 'state', '#pk': LIST_INDEX.partitionKey, '#sk': LIST_INDEX.sortKey },
  ExpressionAttributeValues: { ':finished': 'finished', ':outcome': outcome, ':now': now },
});

export const toRunRequest = (item: Item): RunRequest => {
  const environment = item.environment as RunRequest['environment'];
  if (item.kind === 'delivery')
    return {
      kind: 'delivery',
      environment,
      messageId: item.message_id as string,
      round: item.round as number,
    };
  if (item.kind === 'acceptance')
    return {
      kind: 'acceptance',
      environment,
      onboardingId: item.onboarding_id as string,
      submittedAt: item.submitted_at as number,
    };
  return {
    kind: item.kind as 'contract' | 'review',
    environment,
    contractReviewId: item.contract_review_id as string,
    version: item.version as number,
  };
};

// Onboarding

interface OnboardingItem extends ScopeAttributes {
  id: string;
  reference: string;
  state: Onboarding['state'];
  client_ids: string[];
  created_at: number;
  submitted_at: number | null;
  accepted_at: number | null;
}

export const onboardingItem = (o: Onboarding): Item => ({
  ...keys.onboarding(o.id),
  type: 'onboarding',
  // While submitted and not accepted: in the back office's sign-ups, oldest submission first.
  ...(o.state === 'submitted' &&
    o.submittedAt !== null && {
      [LIST_INDEX.partitionKey]: keys.submittedOnboardings,
      [LIST_INDEX.sortKey]: byCreation(o.submittedAt, o.id),
    }),
  id: o.id,
  ...scopeAttributes(o.scope),
  reference: o.reference,
  state: o.state,
  client_ids: [...o.clientIds],
  created_at: o.createdAt,
  submitted_at: o.submittedAt,
  accepted_at: o.acceptedAt,
});

export const toOnboarding = (item: Item): Onboarding => {
  const i = item as unknown as OnboardingItem;
  return {
    id: i.id,
    scope: scopeOf(i),
    reference: i.reference,
    state: i.state,
    clientIds: i.client_ids,
    createdAt: i.created_at,
    submittedAt: i.submitted_at,
    acceptedAt: i.accepted_at,
  };
};

// Client

interface ClientItem extends ScopeAttributes {
  id: string;
  onboarding_id: string;
  reference: string;
  primary: boolean;
  first_name: string;
  last_name: string;
  email: string;
  mobile: string | null;
  created_at: number;
}

export const clientItem = (c: Client): Item => ({
  ...keys.client(c.id),
  type: 'client',
  [LIST_INDEX.partitionKey]: keys.clientList(c.scope.integrationId),
  [LIST_INDEX.sortKey]: byCreation(c.createdAt, c.id),
  [SECOND_INDEX.partitionKey]: keys.onboardingClientList(c.onboardingId),
  [SECOND_INDEX.sortKey]: byCreation(c.createdAt, c.id),
  id: c.id,
  ...scopeAttributes(c.scope),
  onboarding_id: c.onboardingId,
  reference: c.reference,
  primary: c.primary,
  first_name: c.firstName,
  last_name: c.lastName,
  email: c.email,
  mobile: c.mobile,
  created_at: c.createdAt,
});

export const toClient = (item: Item): Client => {
  const i = item as unknown as ClientItem;
  return {
    id: i.id,
    scope: scopeOf(i),
    onboardingId: i.onboarding_id,
    reference: i.reference,
    primary: i.primary,
    firstName: i.first_name,
    lastName: i.last_name,
    email: i.email,
    mobile: i.mobile,
    createdAt: i.created_at,
  };
};

// Event (outbox)

interface EventItem {
  id: string;
  event_type: EventType;
  organisation_id: string;
  integration_id: string;
  environment: Environment;
  occurred_at: number;
  data: string;
}

/** Kept this long after it happened, for redelivery. */
const EVENT_KEEP_SECONDS = 30 * 24 * 3600;

/** A new outbox event: in the pending index until fanned out. */
export const eventItem = (e: ServiceEvent): Item => ({
  ...keys.event(e.id),
  type: 'event',
  [LIST_INDEX.partitionKey]: keys.pendingEvents,
  [LIST_INDEX.sortKey]: byCreation(e.occurredAt, e.id),
  id: e.id,
  event_type: e.type,
  ...scopeAttributes(e.scope),
  occurred_at: e.occurredAt,
  data: e.data,
  [TTL_ATTRIBUTE]: Math.floor(e.occurredAt / 1_000_000) + EVENT_KEEP_SECONDS,
});

export const toEvent = (item: Item): ServiceEvent => {
  const i = item as unknown as EventItem;
  return { id: i.id, type: i.event_type, scope: scopeOf(i), occurredAt: i.occurred_at, data: i.data };
};

/** The transaction writes that record `events` with the change they announce. */
export const eventWrites = (tableName: string, events: ServiceEvent[]) =>
  events.map((event) => ({
    write: {
      Put: { TableName: tableName, Item: eventItem(event), ConditionExpression: 'attribute_not_exists(pk)' },
    },
  }));

// Webhook endpoints

interface WebhookEndpointItem extends ScopeAttributes {
  id: string;
  url: string;
  subscriptions: Partial<Record<EventType, Micros>>;
  secrets: Array<{ secret: string; created_at: Micros; expires_at: Micros | null }>;
  enabled: boolean;
  created_at: Micros;
  updated_at: Micros;
}

export const webhookEndpointItem = (e: WebhookEndpoint): Item => ({
  ...keys.webhookEndpoint(e.id),
  type: 'webhook_endpoint',
  [LIST_INDEX.partitionKey]: keys.webhookEndpointList(e.scope.integrationId),
  [LIST_INDEX.sortKey]: byCreation(e.createdAt, e.id),
  id: e.id,
  ...scopeAttributes(e.scope),
  url: e.url,
  subscriptions: e.subscriptions,
  secrets: e.secrets.map((s) => ({ secret: s.secret, created_at: s.createdAt, expires_at: s.expiresAt })),
  enabled: e.enabled,
  created_at: e.createdAt,
  updated_at: e.updatedAt,
});

export const toWebhookEndpoint = (item: Item): WebhookEndpoint => {
  const i = item as unknown as WebhookEndpointItem;
  return {
    id: i.id,
    scope: scopeOf(i),
    url: i.url,
    subscriptions: i.subscriptions,
    secrets: i.secrets.map((s) => ({ secret: s.secret, createdAt: s.created_at, expiresAt: s.expires_at })),
    enabled: i.enabled,
    createdAt: i.created_at,
    updatedAt: i.updated_at,
  };
};

// Webhook messages and their attempts

interface WebhookMessageItem extends ScopeAttributes {
  id: string;
  event_id: string | null;
  endpoint_id: string;
  message_type: WebhookMessage['type'];
  occurred_at: Micros;
  data: string;
  test: boolean;
  state: WebhookMessage['state'];
  round: number;
  attempts_in_round: number;
  next_attempt_at: Micros | null;
  claimed_until?: Micros | null;
  created_at: Micros;
  updated_at: Micros;
}

/** A pending message's place in the list of deliveries to do, oldest first. */
export const pendingDeliveryKeys = (m: Pick<WebhookMessage, 'id' | 'createdAt'>) => ({
  [SECOND_INDEX.partitionKey]: keys.pendingDeliveries,
  [SECOND_INDEX.sortKey]: byCreation(m.createdAt, m.id),
});

export const webhookMessageItem = (m: WebhookMessage): Item => ({
  ...keys.webhookMessage(m.id),
  type: 'webhook_message',
  [LIST_INDEX.partitionKey]: keys.webhookMessageList(m.endpointId),
  [LIST_INDEX.sortKey]: byCreation(m.createdAt, m.id),
  // While pending, in the list of deliveries to do: a write that ends the round takes it out.
  ...(m.state === 'pending' && pendingDeliveryKeys(m)),
  id: m.id,
  event_id: m.eventId,
  endpoint_id: m.endpointId,
  ...scopeAttributes(m.scope),
  message_type: m.type,
  occurred_at: m.occurredAt,
  data: m.data,
  test: m.test,
  state: m.state,
  round: m.round,
  attempts_in_round: m.attemptsInRound,
  next_attempt_at: m.nextAttemptAt,
  claimed_until: m.claimedUntil,
  created_at: m.createdAt,
  updated_at: m.updatedAt,
  [TTL_ATTRIBUTE]: Math.floor(m.createdAt / 1_000_000) + EVENT_KEEP_SECONDS,
});

export const toWebhookMessage = (item: Item): WebhookMessage => {
  const i = item as unknown as WebhookMessageItem;
  return {
    id: i.id,
    eventId: i.event_id,
    endpointId: i.endpoint_id,
    scope: scopeOf(i),
    type: i.message_type,
    occurredAt: i.occurred_at,
    data: i.data,
    test: i.test,
    state: i.state,
    round: i.round,
    attemptsInRound: i.attempts_in_round,
    nextAttemptAt: i.next_attempt_at,
    // Absent on messages recorded before claims were kept.
    claimedUntil: i.claimed_until ?? null,
    createdAt: i.created_at,
    updatedAt: i.updated_at,
  };
};

export const deliveryAttemptItem = (messageId: string, a: DeliveryAttempt): Item => ({
  ...keys.deliveryAttempt(messageId, a.round, a.number),
  type: 'delivery_attempt',
  message_id: messageId,
  round: a.round,
  number: a.number,
  at: a.at,
  status: a.status,
  error: a.error,
  duration_ms: a.durationMs,
  body: a.body,
  [TTL_ATTRIBUTE]: Math.floor(a.at / 1_000_000) + EVENT_KEEP_SECONDS,
});

export const toDeliveryAttempt = (item: Item): DeliveryAttempt => ({
  round: item.round as number,
  number: item.number as number,
  at: item.at as Micros,
  status: item.status as number | null,
  error: item.error as string | null,
  durationMs: item.duration_ms as number,
  body: item.body as string,
});

// Request history: one item per recorded call, in its integration's list by time; no body, ever.

interface ApiRequestItem {
  id: string;
  time: Micros;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  environment: Environment;
  integration_id: string;
}

/** Where a record sorts in its integration's list: by time, ties by id (newest first when read backwards). */
export const apiRequestPosition = (r: Pick<ApiRequestRecord, 'time' | 'id'>): string =>
  byCreation(r.time, r.id);

export const apiRequestItem = (r: ApiRequestRecord): Item => ({
  ...keys.apiRequest(r.id),
  type: 'api_request',
  [LIST_INDEX.partitionKey]: keys.apiRequestList(r.integrationId),
  [LIST_INDEX.sortKey]: apiRequestPosition(r),
  id: r.id,
  time: r.time,
  method: r.method,
  path: r.path,
  status: r.status,
  duration_ms: r.durationMs,
  environment: r.environment,
  integration_id: r.integrationId,
  // DynamoDB deletes it within days of this; the core lists nothing older than 30 days meanwhile.
  [TTL_ATTRIBUTE]: Math.floor((r.time + REQUEST_HISTORY_KEPT) / 1_000_000),
});

export const toApiRequest = (item: Item): ApiRequestRecord => {
  const i = item as unknown as ApiRequestItem;
  return {
    id: i.id,
    time: i.time,
    method: i.method,
    path: i.path,
    status: i.status,
    durationMs: i.duration_ms,
    environment: i.environment,
    integrationId: i.integration_id,
  };
};
