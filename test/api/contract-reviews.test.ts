// POST/GET /v1/contract-reviews and versions, over HTTP against the real local stack.
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { MAX_UPLOAD_BODY_BYTES } from '../../lambdas/api/upload/read-upload';
import {
  type Answer,
  bearer,
  call,
  contentDigest,
  contractParts,
  exchange,
  expectError,
  multipart,
  type Part,
  upload,
} from '../support/api-client';
import { ops, type RunningStack } from '../support/local-stack';
import { contractPdf, encryptedPdf, notAPdf } from '../support/pdfs';
import { useSharedStack } from '../support/shared-stacks';
import { createTenant, submitDirectly } from '../support/tenants';

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

let stack: RunningStack;
let production: string;
let sandbox: string;
let pdf: Uint8Array;
let otherPdf: Uint8Array;
let organisationId: string;
let keys: { sandbox: string; production: string };

const viewer = (fields: Record<string, unknown> = {}) => ({
  external_reference: `ref-${randomUUID()}`,
  product: 'contract_viewer',
  ...fields,
});

useSharedStack(
  (started) => {
    stack = started;
  },
  { env: { RATE_LIMITS: 'off' } },
);

beforeAll(async () => {
  // A tenant of its own: the stack is shared with other files.
  const tenant = await createTenant(stack, 'contract reviews');
  keys = tenant.keys;
  organisationId = tenant.organisationId;
  production = await exchange(stack.production, keys.production);
  sandbox = await exchange(stack.sandbox, keys.sandbox);
  pdf = await contractPdf(2);
  otherPdf = await contractPdf(3);
}, 180_000);

const send = (request: unknown, options: Parameters<typeof upload>[3] = {}, file = pdf) =>
  upload(`${stack.production}/v1/contract-reviews`, production, contractParts(file, request), options);

const get = (id: string, token = production, base = stack.production) =>
  call(`${base}/v1/contract-reviews/${id}`, { headers: bearer(token) });

const openOnboardingWithBuyers = async (
  buyers: Array<{ first_name: string; last_name: string; email: string }>,
) => {
  const session = await call(`${stack.production}/v1/clients/onboardings/sessions`, {
    method: 'POST',
    headers: { ...bearer(production), 'content-type': 'application/json' },
    body: JSON.stringify({ reference: `signup-${randomUUID()}` }),
  });
  const file = `${stack.dataDir}/buyers-${randomUUID()}.json`;
  await import('node:fs/promises').then((fs) => fs.writeFile(file, JSON.stringify(buyers)));
  const submitted = await ops(stack, 'submit-onboarding', session.body.id, '--buyers', file);
  expect(submitted.code).toBe(0);
  return submitted.json as { id: string; clients: Array<{ id: string }> };
};

