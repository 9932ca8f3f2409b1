// decisions.md §4 rate limits, with the local stack's limits on (its default) and their refills slowed
// (RATE_REFILL_SCALE) so that bursts are counted exactly.

import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb';
import { keys } from '../../lambdas/adapters/dynamodb/keys';
import { getItem } from '../../lambdas/adapters/dynamodb/table';
import { localTableName } from '../../lambdas/adapters/dynamodb/table-schema';
import { PORT_OFFSETS } from '../../local/config';
import {
  type Answer,
  bearer,
  call,
  exchange,
  expectRateLimited,
  sendUntilLimited,
} from '../support/api-client';
import { eventually } from '../support/eventually';
import { devBootstrap, type RunningStack, useLocalStack } from '../support/local-stack';
import { createTenant } from '../support/tenants';

let stack: RunningStack;

/**
 * The stack's refills are this much slower (RATE_REFILL_SCALE), its bursts as decisions.md §4 has them:
 * no token comes back while a test sends, so a burst is counted exactly, and a refill is awaited for.
 */
const SCALE = 10_000;

useLocalStack(
  (started) => {
    stack = started;
  },
  { env: { RATE_REFILL_SCALE: String(SCALE) } },
);

/** Two processes' readings of one wall clock may differ by this much; not a speed allowance. */
const SKEW_US = 5_000;
/** Epoch microseconds, read as the stack's clock reads them (lambdas/adapters/system-clock.ts). */
const nowUs = () => Math.floor((performance.timeOrigin + performance.now()) * 1000);

const retryAfterSeconds = (answer: Answer): number => Number(answer.headers.get('retry-after'));

test('POST /v1/token: 10 per key at once, then 429 with Retry-After until the next of 10 a minute; another key is unaffected', async () => {
  const keys = (await devBootstrap(stack)).keys;
  const sent = nowUs();
  const { answers } = await sendUntilLimited(() =>
    call(`${stack.production}/v1/token`, { method: 'POST', headers: bearer(keys.production) }),
  );
  const answered = nowUs();
  expect(answers.map((a) => a.status)).toEqual([...Array(10).fill(200), 429]);
  const refused = answers.at(-1) as Answer;
  expectRateLimited(refused);
  // The next token comes one interval (6 s, here × SCALE) after the first take: what Retry-After says,
  // rounded up to a second, less the time the sending took.
  const intervalS = (60 / 10) * SCALE;
  expect(retryAfterSeconds(refused)).toBeLessThanOrEqual(intervalS);
  expect(retryAfterSeconds(refused)).toBeGreaterThanOrEqual(intervalS - (answered - sent) / 1e6);
  const other = await createTenant(stack, 'rate');
  expect(
    (await call(`${stack.production}/v1/token`, { method: 'POST', headers: bearer(other.keys.production) }))
      .status,
  ).toBe(200);
});

/**
 * The integration's bucket as the limiter stores it (GCRA, lambdas/adapters/dynamodb/rate-limiter.ts): its
 * theoretical arrival time `tat`, which each admitted request moves on by one interval; a request is
 * admitted only while the debt after it is at most the burst: `tat` before it <= now + (burst - 1) intervals.
 */
const storedTat = async (environment: 'production' | 'sandbox', integrationId: string): Promise<number> => {
  const dynamo = createDocumentClient(`http://127.0.0.1:${stack.portBase + PORT_OFFSETS.dynamoDb}`);
  const item = await getItem(dynamo, localTableName(environment), keys.rateBucket(`int#${integrationId}`));
  dynamo.destroy();
  if (typeof item?.tat !== 'number') throw new Error(`no rate bucket for ${integrationId}`);
  return item.tat;
};

/** Sets the bucket's `tat`, as the limiter would have left it after earlier takes. */
const setTat = async (environment: 'production' | 'sandbox', integrationId: string, tat: number) => {
  const dynamo = createDocumentClient(`http://127.0.0.1:${stack.portBase + PORT_OFFSETS.dynamoDb}`);
  await dynamo.send(
    new UpdateCommand({
      TableName: localTableName(environment),
      Key: keys.rateBucket(`int#${integrationId}`),
      UpdateExpression: 'SET tat = :tat',
      ExpressionAttributeValues: { ':tat': tat },
    }),
  );
  dynamo.destroy();
};

