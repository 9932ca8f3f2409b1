// The typed client (clients/typescript) against a real local stack: each product sent (from a path, a
// stream and bytes) and polled, lists walked with the iterator, errors typed by `code`, the token
// renewed on a 401, idempotency keys made for every upload, a 100 MB PDF sent; and the OpenAPI document
// served on both API addresses.
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type ContractReview,
  ContractServiceClient,
  isServiceApiError,
  ServiceApiError,
} from '../../clients/typescript/src/index';
import { Webhook } from '../../clients/typescript/src/webhooks';
import { ops, type RunningStack } from '../support/local-stack';
import { contractPdf, writeLargePdf } from '../support/pdfs';
import { useSharedStack } from '../support/shared-stacks';
import { createTenant } from '../support/tenants';

let stack: RunningStack;
let keys: { sandbox: string; production: string };
let organisationId: string;
let production: ContractServiceClient;
let pdf: Uint8Array;
let pdfPath: string;
/** This file's own files (the stack's data directory is other files' too). */
let scratch: string;

useSharedStack(
  (started) => {
    stack = started;
  },
  { env: { RATE_LIMITS: 'off' } },
);

beforeAll(async () => {
  // A tenant of its own: the stack is shared with other files.
  const tenant = await createTenant(stack, 'typescript client');
  keys = tenant.keys;
  organisationId = tenant.organisationId;
  production = new ContractServiceClient({ apiKey: keys.production, baseUrl: stack.production });
  pdf = await contractPdf(2);
  scratch = await mkdtemp(path.join(tmpdir(), 'typescript-client-'));
  pdfPath = path.join(scratch, 'contract.pdf');
  await writeFile(pdfPath, pdf);
}, 120_000);

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** The error a promise rejects with (and a failure if it resolves). */
const rejection = async (promise: Promise<unknown>): Promise<ServiceApiError> => {
  try {
    await promise;
  } catch (error) {
    if (isServiceApiError(error)) return error;
    throw error;
  }
  throw new Error('the call succeeded');
};

const reference = () => `sale-${Math.random().toString(36).slice(2)}`;

const published = (review: ContractReview, channel: string) =>
  review.publications.some((p) => p.channel === channel && p.state === 'published');

describe('the OpenAPI document', () => {
  test.each(['production', 'sandbox'] as const)(
    'is served on the %s address without a credential',
    async (environment) => {
      const response = await fetch(`${stack[environment]}/v1/openapi.json`);
      expect(response.status).toBe(200);
      expect(response.headers.get('service-request-id')).toMatch(/^rqs_/);
      const document = (await response.json()) as { openapi: string; servers: Array<{ url: string }> };
      expect(document.openapi).toMatch(/^3\.1\./);
      expect(document.servers[0]?.url).toBe(stack[environment]);
    },
  );
});