describe('sending a contract: the 202 shape of each product', () => {
  test('contract_viewer: processing running, one pending publication, no analysis or lawyer review', async () => {
    const answer = await send(viewer({ external_reference: 'viewer-1' }));
    expect(answer.status).toBe(202);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('service-request-id')).toMatch(/^rqs_[A-Za-z0-9]{16,}$/);
    expect(answer.body).toEqual({
      id: expect.stringMatching(/^crv_[A-Za-z0-9]+$/),
      external_reference: 'viewer-1',
      product: 'contract_viewer',
      version: 1,
      review: null,
      processing: { state: 'running', completed_at: null, failure_reason: null, failed_at: null },
      analysis: null,
      lawyer_review: null,
      publications: [{ channel: 'contract_viewer', state: 'pending', url: null, published_at: null }],
      clients: [],
      recipient: null,
      created_at: expect.stringMatching(TIME),
    });
    expect(Object.keys(answer.body)).toEqual([
      'id',
      'external_reference',
      'product',
      'version',
      'review',
      'processing',
      'analysis',
      'lawyer_review',
      'publications',
      'clients',
      'recipient',
      'created_at',
    ]);
    const read = await get(answer.body.id);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(answer.body);
  });

  test('legal_information: analysis pending, lawyer review not requested, contract_viewer then review', async () => {
    const answer = await send({
      external_reference: `li-${randomUUID()}`,
      product: 'legal_information',
      review: 'lawyer',
    });
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({
      product: 'legal_information',
      review: 'lawyer',
      analysis: { state: 'pending', completed_at: null, failure_reason: null, failed_at: null },
      lawyer_review: { state: 'not_requested', requested_at: null, completed_at: null },
      publications: [
        { channel: 'contract_viewer', state: 'pending', url: null, published_at: null },
        { channel: 'review', state: 'pending', url: null, published_at: null },
      ],
      recipient: null,
    });
  });

  test('legal_advice with a recipient: one review_snapshot publication, the recipient kept', async () => {
    const recipient = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
    const answer = await send({
      external_reference: `la-${randomUUID()}`,
      product: 'legal_advice',
      recipient,
    });
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({
      product: 'legal_advice',
      review: null,
      analysis: { state: 'pending' },
      lawyer_review: { state: 'not_requested' },
      publications: [{ channel: 'review_snapshot', state: 'pending', url: null, published_at: null }],
      recipient,
    });
  });

  test('legal_advice without a recipient takes the first client as recipient; clients in the order sent', async () => {
    const signup = await openOnboardingWithBuyers([
      { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' },
      { first_name: 'Alan', last_name: 'Turing', email: 'alan@example.com' },
    ]);
    const [first, second] = signup.clients.map((client) => client.id);
    const answer = await send({
      external_reference: `la-${randomUUID()}`,
      product: 'legal_advice',
      clients: [second, first],
    });
    expect(answer.status).toBe(202);
    expect(answer.body.clients).toEqual([second, first]);
    expect(answer.body.recipient).toEqual({
      first_name: 'Alan',
      last_name: 'Turing',
      email: 'alan@example.com',
    });
  });

  test('parts may come in either order, and the file part may be sent as application/octet-stream', async () => {
    const parts: Part[] = [
      { name: 'file', filename: 'c.pdf', contentType: 'application/octet-stream', content: pdf },
      { name: 'request', content: JSON.stringify(viewer()) },
    ];
    const answer = await upload(`${stack.production}/v1/contract-reviews`, production, parts);
    expect(answer.status).toBe(202);
  });
});

