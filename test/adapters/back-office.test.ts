// adapters -> the back office's storage in DynamoDB Local, through the core use cases the pages and
// `ops` call: the review queue read from its sparse index (oldest request first, paged, leaving when
// published or superseded), `Assign to me`, drafts saved only over the revision they were read at, the
// audit log written in the change's own transaction (a fault injected into it writes neither), its
// filters and paging, and two lawyers publishing at once (one publish, one entry, one set of events).
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { createS3Client, ensureBucket } from '../../lambdas/adapters/blobs/s3-client';
import {
  answerVaultOver,
  blobStoreOver,
  composeCommonPorts,
  workflowsOver,
} from '../../lambdas/adapters/compose';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/document-client';
import { DynamoDbIdempotencyStore } from '../../lambdas/adapters/dynamodb/idempotency-store';
import { DynamoDbStaffStore } from '../../lambdas/adapters/dynamodb/staff-store';
import { listAuditLog } from '../../lambdas/core/back-office/audit-log';
import {
  getContractReview,
  getSignUp,
  listSignUps,
  searchContractReviews,
} from '../../lambdas/core/back-office/operations';
import {
  assignReview,
  getReviewDraft,
  listReviewQueue,
  reviewQueueSummary,
  saveReviewDraft,
} from '../../lambdas/core/back-office/review-desk';
import { OPERATOR_TOOL, type Staff } from '../../lambdas/core/back-office/roles';
import { putStaffMember } from '../../lambdas/core/back-office/staff';
import { putText, readText } from '../../lambdas/core/blobs';
import { artifacts } from '../../lambdas/core/contracts/artifacts';
import { publishLawyerReview } from '../../lambdas/core/contracts/lawyer-actions';
import { withNewVersion } from '../../lambdas/core/contracts/shape';
import { ServiceError } from '../../lambdas/core/errors';
import type { ContractReview, Micros, Onboarding } from '../../lambdas/core/model';
import { acceptOnboarding, openOnboardingSession, submitOnboarding } from '../../lambdas/core/onboarding';
import type { WorkflowRun } from '../../lambdas/core/ports';
import { setSandboxBudget } from '../../lambdas/core/sandbox-budget';
import { formatTime } from '../../lambdas/core/time';
import { type LocalS3, startLocalS3 } from '../../local/emulators/s3-server';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { completion, contractReview, contractVersion, id, SECOND, scopeIn } from '../support/fixtures';

const db = useTestDynamoDb();

const lawyer = (email = 'lawyer@example.com'): Staff => ({ kind: 'staff', email, roles: ['lawyer'] });
const operator: Staff = { kind: 'staff', email: 'operator@example.com', roles: ['operator'] };

let directory: string;
let s3: LocalS3;
let s3Client: S3Client;
/** This file's own client: it records each command (to show the queue is a Query of an index, never a
 * Scan) and can cancel the next transaction (a fault injected into the change's transaction). */
let doc: DynamoDBDocumentClient;
const sent: Array<{ name: string; input: Record<string, unknown> }> = [];
let faultNextTransaction = false;
/** The key the form's answers are sealed under, as the local stack keeps one under DATA_DIR. */
const answersKey = randomBytes(32);
/** An item as the document client's input holds it (marshalled later). */
type Item = Record<string, unknown>;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'back-office-'));
  s3 = await startLocalS3(directory, 0);
  s3Client = createS3Client({ region: 'us-east-1', endpoint: s3.endpoint });
  await ensureBucket(s3Client, 'blobs');
  doc = createDocumentClient(db.endpoint);
  doc.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      sent.push({ name: String(context.commandName), input });
      const items = (input.TransactItems ?? []) as Array<Record<string, { TableName: string; Item?: Item }>>;
      const writesAudit = items.some((write) => String(write.Put?.Item?.pk).startsWith('AUDIT#'));
      // The fault goes into the transaction that writes the audit entry: the change must be in it too.
      if (context.commandName === 'TransactWriteItemsCommand' && writesAudit && faultNextTransaction) {
        faultNextTransaction = false;
        // DynamoDB itself cancels the whole transaction: one more item whose condition cannot hold.
        const table = (Object.values(items[0] as object)[0] as { TableName: string }).TableName;
        items.push({
          ConditionCheck: {
            TableName: table,
            Key: { pk: 'FAULT', sk: 'FAULT' },
            ConditionExpression: 'attribute_exists(pk)',
          } as never,
        });
      }
      return next(args);
    },
    { step: 'serialize', priority: 'high', name: 'recordAndFault' },
  );
});

