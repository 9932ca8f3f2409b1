// State changes of a contract review over DynamoDB Local: optimistic, atomic with their events, and
// racing writers both applied.
import { DynamoDbContractReviewStore } from '../../lambdas/adapters/dynamodb/contract-review-store';
import { DynamoDbEventOutbox } from '../../lambdas/adapters/dynamodb/event-outbox';
import { DynamoDbIdempotencyStore } from '../../lambdas/adapters/dynamodb/idempotency-store';
import { randomIds } from '../../lambdas/adapters/random-ids';
import { changeContractReview } from '../../lambdas/core/contracts/change';
import { ConcurrentChange } from '../../lambdas/core/errors';
import { contractReviewEvent } from '../../lambdas/core/events';
import type { ContractReview } from '../../lambdas/core/model';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { completion, contractReview, contractVersion, id, scopeIn, TestClock } from '../support/fixtures';

const db = useTestDynamoDb();
const ids = randomIds();

const setUp = async () => {
  const tableName = await db.freshTable();
  const clock = new TestClock();
  const store = new DynamoDbContractReviewStore(db.doc, tableName, clock, 'production');
  const outbox = new DynamoDbEventOutbox(db.doc, tableName);
  const idempotency = new DynamoDbIdempotencyStore(db.doc, tableName, clock);
  const scope = scopeIn('production');
  const review = contractReview(scope, clock.tick(), { product: 'legal_information' });
  const key = id('idem-');
  await idempotency.claim(scope, key, `fp-${key}`);
  await store.create({
    review,
    version: contractVersion(review, 1, review.createdAt),
    idempotency: completion(scope, key, `fp-${key}`),
  });
  return { clock, store, outbox, review };
};

const completeProcessing = (current: ContractReview, now: number): ContractReview => ({
  ...current,
  processing: { state: 'completed', completedAt: now, failureReason: null, failedAt: null },
});

test('an update of an unchanged record is written with its events', async () => {
  const { clock, store, outbox, review } = await setUp();
  const next = { ...completeProcessing(review, clock.tick()), updatedAt: clock.now() };
  const event = contractReviewEvent(ids, 'contract-reviews.analysis.completed', next, clock.now());
  await store.update(next, review.updatedAt, [event]);
  expect(await store.get(review.id)).toEqual(next);
  expect(await outbox.pending(10)).toEqual([event]);
  expect(JSON.parse(event.data).contract_review.processing.state).toBe('completed');
});

test('an update of a record changed since it was read is refused, and records no events', async () => {
  const { clock, store, outbox, review } = await setUp();
  const first = { ...completeProcessing(review, clock.tick()), updatedAt: clock.now() };
  await store.update(first, review.updatedAt, []);
  const late = { ...review, updatedAt: clock.tick() };
  const event = contractReviewEvent(ids, 'contract-reviews.processing.failed', late, clock.now());
  await expect(store.update(late, review.updatedAt, [event])).rejects.toBeInstanceOf(ConcurrentChange);
  expect(await store.get(review.id)).toEqual(first);
  expect(await outbox.pending(10)).toEqual([]);
});

test('racing changes are both applied: the loser re-reads and applies its change again', async () => {
  const { clock, store, outbox, review } = await setUp();
  const ports = { contractReviews: store, clock };
  const changes = [
    changeContractReview(ports, review.id, (current, now) => ({
      review: completeProcessing(current, now),
      events: [],
    })),
    changeContractReview(ports, review.id, (current, now) => {
      const next: ContractReview = {
        ...current,
        analysis: { state: 'completed', completedAt: now, failureReason: null, failedAt: null },
      };
      return {
        review: next,
        events: [contractReviewEvent(ids, 'contract-reviews.analysis.completed', next, now)],
      };
    }),
  ];
  await Promise.all(changes);
  const final = await store.get(review.id);
  expect(final?.processing.state).toBe('completed');
  expect(final?.analysis?.state).toBe('completed');
  expect((await outbox.pending(10)).map((e) => e.type)).toEqual(['contract-reviews.analysis.completed']);
});

test('a change with nothing to do writes nothing', async () => {
  const { clock, store, outbox, review } = await setUp();
  const unchanged = await changeContractReview({ contractReviews: store, clock }, review.id, () => null);
  expect(unchanged).toEqual(review);
  expect(await store.get(review.id)).toEqual(review);
  expect(await outbox.pending(10)).toEqual([]);
});

test('a change of an unknown review is not_found', async () => {
  const { clock, store } = await setUp();
  await expect(
    changeContractReview({ contractReviews: store, clock }, 'crv_nothere', () => null),
  ).rejects.toMatchObject({ code: 'not_found' });
});