describe('sending a contract: every refusal, with its status and code', () => {
  const cases: Array<[string, () => Promise<Answer>, number, string]> = [
    [
      'no Authorization',
      () =>
        upload(`${stack.production}/v1/contract-reviews`, '', contractParts(pdf, viewer()), {
          headers: { authorization: '' },
        }),
      401,
      'authentication_required',
    ],
    ['no Idempotency-Key', () => send(viewer(), { idempotencyKey: null }), 400, 'idempotency_key_required'],
    [
      'an Idempotency-Key of 256 characters',
      () => send(viewer(), { idempotencyKey: 'k'.repeat(256) }),
      400,
      'idempotency_key_invalid',
    ],
    ['no Content-Digest', () => send(viewer(), { digest: null }), 400, 'content_digest_required'],
    [
      'a Content-Digest that is not a dictionary of sha-256',
      () => send(viewer(), { digest: 'sha-256=abc' }),
      400,
      'content_digest_invalid',
    ],
    [
      'a Content-Digest of 16 bytes',
      () => send(viewer(), { digest: `sha-256=:${Buffer.alloc(16).toString('base64')}:` }),
      400,
      'content_digest_invalid',
    ],
    [
      'a Content-Digest of other bytes',
      () => send(viewer(), { digest: contentDigest(Buffer.from('other')) }),
      400,
      'content_digest_mismatch',
    ],
    [
      'a body that is not multipart',
      async () => {
        const body = Buffer.from(JSON.stringify(viewer()));
        return call(`${stack.production}/v1/contract-reviews`, {
          method: 'POST',
          body,
          headers: {
            ...bearer(production),
            'content-type': 'application/json',
            'idempotency-key': randomUUID(),
            'content-digest': contentDigest(body),
          },
        });
      },
      400,
      'multipart_invalid',
    ],
    [
      'no file part',
      () =>
        upload(`${stack.production}/v1/contract-reviews`, production, [
          { name: 'request', content: JSON.stringify(viewer()) },
        ]),
      400,
      'multipart_invalid',
    ],
    [
      'an extra part',
      () =>
        upload(`${stack.production}/v1/contract-reviews`, production, [
          ...contractParts(pdf, viewer()),
          { name: 'note', content: 'hi' },
        ]),
      400,
      'multipart_invalid',
    ],
    [
      'a repeated request part',
      () =>
        upload(`${stack.production}/v1/contract-reviews`, production, [
          ...contractParts(pdf, viewer()),
          { name: 'request', content: '{}' },
        ]),
      400,
      'multipart_invalid',
    ],
    ['a request part that is not JSON', () => send('{not json'), 400, 'request_invalid'],
    ['a request part that is an array', () => send('[]'), 400, 'request_invalid'],
    ['an unknown request field', () => send(viewer({ colour: 'blue' })), 400, 'request_invalid'],
    ['no external_reference', () => send({ product: 'contract_viewer' }), 400, 'external_reference_required'],
    [
      'an external_reference of 201 characters',
      () => send(viewer({ external_reference: 'x'.repeat(201) })),
      400,
      'external_reference_invalid',
    ],
    [
      'an external_reference with a control character',
      () => send(viewer({ external_reference: 'a\u0007b' })),
      400,
      'external_reference_invalid',
    ],
    ['no product', () => send({ external_reference: 'r' }), 400, 'product_required'],
    ['an unknown product', () => send(viewer({ product: 'legal_opinion' })), 400, 'product_invalid'],
    [
      'legal_information without review',
      () => send(viewer({ product: 'legal_information' })),
      400,
      'review_required',
    ],
    [
      'an unknown review',
      () => send(viewer({ product: 'legal_information', review: 'robot' })),
      400,
      'review_invalid',
    ],
    [
      'a known review other than lawyer',
      () => send(viewer({ product: 'legal_information', review: 'ai' })),
      422,
      'review_not_available',
    ],
    ['review with another product', () => send(viewer({ review: 'lawyer' })), 400, 'review_not_applicable'],
    [
      'more than 10 clients',
      () => send(viewer({ clients: Array.from({ length: 11 }, (_, i) => `cli_${i}abc`) })),
      400,
      'clients_invalid',
    ],
    ['a client named twice', () => send(viewer({ clients: ['cli_abc', 'cli_abc'] })), 400, 'clients_invalid'],
    ['a client that is not a cli_ id', () => send(viewer({ clients: ['onb_abc'] })), 400, 'clients_invalid'],
    [
      'legal_advice with neither recipient nor client',
      () => send(viewer({ product: 'legal_advice' })),
      400,
      'recipient_required',
    ],
    [
      'a recipient without an email',
      () => send(viewer({ product: 'legal_advice', recipient: { first_name: 'A', last_name: 'B' } })),
      400,
      'recipient_invalid',
    ],
    [
      'a recipient with an empty name',
      () =>
        send(
          viewer({
            product: 'legal_advice',
            recipient: { first_name: ' ', last_name: 'B', email: 'a@b.co' },
          }),
        ),
      400,
      'recipient_invalid',
    ],
    [
      'recipient with another product',
      () => send(viewer({ recipient: { first_name: 'A', last_name: 'B', email: 'a@b.co' } })),
      400,
      'recipient_not_applicable',
    ],
    ['a file that is not a PDF', () => send(viewer(), {}, notAPdf('html')), 422, 'file_rejected'],
    ['a PDF that needs a password', () => send(viewer(), {}, encryptedPdf()), 422, 'file_rejected'],
    [
      'a well-formed client id that is no client here',
      () => send(viewer({ clients: ['cli_doesnotexist123'] })),
      422,
      'client_unknown',
    ],
  ];

  test.each(cases)('%s', async (_name, act, status, code) => {
    expectError(await act(), status, code);
  });

  test('a 401 carries WWW-Authenticate: Bearer', async () => {
    const answer = await upload(
      `${stack.production}/v1/contract-reviews`,
      'garbage',
      contractParts(pdf, viewer()),
    );
    expectError(answer, 401, 'token_invalid');
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
  });

  test('faults are answered in the fixed order: digest before multipart, fields before the file', async () => {
    expectError(
      await upload(`${stack.production}/v1/contract-reviews`, production, [{ name: 'x', content: 'y' }], {
        digest: contentDigest(Buffer.from('z')),
      }),
      400,
      'content_digest_mismatch',
    );
    expectError(
      await send({ external_reference: 'r', product: 'nope' }, {}, notAPdf()),
      400,
      'product_invalid',
    );
    expectError(
      await send(viewer({ product: 'legal_advice', review: 'lawyer' })),
      400,
      'review_not_applicable',
    );
  });

  test('an external_reference already used: 409, and the first contract is untouched', async () => {
    const reference = `dup-${randomUUID()}`;
    const first = await send(viewer({ external_reference: reference }));
    expect(first.status).toBe(202);
    expectError(
      await send(viewer({ external_reference: reference }), {}, otherPdf),
      409,
      'external_reference_exists',
    );
    const list = await call(`${stack.production}/v1/contract-reviews?external_reference=${reference}`, {
      headers: bearer(production),
    });
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([first.body.id]);
  });

  test('a client whose email cannot address advice: 422 recipient_client_unusable', async () => {
    const session = await call(`${stack.production}/v1/clients/onboardings/sessions`, {
      method: 'POST',
      headers: { ...bearer(production), 'content-type': 'application/json' },
      body: JSON.stringify({ reference: `bad-email-${randomUUID()}` }),
    });
    const submitted = await submitDirectly(stack, 'production', session.body.id, [
      { firstName: 'No', lastName: 'Email', email: 'not-an-email', mobile: null },
    ]);
    const clientId = submitted.clientIds[0] as string;
    expectError(
      await send(viewer({ product: 'legal_advice', clients: [clientId] })),
      422,
      'recipient_client_unusable',
    );
  });
});

