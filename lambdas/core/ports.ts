// core -> the ports through which the domain talks to the world. Adapters implement them: DynamoDB
// and S3 deployed and locally (DynamoDB Local, a local S3 twin), Step Functions, jose.

import type { ContractAnalysis } from './analysis/types';
import type { AuditEntry } from './back-office/audit';
import type { ServiceEvent } from './events';
import type {
  ApiKeyRecord,
  Client,
  ContractReview,
  ContractVersion,
  Environment,
  Integration,
  Micros,
  Onboarding,
  Organisation,
  Page,
  SandboxBudget,
  Scope,
} from './model';
import type { Person } from './people/person';
import type { BackOfficeStores } from './ports/back-office';
import type { ContractRenderer, RenderedContract } from './rendered-contract';
import type { ApiRequestFilter, ApiRequestRecord, TimeWindow } from './request-history/model';
import type { DeliveryAttempt, WebhookEndpoint, WebhookMessage } from './webhooks/model';

export interface Clock {
  /** Epoch microseconds, never going backwards within a process. */
  now(): Micros;
}

export interface Ids {
  /** A new opaque id with its prefix (`crv_`, `onb_`, …), at least 128 random bits. */
  id(prefix: string): string;
  /** A new secret with its prefix (`onbs_`, `svc_test_`, …), at least 128 random bits. */
  secret(prefix: string): string;
}

/** PDFs and other large bytes. */
export interface BlobStore {
  /** Streams `body` to `key`; resolves with the number of bytes stored. */
  put(key: string, body: AsyncIterable<Uint8Array>, contentType: string): Promise<{ size: number }>;
  /** Bytes [start, end) of a stored blob. */
  readRange(key: string, start: number, end: number): Promise<Uint8Array>;
  delete(key: string): Promise<void>;
}

/** Opens a stored PDF for real, without holding all of it in memory. */
export interface PdfInspector {
  inspect(
    blobKey: string,
    size: number,
  ): Promise<{ readable: true; pageCount: number } | { readable: false; reason: string }>;
}

/**
 * The workflows: a contract version's `contract` run (read, publish, analyse; started when the version
 * is accepted) and `review` run (publish the review channels; started when the lawyer publishes), and
 * the `delivery` run of one webhook message (attempts on the schedule; a redelivery is a new round),
 * and the `acceptance` run of a sandbox sign-up (accepted automatically a minute after it was submitted).
 */
export const RUN_KINDS = ['contract', 'review', 'delivery', 'acceptance'] as const;
export type RunKind = (typeof RUN_KINDS)[number];

/** One run of a contract version's workflows: at most one per (kind, contract review, version). */
export interface ContractRun {
  kind: 'contract' | 'review';
  environment: Environment;
  contractReviewId: string;
  version: number;
}

/** One round of delivery of a webhook message: at most one per (message, round). */
export interface DeliveryRun {
  kind: 'delivery';
  environment: Environment;
  messageId: string;
  round: number;
}

/** The automatic acceptance of one submission of a sandbox sign-up (decisions.md §7). */
export interface AcceptanceRun {
  kind: 'acceptance';
  environment: Environment;
  onboardingId: string;
  /** The submission it accepts (its `submittedAt`): a later submission has a run of its own. */
  submittedAt: Micros;
}

export type RunRequest = ContractRun | DeliveryRun | AcceptanceRun;

/** What a run is about, unique within its kind: `crv_…#2`, `msg_…#1`. */
export const runSubject = (run: RunRequest): string => {
  switch (run.kind) {
    case 'delivery':
      return `${run.messageId}#${run.round}`;
    case 'acceptance':
      return `${run.onboardingId}#${run.submittedAt}`;
    default:
      return `${run.contractReviewId}#${run.version}`;
  }
};

/**
 * How a run is named in the log (and, locally, its execution): its environment, what it is about and
 * its kind, `production/crv_…/v2/contract`.
 */
