// The polling read memory over the real DynamoDB store: at most `maxAge` old, and forgotten on a write
// made through it.
import { DynamoDbContractReviewStore } from '../../lambdas/adapters/dynamodb/contract-review-store';
import { DynamoDbIdempotencyStore } from '../../lambdas/adapters/dynamodb/idempotency-store';
import { withRecentReads } from '../../lambdas/adapters/recent-reads';
import type { ContractReview, Scope } from '../../lambdas/core/model';
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

const setUp = async () => {
  const tableName = await db.freshTable();
  const clock = new TestClock();
  const direct = new DynamoDbContractReviewStore(db.doc, tableName, clock, 'production');
  const idempotency = new DynamoDbIdempotencyStore(db.doc, tableName, clock);
  const claimed = async (scope: Scope) => {
    const key = id('idem-');
    await idempotency.claim(scope, key, `fp-${key}`);
    return completion(scope, key, `fp-${key}`);
  };
  const nextVersion = async (review: ContractReview) => ({
    review: { ...review, version: review.version + 1, updatedAt: clock.tick() },
    version: contractVersion(review, review.version + 1, clock.now()),
    basedOnVersion: review.version,
    idempotency: await claimed(review.scope),
  });
  const { store, reads } = withRecentReads(direct, clock, { maxAge: SECOND });
  const scope = scopeIn('production');
  const review = contractReview(scope, clock.tick());
  await store.create({
    review,
    version: contractVersion(review, 1, review.createdAt),
    idempotency: await claimed(scope),
  });
  return { clock, direct, store, reads, review, nextVersion };
};

test('a change made elsewhere shows once the kept read is a second old', async () => {
  const { clock, direct, reads, review, nextVersion } = await setUp();
  expect((await reads.get(review.id))?.version).toBe(1);
  await direct.addVersion(await nextVersion(review));
  clock.advance(SECOND / 2);
  expect((await reads.get(review.id))?.version).toBe(1);
  clock.advance(SECOND / 2);
  expect((await reads.get(review.id))?.version).toBe(2);
});

test('a write through the wrapped store is read back at once', async () => {
  const { store, reads, review, nextVersion } = await setUp();
  expect((await reads.get(review.id))?.version).toBe(1);
  await store.addVersion(await nextVersion(review));
  expect((await reads.get(review.id))?.version).toBe(2);
});

test('an unknown id reads as null', async () => {
  const { reads } = await setUp();
  expect(await reads.get('crv_nothere')).toBeNull();
});