describe('payload size', () => {
  test('a declared body over the limit is refused at once with 413, without being read', async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(`${stack.production}/v1/contract-reviews`, {
        method: 'POST',
        headers: {
          ...bearer(production),
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': String(200 * 1024 * 1024),
          'idempotency-key': randomUUID(),
          'content-digest': contentDigest(Buffer.from('x')),
        },
      });
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on('error', reject);
      request.write(Buffer.alloc(1024));
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error.code).toBe('payload_too_large');
  });

  test('a streamed body without a length is cut off with 413 once it passes the limit', async () => {
    // Chunked, written as fast as the server reads it, until its answer arrives: that answer must be the
    // 413, sent only once the limit has passed, over a connection that stays open for it to be read.
    const chunk = Buffer.alloc(1024 * 1024, 7);
    const answer = await new Promise<{ status: number; body: string; sentBefore: number }>(
      (resolve, reject) => {
        let sent = 0;
        let answered = false;
        const request = httpRequest(`${stack.production}/v1/contract-reviews`, {
          method: 'POST',
          headers: {
            ...bearer(production),
            'content-type': 'multipart/form-data; boundary=x',
            'idempotency-key': randomUUID(),
            'content-digest': contentDigest(Buffer.from('x')),
          },
        });
        request.on('response', (response) => {
          answered = true;
          const sentBefore = sent;
          request.end();
          let body = '';
          response.on('data', (part) => {
            body += part;
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body, sentBefore }));
          response.on('error', reject);
        });
        request.on('error', reject);
        const more = () => {
          while (!answered) {
            if (sent >= 2 * MAX_UPLOAD_BODY_BYTES)
              return reject(new Error(`no answer after ${sent} bytes of a body over the limit`));
            sent += chunk.length;
            if (!request.write(chunk)) return void request.once('drain', more);
          }
        };
        more();
      },
    );
    expect({ status: answer.status, code: JSON.parse(answer.body).error.code }).toEqual({
      status: 413,
      code: 'payload_too_large',
    });
    expect(answer.sentBefore).toBeGreaterThan(MAX_UPLOAD_BODY_BYTES);
    expect(
      (await call(`${stack.production}/v1/contract-reviews?limit=1`, { headers: bearer(production) })).status,
    ).toBe(200);
  });
});