export const runName = (run: RunRequest): string => {
  switch (run.kind) {
    case 'delivery':
      return `${run.environment}/${run.messageId}/r${run.round}/delivery`;
    case 'acceptance':
      return `${run.environment}/${run.onboardingId}/s${run.submittedAt}/acceptance`;
    default:
      return `${run.environment}/${run.contractReviewId}/v${run.version}/${run.kind}`;
  }
};

export type RunOutcome = 'completed' | 'failed' | 'superseded';

/** A run a workflow carries from its start; a delivery run is the delivery queue's (`DeliveryQueue`). */
export type WorkflowRun = Exclude<RunRequest, DeliveryRun>;

export interface Workflows {
  /** Starts a recorded run; starting one that is already running or finished does nothing. */
  start(run: WorkflowRun): Promise<void>;
  /**
   * Ends the wait of a run's Task with its task token: the Task succeeds with `output` (the lawyer's
   * review is published; a render is done). A wait that is over already is left as it is.
   */
  completeWait(token: string, output: object): Promise<void>;
  /**
   * Ends the wait of a run's Task with its task token: the Task fails with `error` (its name, which the
   * definition retries or catches, e.g. `Superseded`) and `cause`. A wait that is over already is left
   * as it is.
   */
  failWait(token: string, error: string, cause: string): Promise<void>;
}

/** The error a superseded wait fails with: a newer version was accepted, which asks for its own. */
export const SUPERSEDED = 'Superseded';

/**
 * The durable record of every run, written in the transaction that makes the run due (a version
 * accepted, a review published). A run not yet finished is re-driven after a restart.
 */
export interface RunStore {
  /** Workflow runs recorded and not finished, oldest first: the first `limit` of them. */
  unfinished(limit: number): Promise<WorkflowRun[]>;
  /**
   * Every workflow run recorded and not finished, oldest first, `pageSize` at a time: what the re-drive
   * walks, so that runs which keep failing (or wait days for a lawyer) never hide newer ones.
   */
  eachUnfinished(pageSize: number): AsyncIterable<WorkflowRun[]>;
  /** Marks a run finished; finishing it again changes nothing. */
  finish(run: WorkflowRun, outcome: RunOutcome): Promise<void>;
}

/**
 * Issues access tokens (JWT) signed with this environment's private key: only `POST /v1/token` is wired
 * with one that can sign (deployed, the one function allowed to use the key in KMS).
 */
export interface TokenIssuer {
  issue(claims: AccessTokenClaims): Promise<{ token: string; expiresIn: number }>;
}

/** Checks access tokens with this environment's public key: it can tell a token good, never make one. */
export interface TokenVerifier {
  verify(token: string): Promise<AccessTokenCheck>;
}

export interface AccessTokenClaims {
  organisationId: string;
  integrationId: string;
  environment: Environment;
  apiKeyId: string;
}

export type AccessTokenCheck =
  | { valid: true; claims: AccessTokenClaims }
  | { valid: false; reason: 'expired' | 'invalid' | 'wrong_environment' };

/** Token-bucket rate limiting shared by every instance of a host. */
export interface RateLimiter {
  /** Takes one token from `bucket` (refilled at `ratePerSecond`, holding at most `burst`). */
  take(
    bucket: string,
    ratePerSecond: number,
    burst: number,
  ): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }>;
}

/**
 * Attempts at something guessable (a password for one email from one address), each allowed only once
 * the delay that the attempts before it earned has passed: a delay that grows with every attempt, and
 * never a lock that an attacker could keep closed.
 */
export interface AttemptDelays {
  /**
   * Counts an attempt at `key` when the delay after the last one has passed; `delayAfter(n)` is that
   * delay, in µs, after `n` counted attempts. Otherwise counts nothing and says when to try again.
   * Concurrent attempts at one key are counted one by one, each against the delay of the one before.
   */
  attempt(
    key: string,
    delayAfter: (counted: number) => Micros,
  ): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }>;
  /** Forgets the attempts at `key` (the last one succeeded). */
  forget(key: string): Promise<void>;
}

