import { DynamoDbRateLimiter } from '../../lambdas/adapters/dynamodb/rate-limiter';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { SECOND, TestClock } from '../support/fixtures';

const db = useTestDynamoDb();

const setUp = async () => {
  const tableName = await db.freshTable();
  const clock = new TestClock();
  return { clock, limiter: new DynamoDbRateLimiter(db.doc, tableName, clock) };
};

const takeMany = async (
  limiter: DynamoDbRateLimiter,
  count: number,
  bucket: string,
  rate: number,
  burst: number,
) => {
  const results = [];
  for (let i = 0; i < count; i++) results.push(await limiter.take(bucket, rate, burst));
  return results;
};

describe('take', () => {
  it('allows a burst, then refuses with the seconds until the next token', async () => {
    const { limiter } = await setUp();

    const results = await takeMany(limiter, 11, 'int_1', 5, 10);

    expect(results.slice(0, 10)).toEqual(Array(10).fill({ allowed: true }));
    expect(results[10]).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('rounds Retry-After up to whole seconds for a slow refill', async () => {
    const { limiter } = await setUp();
    // 10 per minute: one token every 6 seconds.
    await takeMany(limiter, 10, 'key_1', 10 / 60, 10);

    await expect(limiter.take('key_1', 10 / 60, 10)).resolves.toEqual({
      allowed: false,
      retryAfterSeconds: 6,
    });
  });

  it('refills at the rate as time passes', async () => {
    const { limiter, clock } = await setUp();
    await takeMany(limiter, 4, 'int_1', 2, 4);
    await expect(limiter.take('int_1', 2, 4)).resolves.toMatchObject({ allowed: false });

    clock.advance(SECOND);

    const results = await takeMany(limiter, 3, 'int_1', 2, 4);
    expect(results.map((r) => r.allowed)).toEqual([true, true, false]);
  });

  it('is full again after a quiet spell, never holding more than the burst', async () => {
    const { limiter, clock } = await setUp();
    await takeMany(limiter, 3, 'int_1', 1, 3);

    clock.advance(3600 * SECOND);

    const results = await takeMany(limiter, 4, 'int_1', 1, 3);
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
  });

  it('admits exactly the burst when requests race', async () => {
    const { limiter } = await setUp();

    const results = await Promise.all(Array.from({ length: 20 }, () => limiter.take('int_1', 1, 8)));

    expect(results.filter((r) => r.allowed)).toHaveLength(8);
    for (const refused of results.filter((r) => !r.allowed)) {
      expect(refused).toEqual({ allowed: false, retryAfterSeconds: 1 });
    }
  });

  it('keeps buckets apart', async () => {
    const { limiter } = await setUp();
    await takeMany(limiter, 2, 'int_1', 1, 2);

    await expect(limiter.take('int_2', 1, 2)).resolves.toEqual({ allowed: true });
    await expect(limiter.take('int_1', 1, 2)).resolves.toMatchObject({ allowed: false });
  });
});
