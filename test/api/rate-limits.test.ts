// decisions.md §4 rate limits, with the local stack's limits on (its default).

import { createDocumentClient } from '../../lambdas/adapters/dynamodb';
import { keys } from '../../lambdas/adapters/dynamodb/keys';
import { getItem } from '../../lambdas/adapters/dynamodb/table';
import { localTableName } from '../../lambdas/adapters/dynamodb/table-schema';
import { PORT_OFFSETS } from '../../lambdas/hosts/local-config';
import {
  type Answer,
  bearer,
  call,
  exchange,
  expectRateLimited,
  sendUntilLimited,
} from '../support/api-client';
import { ops, type RunningStack, useLocalStack } from '../support/local-stack';
import { createTenant } from '../support/tenants';

let stack: RunningStack;

useLocalStack((started) => {
  stack = started;
});

test('POST /v1/token: 10 a minute per key, then 429 with Retry-After; another key is unaffected', async () => {
  const keys = (await ops(stack, 'dev-bootstrap')).json?.keys as { production: string };
  const { answers, elapsedMs } = await sendUntilLimited(() =>
    call(`${stack.production}/v1/token`, { method: 'POST', headers: bearer(keys.production) }),
  );
  const admitted = answers.slice(0, -1);
  expect(admitted.map((a) => a.status)).toEqual(Array(admitted.length).fill(200));
  expectRateLimited(answers.at(-1) as Answer);
  // Ten at once, then one more for each 6 s the sending itself took (a loaded machine is slow).
  expect(admitted.length).toBeGreaterThanOrEqual(10);
  expect(admitted.length).toBeLessThanOrEqual(10 + Math.ceil(elapsedMs / 6_000));
  const other = await createTenant(stack, 'rate');
  expect(
    (await call(`${stack.production}/v1/token`, { method: 'POST', headers: bearer(other.keys.production) }))
      .status,
  ).toBe(200);
});

/** decisions.md §4: the sandbox's 25 a second, one token every 40 ms, and bursts of twice the rate. */
const INTERVAL_US = 1e6 / 25;
const BURST = 50;
/** Two processes' readings of one wall clock may differ by this much; not a speed allowance. */
const SKEW_US = 5_000;
/** Epoch microseconds, read as the stack's clock reads them (lambdas/adapters/system-clock.ts). */
const nowUs = () => Math.floor((performance.timeOrigin + performance.now()) * 1000);

/**
 * The integration's bucket as the limiter stores it (GCRA, lambdas/adapters/dynamodb/rate-limiter.ts): its
 * theoretical arrival time `tat`, which each admitted request moves on by one interval and a request is
 * admitted only while the debt after it is at most the burst: `tat` before it <= now + (burst - 1) intervals.
 */
const storedTat = async (integrationId: string): Promise<number> => {
  const dynamo = createDocumentClient(`http://127.0.0.1:${stack.portBase + PORT_OFFSETS.dynamoDb}`);
  const item = await getItem(dynamo, localTableName('sandbox'), keys.rateBucket(`int#${integrationId}`));
  dynamo.destroy();
  if (typeof item?.tat !== 'number') throw new Error(`no rate bucket for ${integrationId}`);
  return item.tat;
};

/** Sends `count` requests at once; their answers, and the clock just before the first and after the last. */
const volley = async (count: number, send: () => Promise<Answer>) => {
  const sent = nowUs();
  const answers = await Promise.all(Array.from({ length: count }, send));
  return { sent, answered: nowUs(), ok: answers.filter((a) => a.status === 200).length, answers };
};

test('sandbox: 25 requests a second per integration with bursts of 50, exactly as the bucket counts; another integration is unaffected', async () => {
  const flooder = await createTenant(stack, 'flood');
  const bystander = await createTenant(stack, 'calm');
  const token = await exchange(stack.sandbox, flooder.keys.sandbox);
  const calmToken = await exchange(stack.sandbox, bystander.keys.sandbox);
  const list = () => call(`${stack.sandbox}/v1/contract-reviews`, { headers: bearer(token) });

  // The first request makes the bucket: one interval of debt from the moment it was taken.
  const first = await volley(1, list);
  expect(first.ok).toBe(1);
  let tat = await storedTat(flooder.integrationId);
  expect(tat - INTERVAL_US).toBeGreaterThanOrEqual(first.sent - SKEW_US);
  expect(tat - INTERVAL_US).toBeLessThanOrEqual(first.answered + SKEW_US);

  // Floods until one is refused (a loaded machine may answer a flood no faster than the rate refills),
  // then volleys of ten until the refill has admitted some: each checked against the stored debt before
  // and after it.
  let full = false;
  let refilled = 0;
  for (let round = 0; round < 40 && refilled === 0; round++) {
    const before = tat;
    const { sent, answered, ok, answers } = await volley(full ? 10 : 199, list);
    const limited = answers.filter((a) => a.status === 429);
    expect(ok + limited.length).toBe(answers.length);
    for (const answer of limited) expectRateLimited(answer);
    tat = await storedTat(flooder.integrationId);
    // Every admitted request moved the debt on by exactly one interval: from where it stood, or from the
    // moment of a take that found no debt left (never later than the volley's end).
    expect(tat).toBeGreaterThanOrEqual(Math.max(before, sent - SKEW_US) + ok * INTERVAL_US);
    expect(tat).toBeLessThanOrEqual(Math.max(before, answered + SKEW_US) + ok * INTERVAL_US);
    // Never more than the burst: the last admitted request left at most 50 intervals of debt.
    expect(tat - BURST * INTERVAL_US).toBeLessThanOrEqual(answered + SKEW_US);
    // Refused only when full: a refused request found more than 49 intervals of debt.
    expect(limited.length === 0 || tat - (BURST - 1) * INTERVAL_US > sent - SKEW_US).toBe(true);
    if (full) refilled += ok;
    if (limited.length > 0) full = true;
  }
  // A flood filled the bucket, and it refilled after, at the rate: the bounds above held for what it admitted.
  expect(full).toBe(true);
  expect(refilled).toBeGreaterThan(0);

  expect((await call(`${stack.sandbox}/v1/contract-reviews`, { headers: bearer(calmToken) })).status).toBe(
    200,
  );
});