/** A kept answer of an idempotent request: replayed byte for byte. */
export interface StoredAnswer {
  status: number;
  body: string;
}

export type IdempotencyClaim =
  | { kind: 'claimed' }
  | { kind: 'replay'; answer: StoredAnswer }
  | { kind: 'reused' }
  | { kind: 'in_use' };

/** The idempotency record a write completes in the same transaction as its effect. */
export interface IdempotencyCompletion {
  scope: Scope;
  key: string;
  fingerprint: string;
  answer: StoredAnswer;
}

export interface IdempotencyStore {
  /** Claims `key` for a request with `fingerprint`, or says why it cannot be claimed. */
  claim(scope: Scope, key: string, fingerprint: string): Promise<IdempotencyClaim>;
  /** Keeps the answer of a claimed request that ended without an effect to write. */
  complete(completion: IdempotencyCompletion): Promise<void>;
  /** Gives up a claim so that a corrected retry with the same key proceeds. */
  release(scope: Scope, key: string, fingerprint: string): Promise<void>;
}

export interface NewContractReview {
  review: ContractReview;
  version: ContractVersion;
  idempotency: IdempotencyCompletion;
}

export interface NewContractVersion {
  review: ContractReview;
  version: ContractVersion;
  /** The version the caller based this one on; the write fails `stale_version` if it is no longer the latest. */
  basedOnVersion: number;
  idempotency: IdempotencyCompletion;
}

export interface ContractReviewStore {
  /**
   * Writes a new contract review, its first version, the sandbox budget use and the idempotent answer
   * in one transaction. Throws `external_reference_exists` or `budget_used`.
   */
  create(entry: NewContractReview): Promise<void>;
  /** Writes a new version in one transaction. Throws `stale_version` or `budget_used`. */
  addVersion(entry: NewContractVersion): Promise<void>;
  /**
   * Replaces the review, with `events` and the records of the `runs` it makes due in the same
   * transaction, if it is unchanged since it was read (its `updatedAt` is still `expectedUpdatedAt`);
   * otherwise throws `ConcurrentChange`.
   */
  update(
    review: ContractReview,
    expectedUpdatedAt: Micros,
    events: ServiceEvent[],
    runs?: WorkflowRun[],
    audit?: AuditEntry[],
  ): Promise<void>;
  get(id: string): Promise<ContractReview | null>;
  getVersion(id: string, version: number): Promise<ContractVersion | null>;
  findByExternalReference(scope: Scope, externalReference: string): Promise<ContractReview | null>;
  list(
    scope: Scope,
    options: { limit: number; startingAfter?: ContractReview },
  ): Promise<Page<ContractReview>>;
}

/**
 * Contract reviews as polling reads them: at most a second old, so that clients polling for a
 * publication cost no database read each. Never for decisions; those read `ContractReviewStore`.
 */
export interface ContractReviewReads {
  get(id: string): Promise<ContractReview | null>;
}

/**
 * Seals what a person typed into the sign-up form, kept encrypted at rest (AES-256-GCM): `context` (the
 * onboarding id) is bound to the sealed text, which opens under that context only.
 */
export interface AnswerVault {
  seal(plaintext: string, context: string): Promise<string>;
  /** Throws when `sealed` was altered or sealed under another context or key. */
  open(sealed: string, context: string): Promise<string>;
}

/**
 * The sealed answers kept for one onboarding as one browser (by its binding's key) may see them: its own
 * draft, and the latest submission's answers with the key of the browser that sent them.
 */
export interface StoredAnswers {
  draft: string | null;
  submitted: string | null;
  submittedBy: string | null;
}

/** A submission's answers, sealed, and the key of the browser that sent them (null: one without a binding). */
export interface SubmittedAnswers {
  sealed: string;
  by: string | null;
}