afterAll(async () => {
  doc.destroy();
  s3Client.destroy();
  await s3.stop();
  await rm(directory, { recursive: true, force: true });
});

const setUp = async () => {
  const tableName = await db.freshTable();
  const started: WorkflowRun[] = [];
  const common = composeCommonPorts({
    environment: 'production',
    dynamo: doc,
    tableName,
    requestHistory: 'off',
  });
  const ports = {
    ...common,
    blobs: blobStoreOver(s3Client, 'blobs'),
    // Step Functions' edge: the runs a publish starts are recorded, as the local stack's starters do.
    workflows: workflowsOver({
      start: async (run) => {
        started.push(run);
      },
      completeWait: async () => undefined,
      failWait: async () => undefined,
    }),
    answerVault: answerVaultOver(async () => answersKey),
  };
  const idempotency = new DynamoDbIdempotencyStore(doc, tableName, ports.clock);
  const scope = scopeIn('production');

  /** Records a first send of `review`, as the API does. */
  const create = async (review: ContractReview): Promise<void> => {
    const key = id('idem-');
    await idempotency.claim(review.scope, key, `fp-${key}`);
    await ports.contractReviews.create({
      review,
      version: contractVersion(review, 1, review.createdAt),
      idempotency: completion(review.scope, key, `fp-${key}`),
    });
  };

  /** A review whose lawyer review was requested at `requestedAt`, with its analysis drafted. */
  const requested = async (requestedAt: Micros): Promise<ContractReview> => {
    const review = contractReview(scope, requestedAt - SECOND, {
      processing: { state: 'completed', completedAt: requestedAt, failureReason: null, failedAt: null },
      analysis: { state: 'completed', completedAt: requestedAt, failureReason: null, failedAt: null },
      lawyerReview: { state: 'requested', requestedAt, completedAt: null },
      updatedAt: requestedAt,
    });
    await create(review);
    await putText(
      ports.blobs,
      artifacts.analysisMarkdown(review.id, 1),
      `# Analysis of ${review.id}\n`,
      'text/markdown',
    );
    return review;
  };

  /** Version 2 of the review, accepted as the API accepts one: its lawyer review not requested. */
  const newVersion = async (id0: string): Promise<void> => {
    const current = (await ports.contractReviews.get(id0)) as ContractReview;
    const key = id('idem-');
    await idempotency.claim(scope, key, `fp-${key}`);
    await ports.contractReviews.addVersion({
      review: withNewVersion(current, [], current.updatedAt + 1),
      version: contractVersion(current, 2, current.updatedAt + 1),
      basedOnVersion: 1,
      idempotency: completion(scope, key, `fp-${key}`),
    });
  };

  const entries = (query: Parameters<typeof listAuditLog>[2] = {}) =>
    listAuditLog([ports.backOffice.audit], OPERATOR_TOOL, { limit: 100, ...query });

  const events = async (type: string) =>
    (await ports.outbox.pending(100)).filter((event) => event.type === type);

  return { tableName, ports, started, create, requested, newVersion, entries, events };
};

const refusal = async (promise: Promise<unknown>): Promise<ServiceError> => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected a ServiceError');
};

const T0 = 1_790_000_000_000_000;

