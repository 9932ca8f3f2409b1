// unit -> a fetch handler as a Lambda behind API Gateway (lambdas/hosts/aws/fetch-lambda.ts), as the MCP
// server's function runs: the event's method, public address, query, headers, cookies and body (text or
// base64) reach the handler as a Request, and its Response comes back whole, Set-Cookie apart.
import { describe, expect, test } from '@jest/globals';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { fetchLambda } from '../../lambdas/hosts/aws/fetch-lambda';

const event = (overrides: Partial<APIGatewayProxyEventV2> & { method?: string }): APIGatewayProxyEventV2 => {
  const { method = 'POST', ...rest } = overrides;
  return {
    version: '2.0',
    routeKey: 'ANY /mcp',
    rawPath: '/mcp',
    rawQueryString: '',
    headers: { 'content-type': 'application/json', authorization: 'Bearer abc' },
    requestContext: {
      accountId: '1',
      apiId: 'api',
      domainName: 'api.execute-api.eu-west-1.amazonaws.com',
      domainPrefix: 'api',
      http: { method, path: '/mcp', protocol: 'HTTP/1.1', sourceIp: '203.0.113.1', userAgent: 'agent' },
      requestId: 'r1',
      routeKey: 'ANY /mcp',
      stage: '$default',
      time: '26/Nov/2026:07:00:00 +0000',
      timeEpoch: 0,
    },
    isBase64Encoded: false,
    ...rest,
  };
};

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

describe('fetchLambda', () => {
  const handler = fetchLambda(echo, 'https://api.example.com');

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
});
