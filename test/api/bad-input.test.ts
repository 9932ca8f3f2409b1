// Malformed input that once reached a 500, over HTTP against the local stack: each is answered by its own
// 4xx in the service's shape (JSON error body, `Service-Request-Id`), and the stack carries on.
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import {
  type Answer,
  bearer,
  call,
  contentDigest,
  contractParts,
  exchange,
  expectError,
  multipart,
} from '../support/api-client';
import { eventually } from '../support/eventually';
import { frameRequest, newBrowser } from '../support/frame-client';
import { devBootstrap, type RunningStack } from '../support/local-stack';
import { contractPdf } from '../support/pdfs';
import { parseRaw, rawExchange } from '../support/raw-http';
import { useSharedStack } from '../support/shared-stacks';

let stack: RunningStack;
let token: string;

useSharedStack(
  (started) => {
    stack = started;
  },
  { env: { RATE_LIMITS: 'off' } },
);

beforeAll(async () => {
  const bootstrap = await devBootstrap(stack);
  token = await exchange(stack.production, bootstrap.keys.production);
}, 120_000);

const get = (path: string): Promise<Answer> => call(`${stack.production}${path}`, { headers: bearer(token) });

/** The stack still answers an ordinary request. */
const expectStillAnswering = async (): Promise<void> => {
  const answer = await get('/v1/contract-reviews?limit=1');
  expect(answer.status).toBe(200);
};

describe('malformed percent-encoding in a path id', () => {
  test.each(['%zz', '%', '%c0%af', '%ff%fe', 'crv_%E0%A4%A'])(
    'GET of a read with %s: 404 not_found',
    async (id) => {
      for (const path of [
        `/v1/clients/onboardings/${id}`,
        `/v1/clients/${id}`,
        `/v1/contract-reviews/${id}`,
      ]) {
        expectError(await get(path), 404, 'not_found');
      }
    },
  );

  test('on any method: a new version to %zz is 404 not_found', async () => {
    const answer = await call(`${stack.production}/v1/contract-reviews/%zz/versions`, {
      method: 'POST',
      headers: bearer(token),
    });
    expectError(answer, 404, 'not_found');
    await expectStillAnswering();
  });
});

describe('ids and cursors longer than the store takes', () => {
  const long = 'A'.repeat(5_000);

  test.each([
    `/v1/clients/onboardings/crv_${long}`,
    `/v1/clients/onboardings/onb_${long}`,
    `/v1/clients/cli_${long}`,
    `/v1/contract-reviews/crv_${long}`,
  ])('a read of an overlong id: 404 not_found (%#)', async (path) => {
    expectError(await get(path), 404, 'not_found');
  });

  test('an overlong or malformed starting_after: 400 starting_after_invalid', async () => {
    for (const path of [
      `/v1/contract-reviews?starting_after=${'x'.repeat(3_000)}`,
      `/v1/contract-reviews?starting_after=crv_${'A'.repeat(3_000)}`,
      `/v1/clients?starting_after=cli_${'A'.repeat(3_000)}`,
      '/v1/clients?starting_after=crv_notaclient',
    ]) {
      expectError(await get(path), 400, 'starting_after_invalid');
    }
    await expectStillAnswering();
  });

  test('an overlong filter: 400 filter_invalid', async () => {
    expectError(await get(`/v1/clients?onboarding_id=onb_${long}`), 400, 'filter_invalid');
    expectError(
      await get(`/v1/contract-reviews?external_reference=${'r'.repeat(201)}`),
      400,
      'filter_invalid',
    );
  });
});