describe('contracts', () => {
  test('a contract viewer from a path: 202 at once, then polled until published', async () => {
    const sent = await production.contractReviews.create(
      { external_reference: reference(), product: 'contract_viewer' },
      { path: pdfPath },
    );
    expect(sent.status).toBe(202);
    expect(sent.replayed).toBe(false);
    expect(sent.contractReview.publications).toEqual([
      { channel: 'contract_viewer', state: 'pending', url: null, published_at: null },
    ]);
    const live = await production.contractReviews.poll(
      sent.contractReview.id,
      (r) => published(r, 'contract_viewer'),
      {
        intervalMs: 200,
        timeoutMs: 90_000,
      },
    );
    expect(live.publications[0]?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.+\/$/);
  });

  test('legal information from a stream: the review is requested, published by the lawyer, then live', async () => {
    const sent = await production.contractReviews.create(
      { external_reference: reference(), product: 'legal_information', review: 'lawyer' },
      { stream: createReadStream(pdfPath), filename: 'sale.pdf' },
    );
    expect(sent.status).toBe(202);
    const id = sent.contractReview.id;
    await production.contractReviews.poll(id, (r) => r.lawyer_review?.state === 'requested', {
      intervalMs: 200,
      timeoutMs: 90_000,
    });
    expect((await ops(stack, 'publish-review', id)).code).toBe(0);
    const live = await production.contractReviews.poll(id, (r) => published(r, 'review'), {
      intervalMs: 200,
      timeoutMs: 90_000,
    });
    expect(live.lawyer_review?.state).toBe('completed');
  });

  test('legal advice from bytes for a client who signed up', async () => {
    const session = await production.onboardings.createSession(reference());
    const buyers = path.join(scratch, `buyers-${session.id}.json`);
    await writeFile(
      buyers,
      JSON.stringify([{ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' }]),
    );
    expect((await ops(stack, 'submit-onboarding', session.id, '--buyers', buyers)).code).toBe(0);
    const onboarding = await production.onboardings.get(session.id);
    const clientId = onboarding.clients[0]?.id ?? '';
    expect(await production.clients.get(clientId)).toMatchObject({
      first_name: 'Ada',
      onboarding_id: session.id,
    });
    const sent = await production.contractReviews.create(
      { external_reference: reference(), product: 'legal_advice', clients: [clientId] },
      { bytes: pdf },
    );
    expect(sent.contractReview).toMatchObject({
      product: 'legal_advice',
      clients: [clientId],
      recipient: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
      publications: [{ channel: 'review_snapshot', state: 'pending' }],
    });
    const listed = [];
    for await (const client of production.clients.list({ onboarding_id: session.id })) listed.push(client.id);
    expect(listed).toEqual([clientId]);
  });

  test('a version: byte-identical is 200 with nothing made; a stale one is 409 stale_version', async () => {
    const first = await production.contractReviews.create(
      { external_reference: reference(), product: 'contract_viewer' },
      { bytes: pdf },
    );
    const id = first.contractReview.id;
    const same = await production.contractReviews.createVersion(
      id,
      { based_on_version: 1 },
      { path: pdfPath },
    );
    expect([same.status, same.contractReview.version]).toEqual([200, 1]);
    const changed = await contractPdf(3);
    const second = await production.contractReviews.createVersion(
      id,
      { based_on_version: 1 },
      { bytes: changed },
    );
    expect([second.status, second.contractReview.version]).toEqual([202, 2]);
    const stale = await rejection(
      production.contractReviews.createVersion(id, { based_on_version: 1 }, { bytes: await contractPdf(4) }),
    );
    expect([stale.code, stale.status]).toEqual(['stale_version', 409]);
  });

  test('an idempotency key is made for every upload, and one given is replayed', async () => {
    const request = { external_reference: reference(), product: 'contract_viewer' } as const;
    const key = `key-${reference()}`;
    const first = await production.contractReviews.create(request, { bytes: pdf }, { idempotencyKey: key });
    const again = await production.contractReviews.create(request, { bytes: pdf }, { idempotencyKey: key });
    expect([again.replayed, again.contractReview.id]).toEqual([true, first.contractReview.id]);
    // Without a key given, each call is a new request: the same reference is refused as taken.
    const fresh = await rejection(production.contractReviews.create(request, { bytes: pdf }));
    expect([fresh.code, fresh.status]).toEqual(['external_reference_exists', 409]);
  });

  test('a 100 MB PDF streams from its file', async () => {
    const large = path.join(scratch, 'large.pdf');
    await writeLargePdf(large, 100 * 1024 * 1024);
    const sent = await production.contractReviews.create(
      { external_reference: reference(), product: 'contract_viewer' },
      { path: large },
    );
    expect(sent.status).toBe(202);
  }, 180_000);
});

test('lists: the iterator walks every page, newest first', async () => {
  const own = new ContractServiceClient({ apiKey: keys.production, baseUrl: stack.production });
  const all = [];
  for await (const review of own.contractReviews.list({ limit: 2 })) all.push(review.id);
  const pages = await own.contractReviews.listPage({ limit: 100 });
  expect(pages.data.length).toBeGreaterThan(4);
  expect(all).toEqual(pages.data.map((review) => review.id));
  const one = pages.data[2] as ContractReview;
  const found = [];
  for await (const review of own.contractReviews.list({ external_reference: one.external_reference }))
    found.push(review.id);
  expect(found).toEqual([one.id]);
});

describe('errors are typed by code', () => {
  test('an unknown id: 404 not_found, with the request id', async () => {
    const error = await rejection(production.contractReviews.get('crv_unknown'));
    expect(error).toBeInstanceOf(ServiceApiError);
    expect([error.code, error.status]).toEqual(['not_found', 404]);
    expect(error.requestId).toMatch(/^rqs_/);
  });

  test.each([
    [{ external_reference: 'r1' }, 'product_required'],
    [{ external_reference: 'r2', product: 'legal_information' }, 'review_required'],
    [{ external_reference: 'r3', product: 'legal_advice' }, 'recipient_required'],
  ])('a request %j: %s', async (request, code) => {
    const error = await rejection(production.contractReviews.create(request as never, { bytes: pdf }));
    expect([error.code, error.status]).toEqual([code, 400]);
  });

  test('a key sent to the other environment: wrong_environment; a bad list limit: limit_invalid', async () => {
    const crossed = new ContractServiceClient({ apiKey: keys.sandbox, baseUrl: stack.production });
    expect((await rejection(crossed.exchangeToken())).code).toBe('wrong_environment');
    expect((await rejection(production.contractReviews.listPage({ limit: 101 }))).code).toBe('limit_invalid');
  });

  test('the sandbox budget used: 403 budget_used', async () => {
    expect((await ops(stack, 'set-budget', organisationId, '0')).code).toBe(0);
    const sandbox = new ContractServiceClient({ apiKey: keys.sandbox, baseUrl: stack.sandbox });
    const error = await rejection(
      sandbox.contractReviews.create(
        { external_reference: reference(), product: 'contract_viewer' },
        { bytes: pdf },
      ),
    );
    expect([error.code, error.status]).toEqual(['budget_used', 403]);
  });
});

/** A client whose first token exchange gives a token the service refuses, as it refuses an expired one. */
const clientWithSpoiledToken = () => {
  const exchanges: number[] = [];
  const spoiling: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (!String(input).endsWith('/v1/token')) return response;
    exchanges.push(response.status);
    if (exchanges.length > 1) return response;
    const token = (await response.json()) as Record<string, unknown>;
    return new Response(JSON.stringify({ ...token, access_token: 'spoiled' }), { status: 200 });
  };
  const client = new ContractServiceClient({
    apiKey: keys.production,
    baseUrl: stack.production,
    fetch: spoiling,
  });
  return { client, exchanges };
};

test('a 401 renews the token and the call goes on', async () => {
  const { client, exchanges } = clientWithSpoiledToken();
  expect((await client.contractReviews.listPage({ limit: 1 })).data).toHaveLength(1);
  expect(exchanges).toEqual([200, 200]);
});

test('a 401 on an upload renews the token and sends the upload again, whole', async () => {
  const { client, exchanges } = clientWithSpoiledToken();
  const sent = await client.contractReviews.create(
    { external_reference: reference(), product: 'contract_viewer' },
    { stream: createReadStream(pdfPath) },
  );
  expect(sent.status).toBe(202);
  expect(exchanges).toEqual([200, 200]);
  expect((await production.contractReviews.get(sent.contractReview.id)).external_reference).toBe(
    sent.contractReview.external_reference,
  );
});

test('webhook verification is standardwebhooks, re-exported', () => {
  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  const payload = JSON.stringify({ type: 'test' });
  const now = new Date();
  const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)) };
  const signature = new Webhook(secret).sign('msg_1', now, payload);
  expect(new Webhook(secret).verify(payload, { ...headers, 'webhook-signature': signature })).toEqual({
    type: 'test',
  });
  expect(() => new Webhook(secret).verify(payload, { ...headers, 'webhook-signature': 'v1,AAAA' })).toThrow();
});