export interface OnboardingStore {
  /**
   * Opens `onboarding` under its reference and records the session token's hash. When the reference is
   * taken, records the token against the existing onboarding instead and returns that one.
   */
  open(onboarding: Onboarding, sessionTokenHash: string): Promise<Onboarding>;
  get(id: string): Promise<Onboarding | null>;
  findByReference(scope: Scope, reference: string): Promise<Onboarding | null>;
  findBySessionTokenHash(hash: string): Promise<Onboarding | null>;
  /**
   * Replaces the onboarding after a submission, upserts its clients and records `events`, in one
   * transaction; with `answers`, keeps them as the submission's answers and clears the sending browser's
   * draft in it too.
   */
  saveSubmission(
    onboarding: Onboarding,
    clients: Client[],
    events: ServiceEvent[],
    extras?: {
      /** The submitted answers, sealed by the answer vault, with the browser that sent them. */
      answers?: SubmittedAnswers;
      /** Runs the submission makes due (a sandbox sign-up's automatic acceptance). */
      runs?: WorkflowRun[];
    },
  ): Promise<void>;
  /** Keeps one browser's sealed draft of the form (by its binding's key), replacing that browser's last one. */
  saveDraft(onboardingId: string, browserKey: string, sealed: string, now: Micros): Promise<void>;
  /** The browser's sealed draft and the onboarding's submitted answers, null where none is kept. */
  getAnswers(onboardingId: string, browserKey: string): Promise<StoredAnswers>;
  /**
   * Saves an accepted onboarding (state, `acceptedAt`) and records `events`, in one transaction, if it
   * was not submitted again since it was read (else `ConcurrentChange`).
   */
  saveAcceptance(onboarding: Onboarding, events: ServiceEvent[], audit?: AuditEntry[]): Promise<void>;
  /** Onboardings submitted and not accepted, oldest submission first, from an index holding only those. */
  submitted(options: { limit: number; after?: Onboarding }): Promise<Page<Onboarding>>;
}

export interface ClientStore {
  get(id: string): Promise<Client | null>;
  /** The clients of one onboarding, any submission, keyed by id. */
  listByOnboarding(onboardingId: string): Promise<Client[]>;
  list(
    scope: Scope,
    options: { limit: number; onboardingId?: string; startingAfter?: Client },
  ): Promise<Page<Client>>;
}

/** An environment's API keys: each under its id, and a copy under its hash that token exchange reads. */
export interface ApiKeyStore {
  putApiKey(key: ApiKeyRecord): Promise<void>;
  getApiKey(id: string): Promise<ApiKeyRecord | null>;
  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | null>;
  /** An integration's keys in this environment, newest first, revoked ones too. */
  listApiKeys(integrationId: string): Promise<ApiKeyRecord[]>;
  /**
   * Marks the key revoked at `at`, in both of its records at once, and answers it; a key already
   * revoked keeps its first time. Throws `not_found` for an unknown key.
   */
  revokeApiKey(id: string, at: Micros): Promise<ApiKeyRecord>;
  /** Records an accepted exchange (the listing's `last_used_at`). */
  markApiKeyUsed(id: string, at: Micros): Promise<void>;
}

/**
 * Organisations' sandbox budgets, in the sandbox's table: the contract review store counts a use in the
 * transaction that accepts a PDF. An organisation without a record has the default budget, none used.
 */
export interface SandboxBudgetStore {
  get(organisationId: string): Promise<SandboxBudget>;
  /** Sets the total; what was used stays. The `audit` entries are written in the same transaction. */
  set(organisationId: string, total: number, audit?: AuditEntry[]): Promise<SandboxBudget>;
}

/**
 * Organisations and their integrations, in the identity table (shared by both environments): the one
 * source of truth for who owns what; an environment's records carry the ids.
 */
export interface OrganisationStore {
  /**
   * Records the organisation and makes its owner's person record point at it, together; throws
   * `OrganisationExists` when the person owns another one.
   */
  create(organisation: Organisation): Promise<void>;
  get(id: string): Promise<Organisation | null>;
  createIntegration(integration: Integration): Promise<void>;
  getIntegration(id: string): Promise<Integration | null>;
  /** The organisation's integrations, newest first. */
  listIntegrations(organisationId: string): Promise<Integration[]>;
}

