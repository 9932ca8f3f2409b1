import { DynamoDbIdempotencyStore } from '../../lambdas/adapters/dynamodb/idempotency-store';
import { systemClock } from '../../lambdas/adapters/system-clock';
import {
  PUBLICATION_CHECK_LINE,
  PUBLICATION_PROMISE,
} from '../../lambdas/core/contracts/publication-promise';
import { runName, type WorkflowRun } from '../../lambdas/core/ports';
import { SECOND } from '../../lambdas/core/time';
import { redriveRuns } from '../../lambdas/workers/redrive-runs';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { completion, contractReview, contractVersion, id, scopeIn } from '../support/fixtures';
import { linesOf } from '../support/log-capture';
import { tableOnlyServices } from '../support/table-services';

const db = useTestDynamoDb();

/** The production ports over a fresh table; runs started are only noted. */
const portsOver = (tableName: string, started: WorkflowRun[]) => {
  const unused = async () => {
    throw new Error('the re-drive waits for nothing');
  };
  const workflows = {
    start: async (run: WorkflowRun) => {
      started.push(run);
    },
    completeWait: unused,
    failWait: unused,
  };
  return tableOnlyServices(db.doc, tableName, 'production', {
    workflows,
    deliveryQueue: () => ({ schedule: async () => {} }),
  }).ports;
};

/** Sends a contract accepted `acceptedAgo` µs ago, through the store as the API does: its run is recorded. */
const sender = (tableName: string, ports: ReturnType<typeof portsOver>) => {
  const idempotency = new DynamoDbIdempotencyStore(db.doc, tableName, systemClock());
  const scope = scopeIn('production');
  return async (acceptedAgo: number) => {
    const review = contractReview(scope, Date.now() * 1000 - acceptedAgo);
    const key = id('idem-');
    await idempotency.claim(scope, key, `fp-${key}`);
    await ports.contractReviews.create({
      review,
      version: contractVersion(review, 1, review.createdAt),
      idempotency: completion(scope, key, `fp-${key}`),
    });
    return review;
  };
};

test('starts every unfinished run and logs how many contract runs are past their promise', async () => {
  const tableName = await db.freshTable();
  const started: WorkflowRun[] = [];
  const ports = portsOver(tableName, started);
  const send = sender(tableName, ports);

  const quiet = await linesOf(async () => {
    await redriveRuns(ports);
  });
  expect(quiet.filter((line) => line.message === PUBLICATION_CHECK_LINE)).toEqual([
    expect.objectContaining({ level: 'INFO', late: 0 }),
  ]);

  const late = await send(PUBLICATION_PROMISE + 60 * SECOND);
  const young = await send(60 * SECOND);
  const lines = await linesOf(async () => {
    await redriveRuns(ports);
  });
  const lateRun = {
    kind: 'contract',
    environment: 'production',
    contractReviewId: late.id,
    version: 1,
  } as const;
  expect(started.map((run) => run.kind === 'contract' && run.contractReviewId).sort()).toEqual(
    [late.id, young.id].sort(),
  );
  expect(lines.filter((line) => line.message === PUBLICATION_CHECK_LINE)).toEqual([
    expect.objectContaining({ late: 1, runs: [runName(lateRun)] }),
  ]);
});

test('starts every unfinished run when there are more than a page of them: the oldest never starve the rest', async () => {
  const tableName = await db.freshTable();
  const started: WorkflowRun[] = [];
  const ports = portsOver(tableName, started);
  const send = sender(tableName, ports);
  const reviews: string[] = [];
  for (let i = 0; i < 5; i++) reviews.push((await send((5 - i) * SECOND)).id);
  await expect(redriveRuns(ports, 2)).resolves.toMatchObject({ workflows: 5 });
  expect(started.map((run) => run.kind === 'contract' && run.contractReviewId)).toEqual(reviews);
});
