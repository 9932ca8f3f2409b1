// A restart of the local stack keeps every record, key, token and idempotent answer, and a run waiting
// for the lawyer waits on.
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bearer, call, contentDigest, contractParts, exchange, multipart } from '../support/api-client';
import {
  devBootstrap,
  makeDataDir,
  ops,
  type RunningStack,
  removeDataDir,
  startStack,
} from '../support/local-stack';
import { contractPdf } from '../support/pdfs';
import { isPublished, publication, waitForReview } from '../support/pipeline';
import { portsOf } from '../support/tenants';

let dataDir: string;
let stack: RunningStack | undefined;

beforeAll(async () => {
  dataDir = await makeDataDir();
});

afterAll(async () => {
  await stack?.stop();
  await removeDataDir(dataDir);
});

// Two starts of the whole stack and a run through the pipeline: minutes on a loaded machine.
test('records, keys, tokens, idempotent answers and a run waiting for the lawyer survive a stop and start on the same DATA_DIR', async () => {
  stack = await startStack({ dataDir, env: { RATE_LIMITS: 'off' } });
  const { portBase } = stack;
  const keys = (await devBootstrap(stack)).keys;
  const token = await exchange(stack.production, keys.production);
  const headersOf = (extra: Record<string, string>) => ({ ...bearer(token), ...extra });

  const { body, contentType } = multipart(
    contractParts(await contractPdf(2), {
      external_reference: 'kept',
      product: 'legal_information',
      review: 'lawyer',
    }),
    'restart-boundary',
  );
  const uploadHeaders = headersOf({
    'content-type': contentType,
    'idempotency-key': randomUUID(),
    'content-digest': contentDigest(body),
  });
  const created = await call(`${stack.production}/v1/contract-reviews`, {
    method: 'POST',
    headers: uploadHeaders,
    body,
  });
  expect(created.status).toBe(202);
  const session = await call(`${stack.production}/v1/clients/onboardings/sessions`, {
    method: 'POST',
    headers: headersOf({ 'content-type': 'application/json' }),
    body: JSON.stringify({ reference: 'kept-signup' }),
  });
  const buyers = path.join(dataDir, 'buyers.json');
  await writeFile(
    buyers,
    JSON.stringify([{ first_name: 'Rae', last_name: 'Kept', email: 'rae@example.com' }]),
  );
  expect((await ops(stack, 'submit-onboarding', session.body.id, '--buyers', buyers)).code).toBe(0);

  // Once its pipeline has done all it does without a lawyer, the contract changes no more by itself.
  await waitForReview(stack.production, token, created.body.id, (r) => r.lawyer_review.state === 'requested');
  const reads = [
    `${stack.production}/v1/contract-reviews/${created.body.id}`,
    `${stack.production}/v1/contract-reviews`,
    `${stack.production}/v1/clients/onboardings/${session.body.id}`,
    `${stack.production}/v1/clients`,
  ];
  const before = await Promise.all(reads.map((url) => call(url, { headers: bearer(token) })));

  expect(await stack.stop()).toBe(0);
  stack = await startStack({ dataDir, portBase, env: { RATE_LIMITS: 'off' } });

  const after = await Promise.all(reads.map((url) => call(url, { headers: bearer(token) })));
  expect(after.map((a) => a.status)).toEqual([200, 200, 200, 200]);
  expect(after.map((a) => a.body)).toEqual(before.map((b) => b.body));
  expect(
    (await call(`${stack.production}/v1/token`, { method: 'POST', headers: bearer(keys.production) })).status,
  ).toBe(200);
  const replay = await call(`${stack.production}/v1/contract-reviews`, {
    method: 'POST',
    headers: uploadHeaders,
    body,
  });
  expect(replay.status).toBe(202);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.text).toBe(created.text);

  // The contract run waited for the lawyer across the stop, on the same task token (re-driven, it waits
  // again on the token made from its name): publish-review resumes it, and it publishes the review.
  const id = created.body.id as string;
  const stored = await (await portsOf(stack)).production.contractReviews.get(id);
  expect(stored?.lawyerReview?.waitToken).toBe(`local-wait/production/${id}/v1/contract/AwaitLawyerReview`);
  const review = path.join(dataDir, 'review.md');
  await writeFile(review, 'Reviewed across a restart.');
  expect((await ops(stack, 'publish-review', id, '--text', review)).code).toBe(0);
  const done = await waitForReview(stack.production, token, id, isPublished('review'));
  const page = await fetch(publication(done, 'review')?.url as string);
  expect(await page.text()).toContain('Reviewed across a restart.');
}, 600_000);