describe('the review queue', () => {
  it('lists requested reviews oldest request first, paged from an index, and nothing else', async () => {
    const { ports, create, requested } = await setUp();
    // Requested out of order; a review with no request is not in the queue.
    const third = await requested(T0 + 30 * SECOND);
    const first = await requested(T0 + 10 * SECOND);
    const second = await requested(T0 + 20 * SECOND);
    const fourth = await requested(T0 + 40 * SECOND);
    const idle = contractReview(scopeIn('production'), T0);
    await create(idle);

    sent.length = 0;
    const page1 = await listReviewQueue(ports, lawyer(), { limit: 3 });
    expect(page1.data.map((item) => item.id)).toEqual([first.id, second.id, third.id]);
    expect(page1.has_more).toBe(true);
    expect(page1.data[0]).toEqual({
      id: first.id,
      external_reference: first.externalReference,
      product: 'legal_information',
      organisation_id: first.scope.organisationId,
      integration_id: first.scope.integrationId,
      version: 1,
      requested_at: formatTime(T0 + 10 * SECOND),
      assignee: null,
    });
    const page2 = await listReviewQueue(ports, lawyer(), { limit: 3, startingAfter: third.id });
    expect(page2).toEqual({ data: [expect.objectContaining({ id: fourth.id })], has_more: false });
    expect(sent.map((c) => c.name)).not.toContain('ScanCommand');
    expect(sent.filter((c) => c.name === 'QueryCommand').map((c) => c.input.IndexName)).toEqual([
      'gsi2',
      'gsi2',
    ]);

    const invalid = await refusal(listReviewQueue(ports, lawyer(), { startingAfter: idle.id }));
    expect(invalid.code).toBe('starting_after_invalid');
  });

  it('shows who is working on a review, and drops it once published or superseded by a new version', async () => {
    const { ports, requested, newVersion } = await setUp();
    const published = await requested(T0 + 10 * SECOND);
    const superseded = await requested(T0 + 20 * SECOND);
    const waiting = await requested(T0 + 30 * SECOND);

    await assignReview(ports, lawyer('ana@example.com'), waiting.id);
    expect((await listReviewQueue(ports, lawyer())).data.map((i) => [i.id, i.assignee])).toEqual([
      [published.id, null],
      [superseded.id, null],
      [waiting.id, 'ana@example.com'],
    ]);

    await publishLawyerReview(ports, lawyer(), published.id, 'Reviewed.');
    await newVersion(superseded.id);

    expect((await listReviewQueue(ports, lawyer())).data.map((i) => i.id)).toEqual([waiting.id]);
  });

  it('summarises the whole queue for a page showing its oldest rows: how many, counted up to a bound, and the newest', async () => {
    const { ports, requested, create } = await setUp();
    await create(contractReview(scopeIn('production'), T0));
    expect(await reviewQueueSummary(ports, lawyer())).toEqual({
      due: 0,
      due_counted_all: true,
      newest: null,
    });

    await requested(T0 + 20 * SECOND);
    const newest = await requested(T0 + 40 * SECOND);
    await requested(T0 + 10 * SECOND);
    await assignReview(ports, lawyer('ana@example.com'), newest.id);
    sent.length = 0;
    expect(await reviewQueueSummary(ports, lawyer())).toEqual({
      due: 3,
      due_counted_all: true,
      newest: expect.objectContaining({
        id: newest.id,
        requested_at: formatTime(T0 + 40 * SECOND),
        assignee: 'ana@example.com',
      }),
    });
    // Counted from the queue's index, items not sent (Select COUNT), and never a Scan.
    const queries = sent.filter((c) => c.name === 'QueryCommand').map((c) => c.input);
    expect(sent.map((c) => c.name)).not.toContain('ScanCommand');
    expect(queries.map((input) => [input.IndexName, input.Select ?? 'items'])).toEqual(
      expect.arrayContaining([
        ['gsi2', 'COUNT'],
        ['gsi2', 'items'],
      ]),
    );

    // Beyond the bound the count stops there and says it did not count them all.
    expect(await reviewQueueSummary(ports, lawyer(), 2)).toEqual(
      expect.objectContaining({
        due: 2,
        due_counted_all: false,
        newest: expect.objectContaining({ id: newest.id }),
      }),
    );
    expect(await reviewQueueSummary(ports, lawyer(), 3)).toEqual(
      expect.objectContaining({ due: 3, due_counted_all: true }),
    );
    const refused = await refusal(reviewQueueSummary(ports, operator));
    expect(refused.code).toBe('role_required');
  });
});