describe('Idempotency-Key', () => {
  test('the same key and request replays the answer byte for byte, and does nothing twice', async () => {
    const key = randomUUID();
    const request = viewer();
    const { body, contentType } = multipart(contractParts(pdf, request), 'fixed-boundary-1');
    const headers = {
      ...bearer(production),
      'content-type': contentType,
      'idempotency-key': key,
      'content-digest': contentDigest(body),
    };
    const first = await call(`${stack.production}/v1/contract-reviews`, { method: 'POST', headers, body });
    const second = await call(`${stack.production}/v1/contract-reviews`, { method: 'POST', headers, body });
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const list = await call(
      `${stack.production}/v1/contract-reviews?external_reference=${request.external_reference}`,
      { headers: bearer(production) },
    );
    expect(list.body.data).toHaveLength(1);
  });

  test('the same key with a different request: 422 idempotency_key_reused', async () => {
    const key = randomUUID();
    expect((await send(viewer(), { idempotencyKey: key })).status).toBe(202);
    expectError(await send(viewer(), { idempotencyKey: key }), 422, 'idempotency_key_reused');
  });

  test('a request refused early keeps nothing: a corrected retry with the same key proceeds', async () => {
    const key = randomUUID();
    expectError(
      await send({ external_reference: 'r', product: 'nope' }, { idempotencyKey: key }),
      400,
      'product_invalid',
    );
    expect((await send(viewer(), { idempotencyKey: key })).status).toBe(202);
  });

  test('a refusal found once the request began to act (file_rejected) is kept and replayed', async () => {
    const key = randomUUID();
    const { body, contentType } = multipart(contractParts(notAPdf(), viewer()), 'fixed-boundary-2');
    const headers = {
      ...bearer(production),
      'content-type': contentType,
      'idempotency-key': key,
      'content-digest': contentDigest(body),
    };
    const first = await call(`${stack.production}/v1/contract-reviews`, { method: 'POST', headers, body });
    const again = await call(`${stack.production}/v1/contract-reviews`, { method: 'POST', headers, body });
    expectError(first, 422, 'file_rejected');
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  test('10 simultaneous uploads with one key make exactly one contract', async () => {
    const key = randomUUID();
    const request = viewer();
    const { body, contentType } = multipart(contractParts(pdf, request), 'fixed-boundary-3');
    const headers = {
      ...bearer(production),
      'content-type': contentType,
      'idempotency-key': key,
      'content-digest': contentDigest(body),
    };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(`${stack.production}/v1/contract-reviews`, { method: 'POST', headers, body }),
      ),
    );
    for (const answer of answers) {
      expect([202, 409]).toContain(answer.status);
      if (answer.status === 409) expect(answer.body.error.code).toBe('idempotency_key_in_use');
    }
    const made = answers.filter(
      (answer) => answer.status === 202 && answer.headers.get('idempotent-replayed') === null,
    );
    expect(made).toHaveLength(1);
    const list = await call(
      `${stack.production}/v1/contract-reviews?external_reference=${request.external_reference}`,
      { headers: bearer(production) },
    );
    expect(list.body.data).toHaveLength(1);
  });
});

describe('sandbox budget', () => {
  test('10 simultaneous sandbox uploads against a budget of 3 accept exactly 3; raising it lets more through', async () => {
    const tenant = await createTenant(stack, 'budget');
    const token = await exchange(stack.sandbox, tenant.keys.sandbox);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        upload(`${stack.sandbox}/v1/contract-reviews`, token, contractParts(pdf, viewer())),
      ),
    );
    expect(answers.filter((a) => a.status === 202)).toHaveLength(3);
    const refused = answers.filter((a) => a.status !== 202);
    expect(refused).toHaveLength(7);
    for (const answer of refused) expectError(answer, 403, 'budget_used');
    const raised = await ops(stack, 'set-budget', tenant.organisationId, '4');
    expect(raised.json).toEqual({ organisation_id: tenant.organisationId, total: 4, used: 3, remaining: 1 });
    expect((await ops(stack, 'budget', tenant.organisationId)).json).toEqual({
      organisation_id: tenant.organisationId,
      total: 4,
      used: 3,
      remaining: 1,
    });
    const created = answers.find((a) => a.status === 202) as Answer;
    const version = await upload(
      `${stack.sandbox}/v1/contract-reviews/${created.body.id}/versions`,
      token,
      contractParts(otherPdf, { based_on_version: 1 }),
    );
    expect(version.status).toBe(202);
    expectError(
      await upload(`${stack.sandbox}/v1/contract-reviews`, token, contractParts(pdf, viewer())),
      403,
      'budget_used',
    );
  });

  test('production has no budget', async () => {
    const tenant = await createTenant(stack, 'nobudget');
    const token = await exchange(stack.production, tenant.keys.production);
    for (let i = 0; i < 4; i++) {
      expect(
        (await upload(`${stack.production}/v1/contract-reviews`, token, contractParts(pdf, viewer()))).status,
      ).toBe(202);
    }
  });

  test('set-budget refuses an unknown organisation', async () => {
    const answer = await ops(stack, 'set-budget', 'org_nobody', '5');
    expect(answer.code).not.toBe(0);
    expect(answer.stderr).toMatch(/not_found/);
    expect(organisationId).toMatch(/^org_/);
    expect((await ops(stack, 'budget', 'org_nobody')).stderr).toMatch(/not_found/);
  });
});

