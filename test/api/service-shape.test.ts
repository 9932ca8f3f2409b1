// Every answer of the API's addresses has the service's shape (interface.md: `Service-Request-Id` on
// every response; errors as the JSON error body), whatever stage refuses the request: Node's HTTP layer
// before any handler (an HTTP/1.1 request without `Host`, CONNECT), the MCP server's token check (401 to
// any method), its Origin check, and its host's body limit. Raw bytes on a socket, on the local stack.
import { call } from '../support/api-client';
import type { RunningStack } from '../support/local-stack';
import { parseRaw, rawExchange } from '../support/raw-http';
import { useSharedStack } from '../support/shared-stacks';

let stack: RunningStack;
useSharedStack((started) => {
  stack = started;
});

const inServiceShape = (status: number, code: string) => ({
  status,
  requestId: expect.stringMatching(/^rqs_[A-Za-z0-9]{16}$/),
  contentType: expect.stringMatching(/^application\/json/),
  code,
});

describe('answers Node would make before any handler', () => {
  test('an HTTP/1.1 request without Host: 400 request_invalid, on every API and frame address', async () => {
    const bases = [stack.production, stack.sandbox, stack.frame.production, stack.frame.sandbox];
    for (const base of bases)
      for (const path of ['/v1/clients', '/mcp', '/api/form'])
        expect([base, path, parseRaw(await rawExchange(base, `GET ${path} HTTP/1.1\r\n\r\n`))]).toEqual([
          base,
          path,
          inServiceShape(400, 'request_invalid'),
        ]);
  });

  test('HTTP/1.0 needs no Host: served as ever', async () => {
    const raw = await rawExchange(stack.production, 'GET /v1/clients HTTP/1.0\r\n\r\n');
    expect(parseRaw(raw)).toEqual({ ...inServiceShape(401, 'authentication_required'), status: 401 });
  });

  test('CONNECT: 405 method_not_allowed, where Node would close without a word', async () => {
    for (const base of [stack.production, stack.frame.sandbox]) {
      const raw = await rawExchange(
        base,
        'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
      );
      expect(parseRaw(raw)).toEqual(inServiceShape(405, 'method_not_allowed'));
    }
  });
});

describe('the MCP server', () => {
  test.each(['GET', 'PUT', 'POST', 'DELETE', 'SOURCE', 'COPY'])(
    '%s /mcp without a token: 401 with the challenge and a Service-Request-Id',
    async (method) => {
      const raw = await rawExchange(
        stack.production,
        `${method} /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      expect(parseRaw(raw)).toEqual(inServiceShape(401, 'authentication_required'));
      expect(raw).toMatch(/^www-authenticate: Bearer resource_metadata=/im);
    },
  );

  test('its metadata, and a refused method on it, carry a Service-Request-Id', async () => {
    const metadata = await call(`${stack.sandbox}/.well-known/oauth-protected-resource/mcp`);
    expect(metadata.status).toBe(200);
    expect(metadata.headers.get('service-request-id')).toMatch(/^rqs_/);
    const refused = await call(`${stack.sandbox}/.well-known/oauth-protected-resource/mcp`, {
      method: 'POST',
    });
    expect([refused.status, refused.body.error.code]).toEqual([405, 'method_not_allowed']);
    expect(refused.headers.get('service-request-id')).toMatch(/^rqs_/);
  });

  test('a foreign Origin: 403 with a Service-Request-Id', async () => {
    const answer = await call(`${stack.production}/mcp`, {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(answer.status).toBe(403);
    expect(answer.headers.get('service-request-id')).toMatch(/^rqs_/);
  });

  test('a body over 10 MB: 413 payload_too_large in the service shape', async () => {
    const answer = await call(`${stack.production}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(10 * 1024 * 1024 + 1),
    });
    expect([answer.status, answer.body.error.code]).toEqual([413, 'payload_too_large']);
    expect(answer.headers.get('service-request-id')).toMatch(/^rqs_/);
  });
});
