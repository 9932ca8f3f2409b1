// The production upload quota per integration (issue 26 item 4, README "Rate limits"): 30 at once, then
// 429 rate_limited with Retry-After, counted per integration and only in production, before the
// request is read (so a refused upload records nothing). With the local stack's limits on (its default).
import { type Answer, bearer, call, exchange, expectRateLimited } from '../support/api-client';
import type { RunningStack } from '../support/local-stack';
import { useSharedStack } from '../support/shared-stacks';
import { createTenant } from '../support/tenants';

let stack: RunningStack;

useSharedStack((started) => {
  stack = started;
});

/** An upload without its headers: refused 400 after the quota is taken, so it costs no rendering. */
const bareUpload = (base: string, token: string, path = '/v1/contract-reviews') =>
  call(`${base}${path}`, { method: 'POST', headers: bearer(token) });

test('production: 30 uploads per integration, then 429 rate_limited; the sandbox and other integrations are unaffected', async () => {
  const flooder = await createTenant(stack, 'uploads');
  const bystander = await createTenant(stack, 'calm');
  const token = await exchange(stack.production, flooder.keys.production);
  const answers: Answer[] = [];
  for (let i = 0; i < 30; i++) answers.push(await bareUpload(stack.production, token));
  expect(answers.map((a) => a.body?.error?.code)).toEqual(Array(30).fill('idempotency_key_required'));

  for (const path of ['/v1/contract-reviews', '/v1/contract-reviews/crv_unknown/versions']) {
    const over = await bareUpload(stack.production, token, path);
    expectRateLimited(over);
    expect(over.body?.error?.message).toMatch(/Too many uploads/);
  }
  // Reads are not uploads.
  expect((await call(`${stack.production}/v1/contract-reviews`, { headers: bearer(token) })).status).toBe(
    200,
  );

  const sandbox = await exchange(stack.sandbox, flooder.keys.sandbox);
  expect((await bareUpload(stack.sandbox, sandbox)).body?.error?.code).toBe('idempotency_key_required');
  const calm = await exchange(stack.production, bystander.keys.production);
  expect((await bareUpload(stack.production, calm)).body?.error?.code).toBe('idempotency_key_required');
});
