// The hosted pages of each environment on the local stack (PORT_BASE+4 production, +5 sandbox).
import { withdrawPublication } from '../../lambdas/core/publications';
import type { RunningStack } from '../support/local-stack';
import { useSharedStack } from '../support/shared-stacks';
import { portsOf } from '../support/tenants';

let stack: RunningStack;

useSharedStack((started) => {
  stack = started;
});

test('each environment serves its own publications: a sandbox page is unknown to the production host', async () => {
  const slug = 'q7Xk2mP9rT4vW8yZ1aB3cD5eF6gH0jL';
  await withdrawPublication((await portsOf(stack)).sandbox.blobs, slug);

  const sandbox = await fetch(`${stack.pages.sandbox}/${slug}/`);
  expect(sandbox.status).toBe(410);
  expect(await sandbox.text()).toMatch(/withdrawn/i);
  expect(sandbox.headers.get('content-security-policy')).toMatch(/default-src 'none'/);

  const production = await fetch(`${stack.pages.production}/${slug}/`);
  expect(production.status).toBe(404);
  expect(production.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
});