describe('JSON nested deeper than anything the service reads', () => {
  const nested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  test('a form draft nested 5,000 deep (under 64 KiB): 400 request_invalid, and the draft still saves', async () => {
    const session = await call(`${stack.production}/v1/clients/onboardings/sessions`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify({ reference: `deep-${randomUUID()}` }),
    });
    // As the frame's page calls it: same-origin, with the browser's binding (given by the form's GET).
    const browser = newBrowser();
    const sessionToken = session.body.session_token;
    const form = await frameRequest(`${stack.frame.production}/api/form`, 'GET', {
      token: sessionToken,
      browser,
    });
    expect(form.status).toBe(200);
    const draft = (body: string) =>
      frameRequest(`${stack.frame.production}/api/draft`, 'PUT', { token: sessionToken, body, browser });
    const deep = `{"answers":{"buyers":${nested(5_000)}}}`;
    expect(deep.length).toBeLessThan(64 * 1024);
    const refused = await draft(deep);
    expectError(refused, 400, 'request_invalid');
    expect(refused.body.error.message).toMatch(/nests arrays and objects more than 32 deep/);
    expect((await draft('{"answers":{"buyers":[{"first_name":"Ada"}]}}')).status).toBe(204);
  });

  test('a session request and an upload request nested 5,000 deep: 400 request_invalid', async () => {
    const session = await call(`${stack.production}/v1/clients/onboardings/sessions`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: `{"reference":${nested(5_000)}}`,
    });
    expectError(session, 400, 'request_invalid');
    const { body, contentType } = multipart([
      { name: 'request', contentType: 'application/json', content: `{"clients":${nested(5_000)}}` },
      { name: 'file', filename: 'c.pdf', contentType: 'application/pdf', content: await contractPdf(1) },
    ]);
    const upload = await call(`${stack.production}/v1/contract-reviews`, {
      method: 'POST',
      headers: {
        ...bearer(token),
        'content-type': contentType,
        'idempotency-key': randomUUID(),
        'content-digest': contentDigest(body),
      },
      body,
    });
    expectError(upload, 400, 'request_invalid');
    await expectStillAnswering();
  });
});

describe('a multipart part without a name', () => {
  test('400 multipart_invalid, saying which part is wrong', async () => {
    const pdf = await contractPdf(1);
    const boundary = `----bad-${randomUUID()}`;
    const [request] = contractParts(pdf, {
      external_reference: `nameless-${randomUUID()}`,
      product: 'contract_viewer',
    });
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="request"\r\n\r\n`),
      Buffer.from(request?.content ?? ''),
      Buffer.from(
        `\r\n--${boundary}\r\nContent-Disposition: form-data\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      Buffer.from(pdf),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const answer = await call(`${stack.production}/v1/contract-reviews`, {
      method: 'POST',
      headers: {
        ...bearer(token),
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'idempotency-key': randomUUID(),
        'content-digest': contentDigest(body),
      },
      body,
    });
    expectError(answer, 400, 'multipart_invalid');
    expect(answer.body.error.message).toMatch(/A part has no name/);
    await expectStillAnswering();
  });
});

describe('/onboarding.js', () => {
  test.each(['POST', 'PUT', 'DELETE', 'PATCH'])(
    '%s: 405 method_not_allowed in the API shape, with Allow',
    async (method) => {
      const answer = await call(`${stack.production}/onboarding.js`, {
        method,
        body: method === 'DELETE' ? undefined : 'x',
      });
      expectError(answer, 405, 'method_not_allowed');
      expect(answer.headers.get('allow')).toBe('GET, HEAD');
    },
  );
});

