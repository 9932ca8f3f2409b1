// The stack under a fixed-seed run of the fuzzer (test/support/fuzz.ts): a few hundred malformed requests
// to every endpoint of both API addresses, the frame API and the hosted pages; no 5xx, the service's
// shape on every API answer, and the stack still answers an ordinary request afterwards.
// `npm run fuzz` runs the same property over many more cases. On the shared stack: its requests are of a
// tenant of its own.
import { bearer, call, exchange } from '../support/api-client';
import { fuzz, fuzzTarget } from '../support/fuzz';
import type { RunningStack } from '../support/local-stack';
import { useSharedStack } from '../support/shared-stacks';
import { createTenant } from '../support/tenants';

let stack: RunningStack;

useSharedStack(
  (started) => {
    stack = started;
  },
  { env: { RATE_LIMITS: 'off' } },
);

test('400 malformed requests (seed 20261125): none answered 5xx, each API answer in the service shape', async () => {
  const figures = await fuzz(await fuzzTarget(stack), { seed: 20261125, numRuns: 400 });
  expect(figures.cases).toBe(400);
  // The run reached past the front door: refusals of several kinds, and some requests accepted.
  const statuses = Object.keys(figures.statuses).map(Number);
  expect(statuses.filter((status) => status >= 400).length).toBeGreaterThan(4);
  expect(statuses.some((status) => status < 300)).toBe(true);

  const { keys } = await createTenant(stack, 'after fuzz');
  const token = await exchange(stack.production, keys.production);
  const after = await call(`${stack.production}/v1/contract-reviews?limit=1`, { headers: bearer(token) });
  expect(after.status).toBe(200);
}, 300_000);
