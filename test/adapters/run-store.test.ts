// The records of workflow runs over DynamoDB Local: written with the change that makes them due (a first
// send, a new version, a change with runs, also through the read memory), read back unfinished and oldest
// first, finished once and kept, and never written twice.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDbContractReviewStore } from '../../lambdas/adapters/dynamodb/contract-review-store';
import { DynamoDbEventOutbox } from '../../lambdas/adapters/dynamodb/event-outbox';
import { DynamoDbIdempotencyStore } from '../../lambdas/adapters/dynamodb/idempotency-store';
import { byCreation, keys } from '../../lambdas/adapters/dynamodb/keys';
import { DynamoDbRunStore } from '../../lambdas/adapters/dynamodb/run-store';
import { getItem } from '../../lambdas/adapters/dynamodb/table';
import { randomIds } from '../../lambdas/adapters/random-ids';
import { withRecentReads } from '../../lambdas/adapters/recent-reads';
import { changeContractReview } from '../../lambdas/core/contracts/change';
import { lawyerReviewCompleted } from '../../lambdas/core/contracts/pipeline';
import { ConcurrentChange } from '../../lambdas/core/errors';
import { contractReviewEvent } from '../../lambdas/core/events';
import type { ContractReview, Scope } from '../../lambdas/core/model';
import {
  type ContractReviewStore,
  type RunRequest,
  runSubject,
  type WorkflowRun,
} from '../../lambdas/core/ports';
import { useTestDynamoDb } from '../support/dynamodb-local';
import {
  completion,
  contractReview,
  contractVersion,
  id,
  SECOND,
  scopeIn,
  TestClock,
} from '../support/fixtures';

const db = useTestDynamoDb();
const ids = randomIds();

const setUp = async () => {
  const tableName = await db.freshTable();
  const clock = new TestClock();
  const store = new DynamoDbContractReviewStore(db.doc, tableName, clock, 'production');
  const runs = new DynamoDbRunStore(db.doc, tableName, clock);
  const outbox = new DynamoDbEventOutbox(db.doc, tableName);
  const idempotency = new DynamoDbIdempotencyStore(db.doc, tableName, clock);
  const scope = scopeIn('production');
  const claimed = async (of: Scope) => {
    const key = id('idem-');
    await idempotency.claim(of, key, `fp-${key}`);
    return completion(of, key, `fp-${key}`);
  };
  /** Sends a contract review (its first version) through `into`, a tick after the last write. */
  const send = async (overrides: Partial<ContractReview> = {}, into: ContractReviewStore = store) => {
    const review = contractReview(scope, clock.tick(), overrides);
    await into.create({
      review,
      version: contractVersion(review, 1, review.createdAt),
      idempotency: await claimed(scope),
    });
    return review;
  };
  /** Accepts a new version of `review` through `into`, a tick after the last write. */
  const newVersion = async (review: ContractReview, into: ContractReviewStore = store) => {
    const next = { ...review, version: review.version + 1, updatedAt: clock.tick() };
    await into.addVersion({
      review: next,
      version: contractVersion(review, next.version, next.updatedAt),
      basedOnVersion: review.version,
      idempotency: await claimed(scope),
    });
    return next;
  };
  const runItem = (run: RunRequest) => getItem(db.doc, tableName, keys.run(run));
  return { clock, store, runs, outbox, scope, send, newVersion, runItem, tableName };
};

const contractRun = (review: Pick<ContractReview, 'id'>, version = 1): WorkflowRun => ({
  kind: 'contract',
  environment: 'production',
  contractReviewId: review.id,
  version,
});

const reviewRun = (review: Pick<ContractReview, 'id'>, version = 1): WorkflowRun => ({
  kind: 'review',
  environment: 'production',
  contractReviewId: review.id,
  version,
});

/** The review as a lawyer's publish leaves it, one tick on. */
const completedReview = (review: ContractReview, now: number): ContractReview => ({
  ...review,
  lawyerReview: { state: 'completed', requestedAt: review.createdAt, completedAt: now },
  updatedAt: now,
});

test('a first send records its contract run, unfinished', async () => {
  const { runs, send, runItem } = await setUp();
  const review = await send();
  expect(await runs.unfinished(10)).toEqual([contractRun(review)]);
  expect(await runItem(contractRun(review))).toMatchObject({
    type: 'run',
    state: 'pending',
    created_at: review.createdAt,
  });
});

