// unit -> the one Lambda adapter (lambdas/hosts/aws/lambda-adapter.ts), a fetch handler behind API Gateway
// as every function of an HTTP surface runs: the event's method, public address, query, headers, cookies
// and body (text or base64) reach the handler as a Request, and its Response comes back whole, Set-Cookie
// apart; a fault is answered in the API's shape.
import { describe, expect, test } from '@jest/globals';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { systemClock } from '../../lambdas/adapters/system-clock';
import { endpoint, ok } from '../../lambdas/api/http/endpoint';
import type { Services } from '../../lambdas/core/services';
import { endpointHandler } from '../../lambdas/hosts/aws/lambda';
import { lambdaHandler } from '../../lambdas/hosts/aws/lambda-adapter';
import { apiGatewayEvent, type EventOverrides } from '../support/api-gateway-event';

const event = (overrides: EventOverrides): APIGatewayProxyEventV2 =>
  apiGatewayEvent({
    rawPath: '/mcp',
    headers: { 'content-type': 'application/json', authorization: 'Bearer abc' },
    ...overrides,
  });

/** Echoes what it was given, as JSON, with a cookie and a header of its own. */
const echo = async (request: Request): Promise<Response> => {
  const body = {
    method: request.method,
    url: request.url,
    authorization: request.headers.get('authorization'),
    cookie: request.headers.get('cookie'),
    body: request.method === 'GET' ? null : await request.text(),
  };
  const headers = new Headers({ 'content-type': 'application/json', 'www-authenticate': 'Bearer x="y"' });
  headers.append('set-cookie', 'a=1');
  headers.append('set-cookie', 'b=2');
  return new Response(JSON.stringify(body), { status: 401, headers });
};

describe('lambdaHandler', () => {
  const handler = lambdaHandler(echo, 'https://api.example.com');

  test('the request at the public origin, with its query, headers, cookies and text body', async () => {
    const result = await handler(
      event({ rawQueryString: 'a=1&b=2', cookies: ['c=3', 'd=4'], body: '{"jsonrpc":"2.0"}' }),
    );
    expect(result.statusCode).toBe(401);
    expect(JSON.parse(result.body ?? '')).toEqual({
      method: 'POST',
      url: 'https://api.example.com/mcp?a=1&b=2',
      authorization: 'Bearer abc',
      cookie: 'c=3; d=4',
      body: '{"jsonrpc":"2.0"}',
    });
    expect(result.headers).toMatchObject({
      'www-authenticate': 'Bearer x="y"',
      'content-type': 'application/json',
    });
    expect(result.headers?.['set-cookie']).toBeUndefined();
    expect(result.cookies).toEqual(['a=1', 'b=2']);
    expect(result.isBase64Encoded).toBe(false);
  });

  test('a base64 body is decoded; a GET has none', async () => {
    const posted = await handler(
      event({ body: Buffer.from('ünïcode').toString('base64'), isBase64Encoded: true }),
    );
    expect(JSON.parse(posted.body ?? '').body).toBe('ünïcode');
    const read = await handler(
      event({ method: 'GET', rawPath: '/.well-known/oauth-protected-resource/mcp' }),
    );
    expect(JSON.parse(read.body ?? '')).toMatchObject({
      method: 'GET',
      url: 'https://api.example.com/.well-known/oauth-protected-resource/mcp',
      body: null,
    });
  });

  test('a GET sent with a body reaches the handler without it', async () => {
    const read = await handler(event({ method: 'GET', body: 'ignored' }));
    expect([read.statusCode, JSON.parse(read.body ?? '').body]).toEqual([401, null]);
  });

  test('a binary answer comes back as base64', async () => {
    const bytes = lambdaHandler(
      async () => new Response(new Uint8Array([0, 255]), { headers: { 'content-type': 'image/png' } }),
    );
    expect(await bytes(event({}))).toMatchObject({
      statusCode: 200,
      isBase64Encoded: true,
      body: Buffer.from([0, 255]).toString('base64'),
    });
  });

  test('a fault is answered in the API’s shape, its details logged and not shown', async () => {
    const failing = lambdaHandler(async () => {
      throw new Error('secret detail');
    });
    const result = await failing(event({}));
    expect(result.statusCode).toBe(500);
    expect(result.headers?.['service-request-id']).toMatch(/^rqs_/);
    expect(JSON.parse(result.body ?? '')).toMatchObject({ error: { code: 'internal_error' } });
    expect(result.body).not.toContain('secret detail');
  });
});

describe('an endpoint behind the Lambda adapter (hosts/aws/lambda.ts)', () => {
  const services = {
    ports: {
      clock: systemClock(),
      apiRequestRecorder: { record: () => undefined, flush: async () => undefined },
    },
    settings: { environment: 'sandbox' },
  } as unknown as Services;
  const echoing = endpoint(async (request) =>
    ok({
      cookie: request.header('cookie') ?? null,
      id: request.pathParameters.id ?? null,
      query: request.query,
      body: request.method === 'POST' ? await request.text() : null,
    }),
  );

  test('reads the cookies API Gateway passes apart (the frame API’s binding), the path parameters, query and body', async () => {
    const handler = endpointHandler(echoing, async () => services, { flushWaitMs: 0 });
    const result = await handler(
      event({
        rawPath: '/api/draft/crv_1',
        rawQueryString: 'a=1',
        pathParameters: { id: 'crv_1' },
        cookies: ['onboarding_browser=b1', 'other=o'],
        body: Buffer.from('{"é":1}').toString('base64'),
        isBase64Encoded: true,
      }),
    );
    expect(result.statusCode).toBe(200);
    expect(result.headers?.['service-request-id']).toMatch(/^rqs_/);
    expect(JSON.parse(result.body ?? '')).toEqual({
      cookie: 'onboarding_browser=b1; other=o',
      id: 'crv_1',
      query: [['a', '1']],
      body: '{"é":1}',
    });
  });
});