describe('the operator tool', () => {
  test('--help prints the usage and succeeds; an unknown option is named with the usage; an unknown id is named alone', async () => {
    for (const help of [['--help'], ['help'], ['publish-review', '-h']]) {
      const answer = await ops(stack, ...help);
      expect({ help, code: answer.code }).toEqual({ help, code: 0 });
    }
    const helped = await ops(stack, '--help');
    // The usage is text on stdout, not JSON.
    expect(helped.stdout).toMatch(/^usage: npm run --silent ops -- <command>/);
    // After a command, that command's usage alone, with its continuation lines.
    const one = await ops(stack, 'listen', '--help');
    expect(one.stdout.trim().split('\n')).toEqual([
      'usage: npm run --silent ops --',
      expect.stringMatching(/^ {2}listen --environment E --forward-to URL/),
      expect.stringMatching(/^ {30,}deliver every event/),
      expect.stringMatching(/^ {30,}signing secret/),
    ]);

    const unknownOption = await ops(stack, 'withdraw', 'crv_x', '--chanel', 'review');
    expect(unknownOption.code).toBe(1);
    expect(unknownOption.stderr).toMatch(/^ops: Unknown option '--chanel'[\s\S]*\nusage: /);

    const unknownId = await ops(stack, 'publish-review', 'crv_nothing');
    expect(unknownId.code).toBe(1);
    expect(unknownId.stderr.trim()).toBe('ops: no contract review crv_nothing in either environment');
  });

  test('a --text file that is not there is named, not a raw ENOENT', async () => {
    const answer = await ops(stack, 'publish-review', 'crv_nothing', '--text', 'no-such-review.md');

    expect(answer.code).toBe(1);
    expect(answer.stderr).toMatch(/^ops: --text no-such-review\.md: there is no such file\n/);
  });
});

describe('new versions', () => {
  const versionOf = (
    id: string,
    request: unknown,
    file = otherPdf,
    token = production,
    base = stack.production,
  ) => upload(`${base}/v1/contract-reviews/${id}/versions`, token, contractParts(file, request));

  test('a changed file makes version 2 at the same id, publications pending; the same file again answers 200', async () => {
    const created = await send(viewer({ product: 'legal_information', review: 'lawyer' }));
    const next = await versionOf(created.body.id, { based_on_version: 1 });
    expect(next.status).toBe(202);
    expect(next.body).toMatchObject({
      id: created.body.id,
      version: 2,
      external_reference: created.body.external_reference,
      processing: { state: 'running' },
      analysis: { state: 'pending' },
      lawyer_review: { state: 'not_requested' },
      created_at: created.body.created_at,
    });
    expect(next.body.publications.map((p: { state: string; url: null }) => [p.state, p.url])).toEqual([
      ['pending', null],
      ['pending', null],
    ]);
    const same = await versionOf(created.body.id, { based_on_version: 2 });
    expect(same.status).toBe(200);
    expect(same.body.version).toBe(2);
    expect((await get(created.body.id)).body.version).toBe(2);
  });

  test('a poll right after a new version shows the new version', async () => {
    const created = await send(viewer());
    expect((await get(created.body.id)).body.version).toBe(1);
    expect((await versionOf(created.body.id, { based_on_version: 1 })).status).toBe(202);
    expect((await get(created.body.id)).body).toMatchObject({ version: 2, processing: { state: 'running' } });
  });

  test('a version based on an older one: 409 stale_version naming the latest', async () => {
    const created = await send(viewer());
    expect((await versionOf(created.body.id, { based_on_version: 1 })).status).toBe(202);
    const stale = await versionOf(created.body.id, { based_on_version: 1 }, await contractPdf(4));
    expectError(stale, 409, 'stale_version');
    expect(stale.body.error.message).toMatch(/2/);
  });

  test.each([
    ['no based_on_version', {}, 400, 'based_on_version_required'],
    ['based_on_version 0', { based_on_version: 0 }, 400, 'based_on_version_invalid'],
    ['based_on_version past the latest', { based_on_version: 2 }, 400, 'based_on_version_invalid'],
    ['based_on_version as a string', { based_on_version: '1' }, 400, 'based_on_version_invalid'],
    ['an unknown field', { based_on_version: 1, product: 'legal_advice' }, 400, 'request_invalid'],
    ['bad clients', { based_on_version: 1, clients: 'cli_x' }, 400, 'clients_invalid'],
    ['an unknown client', { based_on_version: 1, clients: ['cli_nobody123'] }, 422, 'client_unknown'],
  ])('%s', async (_name, request, status, code) => {
    const created = await send(viewer());
    expectError(await versionOf(created.body.id, request), status, code);
  });

  test('clients: sent replaces, omitted keeps, empty clears', async () => {
    const signup = await openOnboardingWithBuyers([
      { first_name: 'Kim', last_name: 'Lee', email: 'kim@example.com' },
      { first_name: 'Sam', last_name: 'Lee', email: 'sam@example.com' },
    ]);
    const [kim, sam] = signup.clients.map((c) => c.id) as [string, string];
    const created = await send(viewer({ clients: [kim] }));
    expect(created.body.clients).toEqual([kim]);
    const replaced = await versionOf(created.body.id, { based_on_version: 1, clients: [sam, kim] });
    expect(replaced.body.clients).toEqual([sam, kim]);
    const kept = await versionOf(created.body.id, { based_on_version: 2 }, await contractPdf(5));
    expect(kept.body.clients).toEqual([sam, kim]);
    const cleared = await versionOf(
      created.body.id,
      { based_on_version: 3, clients: [] },
      await contractPdf(6),
    );
    expect(cleared.body.clients).toEqual([]);
  });

  test('an unknown id, or one of another environment, is 404 not_found', async () => {
    expectError(await versionOf('crv_doesnotexist', { based_on_version: 1 }), 404, 'not_found');
    const created = await send(viewer());
    expectError(
      await versionOf(created.body.id, { based_on_version: 1 }, otherPdf, sandbox, stack.sandbox),
      404,
      'not_found',
    );
  });
});

