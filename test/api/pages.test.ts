// The hosted pages of each environment on the local stack (PORT_BASE+4 production, +5 sandbox).
import { randomUUID } from 'node:crypto';
import { withdrawPublication } from '../../lambdas/core/publications';
import { contractParts, exchange, upload } from '../support/api-client';
import type { RunningStack } from '../support/local-stack';
import { contractPdf } from '../support/pdfs';
import { isPublished, publication, waitForReview } from '../support/pipeline';
import { useSharedStack } from '../support/shared-stacks';
import { createTenant, portsOf } from '../support/tenants';

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

test("a published page's header names the organisation that sent the contract, its name escaped", async () => {
  const name = 'Harbour & Sons <Conveyancing>';
  const tenant = await createTenant(stack, name);
  const token = await exchange(stack.production, tenant.keys.production);
  const sent = await upload(
    `${stack.production}/v1/contract-reviews`,
    token,
    contractParts(await contractPdf(1), {
      external_reference: `sender-${randomUUID()}`,
      product: 'contract_viewer',
    }),
  );
  expect(sent.status).toBe(202);
  const live = await waitForReview(stack.production, token, sent.body.id, isPublished('contract_viewer'));

  const page = await (await fetch(publication(live, 'contract_viewer')?.url as string)).text();
  const header = page.slice(page.indexOf('<header'), page.indexOf('</header>'));
  expect(header).toContain('<p class="sender">From Harbour &amp; Sons &lt;Conveyancing&gt;</p>');
}, 120_000);