describe('drafts', () => {
  it('start as the analysis, are seen by every lawyer, and a stale save is refused with nothing lost', async () => {
    const { ports, requested, entries } = await setUp();
    const review = await requested(T0);
    const ana = lawyer('ana@example.com');
    const ben = lawyer('ben@example.com');

    const opened = await getReviewDraft(ports, ana, review.id);
    expect([opened.text, opened.revision, opened.saved_by]).toEqual([
      `# Analysis of ${review.id}\n`,
      0,
      null,
    ]);

    // Both opened revision 0; Ana saves first.
    const saved = await saveReviewDraft(ports, ana, review.id, 'Ana’s review', 0);
    expect([saved.revision, saved.saved_by]).toEqual([1, 'ana@example.com']);
    const stale = await refusal(saveReviewDraft(ports, ben, review.id, 'Ben’s review', 0));
    expect([stale.status, stale.code]).toEqual([409, 'draft_conflict']);
    expect(stale.message).toContain('ana@example.com');

    const seen = await getReviewDraft(ports, ben, review.id);
    expect([seen.text, seen.revision]).toEqual(['Ana’s review', 1]);
    // Ben saves over what he now read.
    expect((await saveReviewDraft(ports, ben, review.id, 'Ben’s review', 1)).revision).toBe(2);

    // Two saves at once over the same revision: exactly one is kept, the other refused.
    const racing = await Promise.allSettled([
      saveReviewDraft(ports, ana, review.id, 'Ana again', 2),
      saveReviewDraft(ports, ben, review.id, 'Ben again', 2),
    ]);
    expect(racing.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = racing.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((rejected.reason as ServiceError).code).toBe('draft_conflict');
    const kept = racing.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<{ text: string }>;
    expect((await getReviewDraft(ports, ana, review.id)).text).toBe(kept.value.text);

    // One audit entry per save kept, none for a refused one.
    const drafts = await entries({ action: 'review.draft_saved' });
    expect(drafts.data.map((e) => e.details.revision)).toEqual([3, 2, 1]);
  });

  it('takes Markdown up to 256 KB and refuses more', async () => {
    const { ports, requested } = await setUp();
    const review = await requested(T0);
    const big = 'a'.repeat(256 * 1024);
    expect((await saveReviewDraft(ports, lawyer(), review.id, big, 0)).revision).toBe(1);
    const tooBig = await refusal(saveReviewDraft(ports, lawyer(), review.id, `${big}a`, 1));
    expect([tooBig.status, tooBig.code]).toEqual([400, 'request_invalid']);
    expect((await getReviewDraft(ports, lawyer(), review.id)).text).toBe(big);
  });
});

describe('the audit log', () => {
  it('is written in the change’s own transaction: a fault injected into it writes neither', async () => {
    const { ports, requested, entries, events, tableName } = await setUp();
    const review = await requested(T0);

    faultNextTransaction = true;
    await expect(saveReviewDraft(ports, lawyer(), review.id, 'Lost?', 0)).rejects.toThrow(
      'a transaction condition failed unexpectedly',
    );
    expect(faultNextTransaction).toBe(false);
    expect((await getReviewDraft(ports, lawyer(), review.id)).revision).toBe(0);
    expect((await entries()).data).toEqual([]);

    faultNextTransaction = true;
    await expect(publishLawyerReview(ports, lawyer(), review.id, 'Reviewed.')).rejects.toThrow(
      'a transaction condition failed unexpectedly',
    );
    expect(faultNextTransaction).toBe(false);
    expect((await ports.contractReviews.get(review.id))?.lawyerReview?.state).toBe('requested');
    expect((await entries()).data).toEqual([]);
    expect(await events('contract-reviews.lawyer_review.completed')).toEqual([]);

    faultNextTransaction = true;
    await expect(setSandboxBudget(ports, operator, 'org_x', 9)).rejects.toThrow(
      'a transaction condition failed unexpectedly',
    );
    expect(faultNextTransaction).toBe(false);
    expect(
      (await doc.send(new GetCommand({ TableName: tableName, Key: { pk: 'BUDGET#org_x', sk: 'BUDGET' } })))
        .Item,
    ).toBeUndefined();
    expect((await entries()).data).toEqual([]);

    // Without the fault, the change and its entry are both there.
    await publishLawyerReview(ports, lawyer(), review.id, 'Reviewed.');
    expect((await ports.contractReviews.get(review.id))?.lawyerReview?.state).toBe('completed');
    expect((await entries()).data).toEqual([
      expect.objectContaining({
        staff: 'lawyer@example.com',
        action: 'review.published',
        target: review.id,
        environment: 'production',
        details: { version: 1, bytes: 9 },
      }),
    ]);
  });

  it('two lawyers publishing at once: one publish, one audit entry, one set of events', async () => {
    const { ports, requested, entries, events, started } = await setUp();
    const review = await requested(T0);
    // The real blob store, noting each key a publish stores a text under.
    const stored: string[] = [];
    const blobs = {
      ...ports.blobs,
      put: (key: string, body: AsyncIterable<Uint8Array>, type: string) => {
        if (key.startsWith(`reviews/${review.id}/`)) stored.push(key);
        return ports.blobs.put(key, body, type);
      },
      readRange: ports.blobs.readRange.bind(ports.blobs),
      delete: ports.blobs.delete.bind(ports.blobs),
    };
    const publishing = { ...ports, blobs };
    const outcomes = await Promise.allSettled([
      publishLawyerReview(publishing, lawyer('ana@example.com'), review.id, 'Ana’s review'),
      publishLawyerReview(publishing, lawyer('ben@example.com'), review.id, 'Ben’s review'),
    ]);
    expect(stored).toHaveLength(2);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((await entries({ action: 'review.published' })).data).toHaveLength(1);
    expect(await events('contract-reviews.lawyer_review.completed')).toHaveLength(1);
    expect(started.filter((run) => run.kind === 'review')).toHaveLength(1);
    // The loser wrote nothing that stays: of the texts the two stored, only the winner's is still there,
    // under the key the record names for the publisher to read.
    const winner = outcomes.find((o) => o.status === 'fulfilled') as PromiseFulfilledResult<ContractReview>;
    const textKey = (await ports.contractReviews.get(review.id))?.lawyerReview?.textKey;
    expect(textKey).toBe(winner.value.lawyerReview?.textKey);
    const kept = await Promise.all(
      stored.map(async (key) => [key, await readText(ports.blobs, key).catch(() => null)] as const),
    );
    const winnerText =
      (await entries({ action: 'review.published' })).data[0]?.staff === 'ana@example.com'
        ? 'Ana’s review'
        : 'Ben’s review';
    expect(kept.filter(([, text]) => text !== null)).toEqual([[textKey, winnerText]]);
  });

  it('lists newest first, paged, filtered by staff member and by action, each from an index', async () => {
    const { ports, requested, entries } = await setUp();
    const a = await requested(T0);
    const b = await requested(T0 + SECOND);
    await assignReview(ports, lawyer('ana@example.com'), a.id);
    await saveReviewDraft(ports, lawyer('ana@example.com'), a.id, 'one', 0);
    await saveReviewDraft(ports, lawyer('ben@example.com'), b.id, 'two', 0);
    await setSandboxBudget(ports, operator, 'org_y', 7);

    const all = await entries();
    expect(all.data.map((e) => e.action)).toEqual([
      'budget.set',
      'review.draft_saved',
      'review.draft_saved',
      'review.assigned',
    ]);
    expect(all.data[0]).toMatchObject({
      staff: 'operator@example.com',
      target: 'org_y',
      details: { total: 7 },
    });

    const page1 = await entries({ limit: 2 });
    expect([page1.data.length, page1.has_more]).toEqual([2, true]);
    const page2 = await entries({ limit: 2, startingAfter: page1.data[1]?.id });
    expect(page2.data.map((e) => e.id)).toEqual(all.data.slice(2).map((e) => e.id));
    expect(page2.has_more).toBe(false);

    sent.length = 0;
    const ana = await entries({ staff: 'ana@example.com' });
    expect(ana.data.map((e) => e.action)).toEqual(['review.draft_saved', 'review.assigned']);
    const anaDrafts = await entries({ staff: 'ana@example.com', action: 'review.draft_saved' });
    expect(anaDrafts.data.map((e) => e.target)).toEqual([a.id]);
    const drafts = await entries({ action: 'review.draft_saved', limit: 1 });
    expect([drafts.data[0]?.staff, drafts.has_more]).toEqual(['ben@example.com', true]);
    const next = await entries({ action: 'review.draft_saved', limit: 1, startingAfter: drafts.data[0]?.id });
    expect(next.data.map((e) => e.staff)).toEqual(['ana@example.com']);
    const queries = sent.filter((c) => c.name === 'QueryCommand');
    expect(
      queries.every((c) => c.input.FilterExpression === undefined && c.input.IndexName !== undefined),
    ).toBe(true);
    expect(sent.map((c) => c.name)).not.toContain('ScanCommand');

    // An entry of another filter is no place in this one.
    expect((await refusal(entries({ staff: 'ben@example.com', startingAfter: ana.data[0]?.id }))).code).toBe(
      'starting_after_invalid',
    );
    expect((await refusal(entries({ action: 'nothing' }))).code).toBe('filter_invalid');
  });

  it('merges an environment’s log with the staff changes kept with the identity', async () => {
    const { ports, requested } = await setUp();
    const staff = new DynamoDbStaffStore(doc, await db.freshTable());
    const staffDirectory = { staff, ids: ports.ids, clock: ports.clock };
    const review = await requested(T0);
    await putStaffMember(staffDirectory, OPERATOR_TOOL, 'New@Example.com', ['lawyer']);
    await assignReview(ports, lawyer(), review.id);
    await putStaffMember(staffDirectory, OPERATOR_TOOL, 'new@example.com', ['lawyer', 'admin']);

    const log = await listAuditLog([ports.backOffice.audit, staff.audit], OPERATOR_TOOL, { limit: 2 });
    expect(log.data.map((e) => [e.action, e.target, e.details.roles ?? null])).toEqual([
      ['staff.changed', 'new@example.com', 'lawyer,admin'],
      ['review.assigned', review.id, null],
    ]);
    expect(log.has_more).toBe(true);
    const rest = await listAuditLog([ports.backOffice.audit, staff.audit], OPERATOR_TOOL, {
      limit: 2,
      startingAfter: log.data[1]?.id,
    });
    expect(rest.data.map((e) => [e.staff, e.details.roles_before])).toEqual([['operator tool', null]]);
    expect(await staff.list()).toEqual([
      expect.objectContaining({ email: 'new@example.com', roles: ['lawyer', 'admin'] }),
    ]);
  });
});

describe('the operators’ reads', () => {
  it('sign-ups: submitted ones oldest first with their clients, from an index; an accepted one leaves', async () => {
    const { ports, entries } = await setUp();
    const scope = scopeIn('production');
    const submit = async (email: string) => {
      const session = await openOnboardingSession(ports, scope, id('ref-'));
      const opened = (await ports.onboardings.get(session.id)) as Onboarding;
      return submitOnboarding(ports, opened, [{ firstName: 'Ada', lastName: 'L', email, mobile: null }]);
    };
    const first = await submit('first@example.com');
    const second = await submit('second@example.com');
    await openOnboardingSession(ports, scope, id('ref-')); // open, never submitted: not listed

    sent.length = 0;
    const page = await listSignUps(ports, operator, { limit: 1 });
    expect(page.data.map((s) => [s.id, s.clients.map((c) => c.email)])).toEqual([
      [first.id, ['first@example.com']],
    ]);
    expect(page.has_more).toBe(true);
    expect(sent.map((c) => c.name)).not.toContain('ScanCommand');
    const rest = await listSignUps(ports, operator, { startingAfter: first.id });
    expect(rest.data.map((s) => s.id)).toEqual([second.id]);

    await acceptOnboarding(ports, first, operator);
    expect((await listSignUps(ports, operator)).data.map((s) => s.id)).toEqual([second.id]);
    expect((await entries({ action: 'signup.accepted' })).data).toEqual([
      expect.objectContaining({ staff: 'operator@example.com', target: first.id, details: { clients: 1 } }),
    ]);
  });

  it('a sign-up shows each client’s address as the form’s answers hold it (opened from the vault)', async () => {
    const { ports } = await setUp();
    const session = await openOnboardingSession(ports, scopeIn('production'), id('ref-'));
    const opened = (await ports.onboardings.get(session.id)) as Onboarding;
    const address = (line1: string) => ({
      line1,
      suburb: 'Hawthorn',
      state: 'VIC',
      postcode: '3122',
      country: 'Australia',
    });
    const answers = {
      buyers: [
        {
          first_name: 'Ada',
          last_name: 'L',
          email: 'Ada@Example.com',
          mobile: '+61400000000',
          address: address('1 Main St'),
        },
        {
          first_name: 'Bo',
          last_name: 'K',
          email: 'bo@example.com',
          mobile: null,
          address: { ...address('2 Side St'), line2: 'Unit 4' },
        },
      ],
    };
    const sealed = await ports.answerVault.seal(JSON.stringify(answers), opened.id);
    const submitted = await submitOnboarding(
      ports,
      opened,
      answers.buyers.map((b) => ({
        firstName: b.first_name,
        lastName: b.last_name,
        email: b.email,
        mobile: b.mobile,
      })),
      { sealed, by: null },
    );

    const signUp = await getSignUp(ports, operator, submitted.id);
    expect(signUp.clients.map((c) => [c.email, c.mobile, c.address])).toEqual([
      ['Ada@Example.com', '+61400000000', { ...address('1 Main St'), line2: null }],
      ['bo@example.com', null, { ...address('2 Side St'), line2: 'Unit 4' }],
    ]);
    expect((await listSignUps(ports, operator)).data[0]?.clients[1]?.address?.line2).toBe('Unit 4');
    // A submission kept without answers (the API's own tests make such): no address to show.
    const bare = await submitOnboarding(
      ports,
      (await ports.onboardings.get(
        (
          await openOnboardingSession(ports, scopeIn('production'), id('ref-'))
        ).id,
      )) as Onboarding,
      [{ firstName: 'Cy', lastName: 'M', email: 'cy@example.com', mobile: null }],
    );
    expect((await getSignUp(ports, operator, bare.id)).clients[0]?.address).toBeNull();
  });

  it('contract search: by crv id or by external_reference across integrations', async () => {
    const { ports, create, newVersion } = await setUp();
    const one = contractReview(scopeIn('production'), T0, { externalReference: 'house-12' });
    const other = contractReview(scopeIn('production'), T0 + SECOND, { externalReference: 'house-12' });
    const unrelated = contractReview(scopeIn('production'), T0, { externalReference: 'house-13' });
    for (const review of [one, other, unrelated]) await create(review);

    const byReference = await searchContractReviews(ports, operator, ' house-12 ');
    expect(byReference.data.map((r) => [r.id, r.organisation_id])).toEqual([
      [other.id, other.scope.organisationId],
      [one.id, one.scope.organisationId],
    ]);
    expect((await searchContractReviews(ports, operator, unrelated.id)).data.map((r) => r.id)).toEqual([
      unrelated.id,
    ]);
    expect((await searchContractReviews(ports, operator, 'nothing')).data).toEqual([]);

    // Its page: every version, newest first, and whose it is.
    await newVersion(one.id);
    expect(await getContractReview(ports, operator, one.id)).toEqual(
      expect.objectContaining({
        id: one.id,
        version: 2,
        organisation_id: one.scope.organisationId,
        versions: [
          expect.objectContaining({ version: 2, page_count: expect.any(Number) }),
          expect.objectContaining({ version: 1 }),
        ],
      }),
    );
    expect((await refusal(getContractReview(ports, operator, 'crv_madeup'))).code).toBe('not_found');
    expect((await refusal(getContractReview(ports, lawyer(), one.id))).code).toBe('role_required');
    expect((await refusal(searchContractReviews(ports, lawyer(), 'house-12'))).code).toBe('role_required');
  });
});