describe('reads and lists', () => {
  test("GET of an unknown id, another environment's or another integration's: 404 not_found", async () => {
    const created = await send(viewer());
    expectError(await get('crv_doesnotexist'), 404, 'not_found');
    expectError(await get(created.body.id, sandbox, stack.sandbox), 404, 'not_found');
    const other = await createTenant(stack, 'reader');
    expectError(
      await get(created.body.id, await exchange(stack.production, other.keys.production)),
      404,
      'not_found',
    );
  });

  test('lists newest first, page by page with starting_after, never repeating or skipping', async () => {
    const tenant = await createTenant(stack, 'lister');
    const token = await exchange(stack.production, tenant.keys.production);
    const made: string[] = [];
    for (let i = 0; i < 5; i++)
      made.push(
        (await upload(`${stack.production}/v1/contract-reviews`, token, contractParts(pdf, viewer()))).body
          .id,
      );
    const page1 = await call(`${stack.production}/v1/contract-reviews?limit=2`, { headers: bearer(token) });
    expect(page1.status).toBe(200);
    expect(page1.body.has_more).toBe(true);
    // A contract created between pages appears on no later page.
    await upload(`${stack.production}/v1/contract-reviews`, token, contractParts(pdf, viewer()));
    const seen = page1.body.data.map((r: { id: string }) => r.id);
    let after = seen.at(-1);
    for (;;) {
      const page = await call(`${stack.production}/v1/contract-reviews?limit=2&starting_after=${after}`, {
        headers: bearer(token),
      });
      seen.push(...page.body.data.map((r: { id: string }) => r.id));
      if (!page.body.has_more) break;
      after = seen.at(-1);
    }
    expect(seen).toEqual([...made].reverse());
  });

  test.each([
    ['limit=0', 'limit_invalid'],
    ['limit=101', 'limit_invalid'],
    ['limit=ten', 'limit_invalid'],
    ['limit=1&limit=2', 'limit_invalid'],
    ['starting_after=crv_nothere', 'starting_after_invalid'],
    [`external_reference=${'x'.repeat(201)}`, 'filter_invalid'],
    ['colour=blue', 'parameter_unknown'],
  ])('GET /v1/contract-reviews?%s: 400 %s', async (query, code) => {
    expectError(
      await call(`${stack.production}/v1/contract-reviews?${query}`, { headers: bearer(production) }),
      400,
      code,
    );
  });

  test('a filter with no match answers an empty page', async () => {
    const answer = await call(
      `${stack.production}/v1/contract-reviews?external_reference=nothing-${randomUUID()}`,
      { headers: bearer(production) },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: [], has_more: false });
  });
});
