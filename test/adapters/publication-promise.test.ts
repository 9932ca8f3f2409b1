// adapters -> the 20-minute promise of a contract viewer (lambdas/core/contracts/publication-promise.ts)
// over the recorded runs and reviews in DynamoDB Local: which unfinished contract runs broke it.
import { DynamoDbContractReviewStore } from '../../lambdas/adapters/dynamodb/contract-review-store';
import { DynamoDbIdempotencyStore } from '../../lambdas/adapters/dynamodb/idempotency-store';
import { DynamoDbRunStore } from '../../lambdas/adapters/dynamodb/run-store';
import {
  brokenPublicationPromises,
  PUBLICATION_PROMISE,
} from '../../lambdas/core/contracts/publication-promise';
import type { ContractReview, Publication } from '../../lambdas/core/model';
import { SECOND } from '../../lambdas/core/time';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { completion, contractReview, contractVersion, id, scopeIn, TestClock } from '../support/fixtures';

const db = useTestDynamoDb();

const viewer = (state: Publication['state']): Publication[] => [
  { channel: 'contract_viewer', state, slug: id('s'), url: null, publishedAt: null },
  { channel: 'review', state: 'pending', slug: id('s'), url: null, publishedAt: null },
];

test('a run whose viewer is still pending past 20 minutes broke it; published, failed, superseded or younger ones did not', async () => {
  const tableName = await db.freshTable();
  const clock = new TestClock();
  const store = new DynamoDbContractReviewStore(db.doc, tableName, clock, 'production');
  const idempotency = new DynamoDbIdempotencyStore(db.doc, tableName, clock);
  const runs = new DynamoDbRunStore(db.doc, tableName, clock);
  const scope = scopeIn('production');
  const key = async () => {
    const idem = id('idem-');
    await idempotency.claim(scope, idem, `fp-${idem}`);
    return completion(scope, idem, `fp-${idem}`);
  };
  /** A review sent now (its first version and run recorded with it). */
  const sent = async (publications: Publication[]): Promise<ContractReview> => {
    const review = contractReview(scope, clock.tick(), { publications });
    await store.create({
      review,
      version: contractVersion(review, 1, review.createdAt),
      idempotency: await key(),
    });
    return review;
  };

  const start = clock.now();
  const pending = await sent(viewer('pending'));
  await sent(viewer('published'));
  await sent(viewer('failed'));
  const superseded = await sent(viewer('pending'));
  // Its second version comes ten minutes later: the first's run is superseded, the second's is younger.
  clock.advance(10 * 60 * SECOND);
  const now = clock.tick();
  await store.addVersion({
    review: { ...superseded, version: 2, updatedAt: now },
    version: contractVersion(superseded, 2, now),
    basedOnVersion: 1,
    idempotency: await key(),
  });

  const recorded = await runs.unfinished(100);
  expect(recorded.filter((run) => run.kind === 'contract')).toHaveLength(5);

  // Within the promise: nothing is late.
  expect(await brokenPublicationPromises(store, recorded, start + PUBLICATION_PROMISE)).toEqual([]);
  // Past it for the first four reviews' versions (not yet for the second version).
  expect(await brokenPublicationPromises(store, recorded, start + PUBLICATION_PROMISE + 10 * SECOND)).toEqual(
    [{ kind: 'contract', environment: 'production', contractReviewId: pending.id, version: 1 }],
  );
  // And past it for the second version too.
  const later = await brokenPublicationPromises(store, recorded, now + PUBLICATION_PROMISE + SECOND);
  expect(later.map((run) => [run.contractReviewId, run.version]).sort()).toEqual(
    [
      [pending.id, 1],
      [superseded.id, 2],
    ].sort(),
  );
});
