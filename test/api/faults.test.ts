// Requests meeting work in flight or a dependency that is down, over HTTP against the local stack.
import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { requestFingerprint } from '../../lambdas/api/http/receive-upload';
import {
  bearer,
  call,
  contentDigest,
  contractParts,
  exchange,
  multipart,
  upload,
} from '../support/api-client';
import { eventually, isEmpty } from '../support/eventually';
import { type Bootstrap, devBootstrap, type RunningStack, useLocalStack } from '../support/local-stack';
import { contractPdf, notAPdf } from '../support/pdfs';
import { portsOf } from '../support/tenants';

let stack: RunningStack;
let token: string;
let bootstrap: Bootstrap;

useLocalStack(
  (started) => {
    stack = started;
  },
  { env: { RATE_LIMITS: 'off' } },
);

beforeAll(async () => {
  bootstrap = await devBootstrap(stack);
  token = await exchange(stack.production, bootstrap.keys.production);
}, 120_000);

test('a key whose first request is still being processed: 409 idempotency_key_in_use, then it proceeds', async () => {
  const key = randomUUID();
  const { body, contentType } = multipart(
    contractParts(await contractPdf(1), { external_reference: `busy-${key}`, product: 'contract_viewer' }),
  );
  const headers = {
    ...bearer(token),
    'content-type': contentType,
    'idempotency-key': key,
    'content-digest': contentDigest(body),
  };
  // The same request, already claimed by another host that has not finished it.
  const ports = (await portsOf(stack)).production;
  const scope = {
    organisationId: bootstrap.organisation_id,
    integrationId: bootstrap.integration_id,
    environment: 'production' as const,
  };
  const fingerprint = requestFingerprint(
    'POST',
    '/v1/contract-reviews',
    createHash('sha256').update(body).digest(),
  );
  expect(await ports.idempotency.claim(scope, key, fingerprint)).toEqual({ kind: 'claimed' });

  const busy = await call(`${stack.production}/v1/contract-reviews`, { method: 'POST', headers, body });
  expect({ status: busy.status, code: busy.body.error.code }).toEqual({
    status: 409,
    code: 'idempotency_key_in_use',
  });

  await ports.idempotency.release(scope, key, fingerprint);
  expect(
    (await call(`${stack.production}/v1/contract-reviews`, { method: 'POST', headers, body })).status,
  ).toBe(202);
});

test('a refused upload leaves nothing in the blob store, wherever it was refused; an accepted one keeps its PDF', async () => {
  const blobFiles = async () =>
    (await readdir(path.join(stack.dataDir, 'blobs'), { recursive: true, withFileTypes: true })).filter(
      (entry) => entry.isFile(),
    ).length;
  const url = `${stack.production}/v1/contract-reviews`;
  const pdf = await contractPdf(1);
  const request = (fields: Record<string, unknown> = {}) => ({
    external_reference: `blob-${randomUUID()}`,
    product: 'contract_viewer',
    ...fields,
  });
  // Earlier accepted contracts are still being rendered into the store: count once they are all done.
  const { runs } = (await portsOf(stack)).production;
  await eventually(() => runs.unfinished(100), isEmpty, { what: 'no run unfinished' });
  const before = await blobFiles();
  const refused = [
    await upload(url, token, contractParts(pdf, request()), {
      digest: contentDigest(Buffer.from('other bytes')),
    }),
    await upload(url, token, [...contractParts(pdf, request()), { name: 'extra', content: 'x' }]),
    await upload(url, token, contractParts(pdf, request({ product: 'nope' }))),
    await upload(url, token, contractParts(notAPdf(), request())),
    await upload(url, token, contractParts(pdf, request({ clients: ['cli_nobody123'] }))),
  ];
  expect(refused.map((answer) => answer.body.error.code)).toEqual([
    'content_digest_mismatch',
    'multipart_invalid',
    'product_invalid',
    'file_rejected',
    'client_unknown',
  ]);
  expect(await blobFiles()).toBe(before);
  expect((await upload(url, token, contractParts(pdf, request()))).status).toBe(202);
  expect(await blobFiles()).toBeGreaterThan(before);
});

test('storage down: 503 service_unavailable with Retry-After, never a stack trace', async () => {
  const fresh = await exchange(stack.production, (await devBootstrap(stack)).keys.production);
  execFileSync('pkill', ['-KILL', '-f', `${stack.dataDir}/dynamodb`]);
  const answer = await call(`${stack.production}/v1/contract-reviews`, { headers: bearer(fresh) });
  expect({ status: answer.status, code: answer.body?.error?.code }).toEqual({
    status: 503,
    code: 'service_unavailable',
  });
  expect(answer.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
  expect(answer.headers.get('service-request-id')).toMatch(/^rqs_/);
  expect(answer.text).not.toMatch(/ECONNREFUSED|at \w+ \(/);
});
