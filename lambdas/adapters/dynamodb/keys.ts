// adapter -> the key of every item in an environment's table and in the identity table, in one place.
import type { Micros } from '../../core/model';
import { type RunRequest, runSubject } from '../../core/ports';

export interface ItemKey {
  pk: string;
  sk: string;
}

/** Newest-first sort key: zero-padded creation time, ties broken by id. */
export const byCreation = (createdAt: Micros, id: string): string =>
  `${String(createdAt).padStart(16, '0')}#${id}`;

export const keys = {
  /** An organisation's sandbox budget and use, in the sandbox's table. */
  sandboxBudget: (organisationId: string): ItemKey => ({ pk: `BUDGET#${organisationId}`, sk: 'BUDGET' }),
  /** An organisation's name as the environment's hosted pages show it (a copy of the identity table's). */
  organisationName: (organisationId: string): ItemKey => ({ pk: `ORGNAME#${organisationId}`, sk: 'ORGNAME' }),
  apiKey: (id: string): ItemKey => ({ pk: `APIKEY#${id}`, sk: 'APIKEY' }),
  apiKeyHash: (hash: string): ItemKey => ({ pk: `APIKEYHASH#${hash}`, sk: 'APIKEYHASH' }),
  apiKeyList: (integrationId: string): string => `APIKEYS#${integrationId}`,

  contractReview: (id: string): ItemKey => ({ pk: `CRV#${id}`, sk: 'CRV' }),
  contractVersion: (id: string, version: number): ItemKey => ({
    pk: `CRV#${id}`,
    sk: `VERSION#${String(version).padStart(6, '0')}`,
  }),
  externalReference: (integrationId: string, externalReference: string): ItemKey => ({
    pk: `CRVREF#${integrationId}#${externalReference}`,
    sk: 'CRVREF',
  }),
  /** The list index's partition of every integration's reviews with one external_reference. */
  externalReferenceSearch: (externalReference: string): string => `CRVREFS#${externalReference}`,
  /** The durable record of one workflow run. */
  run: (run: RunRequest): ItemKey => ({ pk: `RUN#${runSubject(run)}`, sk: `RUN#${run.kind}` }),
  /** Local stack only: how the wait of a task token ended (local/emulators/step-functions-waits.ts). */
  localWait: (token: string): ItemKey => ({ pk: `WAIT#${token}`, sk: 'WAIT' }),
  /** The sparse index partition of runs not yet finished, for the re-drive. */
  unfinishedRuns: 'RUNS#unfinished',
  /** The second index's partition of webhook messages pending delivery: each is its own delivery's record. */
  pendingDeliveries: 'DELIVERIES#pending',
  contractReviewList: (integrationId: string): string => `CRVS#${integrationId}`,

  onboarding: (id: string): ItemKey => ({ pk: `ONB#${id}`, sk: 'ONB' }),
  onboardingReference: (integrationId: string, reference: string): ItemKey => ({
    pk: `ONBREF#${integrationId}#${reference}`,
    sk: 'ONBREF',
  }),
  /** The list index's partition of submitted onboardings waiting for acceptance (the back office's sign-ups). */
  submittedOnboardings: 'ONBS#submitted',
  sessionToken: (hash: string): ItemKey => ({ pk: `ONBTOKEN#${hash}`, sk: 'ONBTOKEN' }),
  /** The form's answers of one onboarding, sealed: the latest submission's, with the browser that sent it. */
  onboardingAnswers: (id: string): ItemKey => ({ pk: `ONBANSWERS#${id}`, sk: 'ONBANSWERS' }),
  /** One browser's draft of an onboarding's form, by its binding's key. */
  onboardingDraft: (id: string, browserKey: string): ItemKey => ({
    pk: `ONBANSWERS#${id}`,
    sk: `DRAFT#${browserKey}`,
  }),

  client: (id: string): ItemKey => ({ pk: `CLI#${id}`, sk: 'CLI' }),
  clientList: (integrationId: string): string => `CLIS#${integrationId}`,
  onboardingClientList: (onboardingId: string): string => `ONBCLIS#${onboardingId}`,

  idempotency: (integrationId: string, key: string): ItemKey => ({
    pk: `IDEM#${integrationId}#${key}`,
    sk: 'IDEM',
  }),
  rateBucket: (bucket: string): ItemKey => ({ pk: `RATE#${bucket}`, sk: 'RATE' }),
  /** Slot `index` of an organisation's renders under way (a lease; adapters/dynamodb/render-slots.ts). */
  renderSlot: (organisationId: string, index: number): ItemKey => ({
    pk: `RENDERSLOT#${organisationId}`,
    sk: `SLOT#${index}`,
  }),
  attemptDelay: (key: string): ItemKey => ({ pk: `ATTEMPTS#${key}`, sk: 'ATTEMPTS' }),

  event: (id: string): ItemKey => ({ pk: `EVT#${id}`, sk: 'EVT' }),

  webhookEndpoint: (id: string): ItemKey => ({ pk: `WHE#${id}`, sk: 'WHE' }),
  webhookEndpointList: (integrationId: string): string => `WHES#${integrationId}`,
  webhookMessage: (id: string): ItemKey => ({ pk: `MSG#${id}`, sk: 'MSG' }),
  webhookMessageList: (endpointId: string): string => `MSGS#${endpointId}`,
  /** An attempt sorts with its message's others: by round, then number. */
  deliveryAttempt: (messageId: string, round: number, number: number): ItemKey => ({
    pk: `MSG#${messageId}`,
    sk: `ATTEMPT#${String(round).padStart(4, '0')}#${String(number).padStart(2, '0')}`,
  }),
  /** The sparse index partition of events not yet fanned out. */
  pendingEvents: 'OUTBOX#pending',

  // The identity table (shared by both environments): people, organisations and their integrations, and
  // the identity provider's state.
  person: (id: string): ItemKey => ({ pk: `PERSON#${id}`, sk: 'PERSON' }),
  organisation: (id: string): ItemKey => ({ pk: `ORG#${id}`, sk: 'ORG' }),
  /** The list index's partition of every organisation, by name. */
  organisationList: 'ORGS',
  integration: (id: string): ItemKey => ({ pk: `INT#${id}`, sk: 'INT' }),
  /** An organisation's integrations, by creation (the list index). */
  integrationList: (organisationId: string): string => `INTS#${organisationId}`,
  /** Claims an email for one person: written with the person, in one transaction. */
  personEmail: (email: string): ItemKey => ({ pk: `PERSONEMAIL#${email}`, sk: 'PERSONEMAIL' }),
  /** One stored artefact of the identity provider (a session, grant, code, token, client, …). */
  oidc: (model: string, id: string): ItemKey => ({ pk: `OIDC#${model}#${id}`, sk: 'OIDC' }),
  /** A grant's members: one item per code or token issued under it, so they can be revoked together. */
  oidcGrantMember: (grantId: string, model: string, id: string): ItemKey => ({
    pk: `OIDCGRANT#${grantId}`,
    sk: `${model}#${id}`,
  }),
  /** Where a session is found by its uid (the id its interactions and tokens name). */
  oidcSessionUid: (uid: string): ItemKey => ({ pk: `OIDCUID#${uid}`, sk: 'OIDCUID' }),
  /** Where a device code is found by its user code. */
  oidcUserCode: (userCode: string): ItemKey => ({ pk: `OIDCUSERCODE#${userCode}`, sk: 'OIDCUSERCODE' }),
  /** The list index partition of one person's grants (what each client may do for them), newest first. */
  oidcGrantsOf: (accountId: string): string => `OIDCGRANTS#${accountId}`,
  /** One recorded call of the request history, by its request id (for `starting_after`). */
  apiRequest: (id: string): ItemKey => ({ pk: `REQ#${id}`, sk: 'REQ' }),
  /** The list index's partition of an integration's request history, sorted by time then id. */
  apiRequestList: (integrationId: string): string => `REQS#${integrationId}`,
  /** One audit entry of the back office (decisions.md §11), and its copy indexed by action. */
  auditEntry: (id: string): ItemKey => ({ pk: `AUDIT#${id}`, sk: 'AUDIT' }),
  auditEntryByAction: (id: string): ItemKey => ({ pk: `AUDIT#${id}`, sk: 'AUDIT#ACTION' }),
  /** The audit log's index partitions: all entries and one action's (list index), one staff member's,
   * and one staff member's of one action (second index). */
  auditLog: 'AUDITLOG',
  auditLogOfAction: (action: string): string => `AUDITLOG#${action}`,
  auditLogOfStaff: (staff: string): string => `AUDITBY#${staff}`,
  auditLogOfStaffAction: (staff: string, action: string): string => `AUDITBY#${staff}#${action}`,
  /** The second index's partition of contract reviews whose lawyer review is requested (the review queue). */
  reviewQueue: 'REVIEWQUEUE',
  /** The back office's work on one contract review: assignee and draft. */
  reviewDesk: (contractReviewId: string): ItemKey => ({ pk: `CRV#${contractReviewId}`, sk: 'DESK' }),
  /** A member of the operator's staff, by email (identity table), and the list index's partition of all. */
  staff: (email: string): ItemKey => ({ pk: `STAFF#${email}`, sk: 'STAFF' }),
  staffList: 'STAFF',
  /** A person's session with the portal, under the SHA-256 of its cookie (identity table). */
  portalSession: (id: string): ItemKey => ({ pk: `PORTALSESSION#${id}`, sk: 'PORTALSESSION' }),
  /** A portal sign-in under way, under the SHA-256 of its cookie (identity table). */
  portalSignIn: (id: string): ItemKey => ({ pk: `PORTALSIGNIN#${id}`, sk: 'PORTALSIGNIN' }),
  /** A back-office session, apart from the portal's: neither is ever found as the other (identity table). */
  backOfficeSession: (id: string): ItemKey => ({ pk: `BACKOFFICESESSION#${id}`, sk: 'BACKOFFICESESSION' }),
  /** A back-office sign-in under way (identity table). */
  backOfficeSignIn: (id: string): ItemKey => ({ pk: `BACKOFFICESIGNIN#${id}`, sk: 'BACKOFFICESIGNIN' }),
};
