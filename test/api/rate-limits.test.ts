// decisions.md §4 rate limits, with the local stack's limits on (its default).
import { type Answer, bearer, call, exchange, expectRateLimited } from '../support/api-client';
import { ops, type RunningStack, useLocalStack } from '../support/local-stack';
import { createTenant } from '../support/tenants';

let stack: RunningStack;

useLocalStack((started) => {
  stack = started;
});

test('POST /v1/token: 10 a minute per key, then 429 with Retry-After; another key is unaffected', async () => {
  const keys = (await ops(stack, 'dev-bootstrap')).json?.keys as { production: string };
  const answers: Answer[] = [];
  for (let i = 0; i < 11; i++)
    answers.push(
      await call(`${stack.production}/v1/token`, { method: 'POST', headers: bearer(keys.production) }),
    );
  expect(answers.slice(0, 10).map((a) => a.status)).toEqual(Array(10).fill(200));
  expectRateLimited(answers[10] as Answer);
  const other = await createTenant(stack, 'rate');
  expect(
    (await call(`${stack.production}/v1/token`, { method: 'POST', headers: bearer(other.keys.production) }))
      .status,
  ).toBe(200);
});

test('sandbox: 25 requests a second per integration with bursts of 50; another integration is unaffected', async () => {
  const flooder = await createTenant(stack, 'flood');
  const bystander = await createTenant(stack, 'calm');
  const token = await exchange(stack.sandbox, flooder.keys.sandbox);
  const calmToken = await exchange(stack.sandbox, bystander.keys.sandbox);
  const answers = await Promise.all(
    Array.from({ length: 200 }, () =>
      call(`${stack.sandbox}/v1/contract-reviews`, { headers: bearer(token) }),
    ),
  );
  const ok = answers.filter((a) => a.status === 200);
  const limited = answers.filter((a) => a.status === 429);
  expect(ok.length + limited.length).toBe(200);
  expect(ok.length).toBeGreaterThanOrEqual(50);
  expect(limited.length).toBeGreaterThan(0);
  for (const answer of limited) expectRateLimited(answer);
  expect((await call(`${stack.sandbox}/v1/contract-reviews`, { headers: bearer(calmToken) })).status).toBe(
    200,
  );
});