/**
 * People, in the identity table (shared by both environments). Each email belongs to one person: the
 * store keeps a second item under the email, written in the same transaction as the person.
 */
export interface PeopleStore {
  /** Records a new person and claims their email, together; throws `EmailTaken` when another has it. */
  create(person: Person): Promise<void>;
  get(id: string): Promise<Person | null>;
  /** The person with this (normalised) email. */
  findByEmail(email: string): Promise<Person | null>;
}

/** What a person let one client do (an OAuth grant of the identity provider), as the portal will list it. */
export interface ClientGrant {
  grantId: string;
  clientId: string;
  /** The name the client registered with, null when it gave none (or is no longer registered). */
  clientName: string | null;
  grantedAt: Micros;
}

/** The grants the identity provider keeps in the identity table, found by person. */
export interface ClientGrants {
  /** The person's grants that have not expired, newest first. */
  listByPerson(personId: string): Promise<ClientGrant[]>;
  /**
   * Withdraws one of the person's grants: the grant and every code and token issued under it, so the
   * client can neither use nor refresh what it holds. False when the person has no such grant.
   */
  revoke(personId: string, grantId: string): Promise<boolean>;
}

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

/** What a page of one integration's request history is asked for (checked by the core). */
export interface ApiRequestPageQuery {
  limit: number;
  window: TimeWindow;
  filter: ApiRequestFilter;
  /** The record after which the page starts (one of this very list). */
  startingAfter?: ApiRequestRecord;
}

/** The request history of this environment (decisions.md §10). */
export interface ApiRequestStore {
  /** Writes the records, in as few calls as the store allows; throws if any could not be written. */
  write(records: readonly ApiRequestRecord[]): Promise<void>;
  /** A record by its request id; null when there is none (never recorded, or expired). */
  get(id: string): Promise<ApiRequestRecord | null>;
  /** An integration's records in the window that match the filter, newest first (ties by id, descending). */
  list(integrationId: string, query: ApiRequestPageQuery): Promise<Page<ApiRequestRecord>>;
}

/**
 * Where the API hands each recorded call once it is answered (request-history/recorder.ts): held, then
 * written in batches, so that recording costs an answer nothing.
 */
export interface ApiRequestRecorder {
  /** Takes a record to write later; never throws, never waits. */
  record(entry: ApiRequestRecord): void;
  /** Writes what is held, and resolves once every write under way has ended (written, or logged and dropped). */
  flush(): Promise<void>;
}

/**
 * Runs the contract analysis (core/analysis) within a deadline: in the calling thread where one task has
 * the process to itself (a Lambda), in a thread of its own where the same process answers requests (the
 * local stack). Throws `AnalysisTimedOut` once `deadlineMs` (epoch milliseconds) has passed.
 */
export interface ContractAnalyser {
  analyse(contract: RenderedContract, deadlineMs: number): Promise<ContractAnalysis>;
}

/** Everything the domain needs of one environment's host. */
export interface Ports {
  environment: Environment;
  clock: Clock;
  ids: Ids;
  blobs: BlobStore;
  pdfs: PdfInspector;
  renderer: ContractRenderer;
  analyser: ContractAnalyser;
  workflows: Workflows;
  deliveryQueue: DeliveryQueue;
  runs: RunStore;
  tokenIssuer: TokenIssuer;
  tokenVerifier: TokenVerifier;
  rateLimiter: RateLimiter;
  idempotency: IdempotencyStore;
  contractReviews: ContractReviewStore;
  contractReviewReads: ContractReviewReads;
  onboardings: OnboardingStore;
  answerVault: AnswerVault;
  clients: ClientStore;
  apiKeys: ApiKeyStore;
  sandboxBudgets: SandboxBudgetStore;
  outbox: EventOutbox;
  webhookEndpoints: WebhookEndpointStore;
  webhookMessages: WebhookMessageStore;
  webhookSender: WebhookSender;
  apiRequests: ApiRequestStore;
  apiRequestRecorder: ApiRequestRecorder;
  backOffice: BackOfficeStores;
}