describe('faults of HTTP itself, on the API and frame addresses', () => {
  test('oversized headers: 431 in the service shape', async () => {
    for (const base of [stack.production, stack.frame.sandbox]) {
      const raw = await rawExchange(
        base,
        `GET /v1/clients HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expect(parseRaw(raw)).toEqual({
        status: 431,
        requestId: expect.stringMatching(/^rqs_/),
        contentType: 'application/json; charset=utf-8',
        code: 'request_invalid',
      });
    }
  });

  test.each([
    ['a chunk size that is not hex', 400, 'zz'],
    ['chunk extensions over 16 KiB', 413, `5;x=${'a'.repeat(20_000)}`],
  ])('broken framing (%s): %i in the service shape', async (_, status, chunkHead) => {
    const raw = await rawExchange(
      stack.sandbox,
      `POST /v1/token HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${chunkHead}\r\nhello\r\n0\r\n\r\n`,
    );
    expect(parseRaw(raw)).toMatchObject({
      status,
      requestId: expect.stringMatching(/^rqs_/),
      code: 'request_invalid',
    });
  });

  test('an Expect other than 100-continue: 417 in the service shape', async () => {
    const raw = await rawExchange(
      stack.production,
      'GET /v1/clients HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\nConnection: close\r\n\r\n',
    );
    expect(parseRaw(raw)).toMatchObject({
      status: 417,
      requestId: expect.stringMatching(/^rqs_/),
      code: 'request_invalid',
    });
    await expectStillAnswering();
  });
});

describe('a client that goes away mid-upload', () => {
  test('is logged at info level as gone, never as a dependency unavailable, and the stack carries on', async () => {
    const { body, contentType } = multipart(
      contractParts(await contractPdf(3), {
        external_reference: `gone-${randomUUID()}`,
        product: 'contract_viewer',
      }),
    );
    const head = [
      'POST /v1/contract-reviews HTTP/1.1',
      'Host: x',
      `Authorization: Bearer ${token}`,
      `Content-Type: ${contentType}`,
      `Content-Length: ${body.length}`,
      `Idempotency-Key: ${randomUUID()}`,
      `Content-Digest: ${contentDigest(body)}`,
    ].join('\r\n');
    const before = stack.outputMark();
    await new Promise<void>((resolve, reject) => {
      const { hostname, port } = new URL(stack.production);
      const socket = connect(Number(port), hostname, () => {
        // Half the body, then the connection drops.
        socket.write(`${head}\r\n\r\n`);
        socket.write(body.subarray(0, Math.floor(body.length / 2)), () => socket.destroy());
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    // The stack logs the request (as gone, or as a fault) once it has noticed; until then it answers others.
    const logged = await eventually(
      async () => {
        await expectStillAnswering();
        return stack.outputSince(before);
      },
      (text) => /client gone|"level":"ERROR"/.test(text),
      { what: 'a log line for the request whose client went away' },
    );
    expect(logged).not.toContain('dependency unavailable');
    expect(logged).not.toContain('"level":"ERROR"');
    const line = logged.split('\n').find((text) => text.includes('client gone')) ?? '';
    expect(JSON.parse(line)).toMatchObject({
      level: 'INFO',
      service: 'contract-service',
      environment: 'production',
      service_request_id: expect.stringMatching(/^rqs_/),
      method: 'POST',
      path: '/v1/contract-reviews',
    });
  });
});

describe('a body refused before it is read whole', () => {
  test('over 10 MB on an ordinary endpoint: 413 payload_too_large arrives, never taken for a client gone', async () => {
    const before = stack.outputMark();
    const answer = await call(`${stack.production}/v1/clients/onboardings/sessions`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: `{"x":"${'a'.repeat(11 * 1024 * 1024)}"}`,
    });
    expectError(answer, 413, 'payload_too_large');
    await expectStillAnswering();
    expect(stack.outputSince(before)).not.toContain('client gone');
  });
});

describe("the stack's log", () => {
  test('every call logs one request line, a refused or unknown one too, without its query', async () => {
    const before = stack.outputMark();
    const calls = [
      await get('/v1/contract-reviews?limit=1&starting_after=crv_secretish'),
      await get('/v1/no-such-thing?key=value'),
      await call(`${stack.production}/v1/contract-reviews`, { headers: bearer('not-a-token') }),
    ];
    const ids = calls.map((answer) => answer.headers.get('service-request-id'));
    const linesOf = (id: string | null) =>
      stack
        .outputSince(before)
        .split('\n')
        .filter(
          (line) => line.includes(`"service_request_id":"${id}"`) && line.includes('"message":"request"'),
        )
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    const found = await eventually(
      async () => ids.map(linesOf),
      (each) => each.every((lines) => lines.length >= 1),
      { what: 'a request line for each call' },
    );
    for (const lines of found) expect(lines).toHaveLength(1);
    const lines = found.flat();
    expect(
      lines.map(({ method, path, status, environment }) => ({ method, path, status, environment })),
    ).toEqual([
      { method: 'GET', path: '/v1/contract-reviews', status: 400, environment: 'production' },
      { method: 'GET', path: '/v1/no-such-thing', status: 404, environment: 'production' },
      { method: 'GET', path: '/v1/contract-reviews', status: 401, environment: 'production' },
    ]);
    for (const line of lines) expect(line.duration_ms).toEqual(expect.any(Number));
    expect(lines.map((line) => JSON.stringify(line)).join('\n')).not.toMatch(
      /secretish|key=value|not-a-token/,
    );
  });
});