test('runs from sends, new versions and changes come back oldest first, whatever their ids', async () => {
  const { clock, store, runs, send, newVersion } = await setUp();
  // Ids in the reverse order of their sends: an order by id or newest first would differ.
  const c = await send({ id: 'crv_ccc' });
  const b = await send({ id: 'crv_bbb' });
  const c2 = await newVersion(c);
  const now = clock.tick();
  await store.update(completedReview(b, now), b.updatedAt, [], [reviewRun(b)]);
  const a = await send({ id: 'crv_aaa' });

  const expected = [contractRun(c), contractRun(b), contractRun(c2, 2), reviewRun(b), contractRun(a)];
  expect(await runs.unfinished(10)).toEqual(expected);
  expect(await runs.unfinished(2)).toEqual(expected.slice(0, 2));
  // The re-drive's walk: every run, oldest first, a page at a time.
  const pages: WorkflowRun[][] = [];
  for await (const page of runs.eachUnfinished(2)) pages.push(page);
  expect(pages).toEqual([expected.slice(0, 2), expected.slice(2, 4), expected.slice(4)]);
});

test('an update without runs records none; one with runs records each, with its events', async () => {
  const { clock, store, runs, outbox, send } = await setUp();
  const review = await send();
  const processed = { ...review, updatedAt: clock.tick() };
  await store.update(processed, review.updatedAt, []);
  expect(await runs.unfinished(10)).toEqual([contractRun(review)]);

  const done = completedReview(processed, clock.tick());
  const event = contractReviewEvent(ids, 'contract-reviews.lawyer_review.completed', done, done.updatedAt);
  await store.update(done, processed.updatedAt, [event], [reviewRun(review)]);
  expect(await runs.unfinished(10)).toEqual([contractRun(review), reviewRun(review)]);
  expect(await outbox.pending(10)).toEqual([event]);
  expect(await store.get(review.id)).toEqual(done);
});

test('a change that makes a run due records it in its own transaction (the lawyer publishing)', async () => {
  const { clock, store, runs, send } = await setUp();
  const review = await send({
    lawyerReview: { state: 'requested', requestedAt: clock.now(), completedAt: null },
  });
  const published = await changeContractReview({ contractReviews: store, clock }, review.id, (current, now) =>
    lawyerReviewCompleted(ids)(current, now),
  );
  expect(published.lawyerReview?.state).toBe('completed');
  expect(await runs.unfinished(10)).toEqual([contractRun(review), reviewRun(review)]);
});

test('a refused update records no run', async () => {
  const { clock, store, runs, send } = await setUp();
  const review = await send();
  await store.update({ ...review, updatedAt: clock.tick() }, review.updatedAt, []);
  await expect(
    store.update(completedReview(review, clock.tick()), review.updatedAt, [], [reviewRun(review)]),
  ).rejects.toBeInstanceOf(ConcurrentChange);
  expect(await runs.unfinished(10)).toEqual([contractRun(review)]);
});

test('finish takes a run out of the unfinished ones and keeps its item, with the outcome', async () => {
  const { clock, runs, send, newVersion, runItem } = await setUp();
  const review = await send();
  const other = await send();
  const v2 = await newVersion(review);
  clock.advance(5 * SECOND);
  const finishedAt = clock.now();
  await runs.finish(contractRun(review), 'superseded');

  expect(await runs.unfinished(10)).toEqual([contractRun(other), contractRun(v2, 2)]);
  const item = await runItem(contractRun(review));
  expect(item).toMatchObject({
    type: 'run',
    kind: 'contract',
    contract_review_id: review.id,
    version: 1,
    environment: 'production',
    state: 'finished',
    outcome: 'superseded',
    created_at: review.createdAt,
    finished_at: finishedAt,
  });
  // Out of the index: no index keys left on the item.
  expect(item).not.toHaveProperty('gsi1pk');
  expect(item).not.toHaveProperty('gsi1sk');
});

test('finishing a run again changes nothing: its first outcome and time stay', async () => {
  const { clock, runs, send, runItem } = await setUp();
  const review = await send();
  await runs.finish(contractRun(review), 'failed');
  const first = await runItem(contractRun(review));
  clock.advance(SECOND);
  await expect(runs.finish(contractRun(review), 'completed')).resolves.toBeUndefined();
  expect(await runItem(contractRun(review))).toEqual(first);
  expect(first).toMatchObject({ state: 'finished', outcome: 'failed' });
  expect(await runs.unfinished(10)).toEqual([]);
});

test('finishing a run never recorded writes nothing', async () => {
  const { runs, send, runItem } = await setUp();
  const review = await send();
  await expect(runs.finish(reviewRun(review), 'completed')).resolves.toBeUndefined();
  expect(await runItem(reviewRun(review))).toBeUndefined();
  expect(await runs.unfinished(10)).toEqual([contractRun(review)]);
});