/** Sends `count` requests at once; their answers, and the clock just before the first and after the last. */
const volley = async (count: number, send: () => Promise<Answer>) => {
  const sent = nowUs();
  const answers = await Promise.all(Array.from({ length: count }, send));
  const answered = nowUs();
  const limited = answers.filter((a) => a.status === 429);
  for (const answer of limited) expectRateLimited(answer);
  return {
    sent,
    answered,
    answers,
    ok: answers.filter((a) => a.status === 200).length,
    limited: limited.length,
  };
};

/** decisions.md §4: requests a second per integration, and bursts of twice that. */
test.each([
  ['production', 100],
  ['sandbox', 25],
] as const)(
  '%s: %i requests a second per integration with bursts of twice that, exactly; a refused one told when the next comes back, and it does; another integration is unaffected',
  async (environment, rate) => {
    const burst = 2 * rate;
    const intervalUs = (1e6 / rate) * SCALE;
    const base = stack[environment];
    const flooder = await createTenant(stack, 'flood');
    const bystander = await createTenant(stack, 'calm');
    const token = await exchange(base, flooder.keys[environment]);
    const calmToken = await exchange(base, bystander.keys[environment]);
    const list = () => call(`${base}/v1/contract-reviews`, { headers: bearer(token) });

    // The first request makes the bucket: one interval of debt from the moment it was taken.
    const first = await volley(1, list);
    expect(first.ok).toBe(1);
    const started = await storedTat(environment, flooder.integrationId);
    expect(started - intervalUs).toBeGreaterThanOrEqual(first.sent - SKEW_US);
    expect(started - intervalUs).toBeLessThanOrEqual(first.answered + SKEW_US);

    // A flood of twice the burst at once: exactly the rest of the burst is admitted, the others refused,
    // and each admitted request moved the debt on by exactly one interval.
    const flood = await volley(2 * burst, list);
    expect({ ok: flood.ok, limited: flood.limited }).toEqual({ ok: burst - 1, limited: burst + 1 });
    const full = await storedTat(environment, flooder.integrationId);
    expect(full).toBe(started + (burst - 1) * intervalUs);

    // A refused request is told when the next one comes back: once the debt is down to burst - 1
    // intervals, rounded up to a second.
    const refillAt = full - (burst - 1) * intervalUs;
    const refused = await volley(1, list);
    expect(refused.ok).toBe(0);
    expect(retryAfterSeconds(refused.answers[0] as Answer)).toBeGreaterThanOrEqual(
      Math.ceil((refillAt - refused.answered - SKEW_US) / 1e6),
    );
    expect(retryAfterSeconds(refused.answers[0] as Answer)).toBeLessThanOrEqual(
      Math.ceil((refillAt - refused.sent + SKEW_US) / 1e6),
    );

    // And it does come back on the stack's clock: with the debt set to come due 1.5 s from now (as if
    // most of the interval had passed), a request is refused until then, admitted after, and then only one.
    const dueAt = nowUs() + 1_500_000;
    await setTat(environment, flooder.integrationId, dueAt + (burst - 1) * intervalUs);
    let lastRefused = 0;
    const refilled = await eventually(
      async () => {
        const probe = await volley(1, list);
        if (probe.ok === 0) lastRefused = probe.sent;
        return probe;
      },
      (probe) => probe.ok === 1,
      { what: 'a request admitted after the refill' },
    );
    expect(lastRefused).toBeGreaterThan(0);
    expect(lastRefused).toBeLessThanOrEqual(dueAt + SKEW_US);
    expect(refilled.answered).toBeGreaterThanOrEqual(dueAt - SKEW_US);
    expect(await storedTat(environment, flooder.integrationId)).toBe(dueAt + burst * intervalUs);
    expect((await volley(1, list)).ok).toBe(0);

    expect((await call(`${base}/v1/contract-reviews`, { headers: bearer(calmToken) })).status).toBe(200);
  },
);
