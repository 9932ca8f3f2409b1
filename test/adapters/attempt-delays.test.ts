// adapters -> growing delays between attempts (DynamoDbAttemptDelays) in a table of DynamoDB Local, under
// a test clock: each attempt waits the delay the one before earned, attempts made at once are counted
// one by one, a success forgets them, and so does a quiet day.
import { describe, expect, test } from '@jest/globals';
import { DynamoDbAttemptDelays } from '../../lambdas/adapters/dynamodb/attempt-delays';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { SECOND, TestClock } from '../support/fixtures';

const db = useTestDynamoDb();

const setUp = async () => {
  const clock = new TestClock();
  return { clock, delays: new DynamoDbAttemptDelays(db.doc, await db.freshTable(), clock) };
};

/** Two attempts at once, then ten seconds after each further one. */
const twoThenTenSeconds = (counted: number) => (counted < 2 ? 0 : 10 * SECOND);

describe('attempt delays', () => {
  test('each attempt waits the delay earned by the attempts before it; a refused one is not counted', async () => {
    const { clock, delays } = await setUp();

    const first = await delays.attempt('k', twoThenTenSeconds);
    const second = await delays.attempt('k', twoThenTenSeconds);
    const early = await delays.attempt('k', twoThenTenSeconds);
    clock.advance(4 * SECOND);
    const stillEarly = await delays.attempt('k', twoThenTenSeconds);
    clock.advance(6 * SECOND);
    const third = await delays.attempt('k', twoThenTenSeconds);

    expect([first, second, third]).toEqual([{ allowed: true }, { allowed: true }, { allowed: true }]);
    expect(early).toEqual({ allowed: false, retryAfterSeconds: 10 });
    expect(stillEarly).toEqual({ allowed: false, retryAfterSeconds: 6 });
    await expect(delays.attempt('another key', twoThenTenSeconds)).resolves.toEqual({ allowed: true });
  });

  test('of eight attempts at once after the free ones, exactly one is counted', async () => {
    const { delays } = await setUp();
    await delays.attempt('k', twoThenTenSeconds);

    const results = await Promise.all(
      Array.from({ length: 8 }, () => delays.attempt('k', twoThenTenSeconds)),
    );

    expect(results.filter((result) => result.allowed)).toHaveLength(1);
  });

  test('forgetting, or a quiet day, starts the count again', async () => {
    const { clock, delays } = await setUp();
    for (const key of ['forgotten', 'quiet'])
      for (let i = 0; i < 2; i++) await delays.attempt(key, twoThenTenSeconds);

    await delays.forget('forgotten');
    await expect(delays.attempt('forgotten', twoThenTenSeconds)).resolves.toEqual({ allowed: true });
    await expect(delays.attempt('quiet', twoThenTenSeconds)).resolves.toMatchObject({ allowed: false });
    clock.advance(24 * 3600 * SECOND + 10 * SECOND);
    // Two at once again, as for a new key.
    await expect(delays.attempt('quiet', twoThenTenSeconds)).resolves.toEqual({ allowed: true });
    await expect(delays.attempt('quiet', twoThenTenSeconds)).resolves.toEqual({ allowed: true });
  });
});