describe('through the read memory (withRecentReads)', () => {
  test('a first send, a new version and an update with runs each record their runs', async () => {
    const { clock, store, runs, send, newVersion } = await setUp();
    const { store: remembering, reads } = withRecentReads(store, clock);
    const review = await send({}, remembering);
    const v2 = await newVersion(review, remembering);
    expect((await reads.get(review.id))?.version).toBe(2);
    const done = completedReview(v2, clock.tick());
    await remembering.update(done, v2.updatedAt, [], [reviewRun(review, 2)]);

    expect(await runs.unfinished(10)).toEqual([
      contractRun(review),
      contractRun(v2, 2),
      reviewRun(review, 2),
    ]);
    expect((await reads.get(review.id))?.lawyerReview?.state).toBe('completed');
  });

  test('changeContractReview over it records the run the change makes due', async () => {
    const { clock, store, runs, send } = await setUp();
    const { store: remembering } = withRecentReads(store, clock);
    const review = await send({
      lawyerReview: { state: 'requested', requestedAt: clock.now(), completedAt: null },
    });
    await changeContractReview(
      { contractReviews: remembering, clock },
      review.id,
      lawyerReviewCompleted(ids),
    );
    expect(await runs.unfinished(10)).toEqual([contractRun(review), reviewRun(review)]);
  });
});

describe('a run already recorded is never written again', () => {
  test('an update naming a finished run fails whole: no review, no event, and the run stays finished', async () => {
    const { clock, store, runs, outbox, send, runItem } = await setUp();
    const review = await send();
    const done = completedReview(review, clock.tick());
    await store.update(done, review.updatedAt, [], [reviewRun(review)]);
    await runs.finish(reviewRun(review), 'completed');
    const finished = await runItem(reviewRun(review));

    const again = { ...done, updatedAt: clock.tick() };
    const event = contractReviewEvent(
      ids,
      'contract-reviews.lawyer_review.completed',
      again,
      again.updatedAt,
    );
    const write = store.update(again, done.updatedAt, [event], [reviewRun(review)]);
    await expect(write).rejects.toThrow('a transaction condition failed unexpectedly');
    await expect(write).rejects.not.toBeInstanceOf(ConcurrentChange);
    expect(await store.get(review.id)).toEqual(done);
    expect(await outbox.pending(10)).toEqual([]);
    expect(await runItem(reviewRun(review))).toEqual(finished);
    expect(await runs.unfinished(10)).toEqual([contractRun(review)]);
  });

  test('an update naming an unfinished run fails the same way and leaves its record as it was', async () => {
    const { clock, store, runs, send, runItem } = await setUp();
    const review = await send();
    const recorded = await runItem(contractRun(review));
    clock.advance(SECOND);
    const next = { ...review, updatedAt: clock.now() };
    await expect(store.update(next, review.updatedAt, [], [contractRun(review)])).rejects.toThrow(
      'a transaction condition failed unexpectedly',
    );
    expect(await store.get(review.id)).toEqual(review);
    expect(await runItem(contractRun(review))).toEqual(recorded);
    expect(await runs.unfinished(10)).toEqual([contractRun(review)]);
  });

  test('changeContractReview does not retry it as a concurrent change: the error reaches the caller', async () => {
    const { clock, store, send } = await setUp();
    const review = await send();
    let attempts = 0;
    const change = changeContractReview({ contractReviews: store, clock }, review.id, (current, now) => {
      attempts++;
      return { review: { ...current, updatedAt: now }, events: [], runs: [contractRun(review)] };
    });
    await expect(change).rejects.toThrow('a transaction condition failed unexpectedly');
    expect(attempts).toBe(1);
    expect(await store.get(review.id)).toEqual(review);
  });
});

test('a delivery run recorded by an older version (before messages were their own records) is not among the unfinished', async () => {
  const { runs, send, tableName } = await setUp();
  const legacy: RunRequest = {
    kind: 'delivery',
    environment: 'production',
    messageId: 'msg_legacy1',
    round: 1,
  };
  // The item as that version wrote it.
  await db.doc.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...keys.run(legacy),
        type: 'run',
        gsi1pk: keys.unfinishedRuns,
        gsi1sk: byCreation(1, `${runSubject(legacy)}#delivery`),
        kind: 'delivery',
        environment: 'production',
        message_id: legacy.messageId,
        round: 1,
        state: 'pending',
        created_at: 1,
      },
    }),
  );
  const review = await send();
  expect(await runs.unfinished(10)).toEqual([contractRun(review)]);
});
