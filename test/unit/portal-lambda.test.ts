// unit -> the portal's backend behind the one Lambda adapter (lambdas/hosts/aws/portal-services.ts
// `portalLambda`), given an app that echoes what it was handed: method, path, query, headers with the
// cookies joined, and the body (text or base64) reach it as a Request; its cookies come back apart and a
// binary answer as base64; a body over the portal's limit is refused before the app is built.
import { describe, expect, test } from '@jest/globals';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { portalLambda } from '../../lambdas/hosts/aws/portal-services';
import { MAX_BODY_BYTES, type PortalApp } from '../../lambdas/portal/http';
import { apiGatewayEvent, type EventOverrides } from '../support/api-gateway-event';

const event = (overrides: EventOverrides): APIGatewayProxyEventV2 =>
  apiGatewayEvent({
    rawPath: '/api/sandbox/api-keys',
    rawQueryString: 'limit=2&starting_after=key_1',
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': 'csrf' },
    cookies: ['__Host-portal_session=s', 'other=o'],
    ...overrides,
  });

interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: string;
}

const seen: Seen[] = [];
let builds = 0;
const echo = async (): Promise<PortalApp> => {
  builds += 1;
  return {
    fetch: async (request) => {
      const url = new URL(request.url);
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        headers[name] = value;
      });
      seen.push({
        method: request.method,
        path: url.pathname,
        query: url.searchParams,
        headers,
        body: await request.text(),
      });
      const bytes = url.pathname === '/api/bytes';
      const answer = new Headers({
        'Content-Type': bytes ? 'application/octet-stream' : 'application/json',
      });
      answer.append('Set-Cookie', 'a=1; HttpOnly');
      answer.append('Set-Cookie', 'b=2; HttpOnly');
      return new Response(bytes ? new Uint8Array([0, 255]) : JSON.stringify({ ok: true }), {
        status: 201,
        headers: answer,
      });
    },
  };
};

describe('portalLambda', () => {
  test('hands the app the request and returns its answer, cookies apart', async () => {
    const handler = portalLambda(echo);
    const result = await handler(
      event({ body: Buffer.from('{"name":"é"}').toString('base64'), isBase64Encoded: true }),
    );
    expect(result).toMatchObject({
      statusCode: 201,
      cookies: ['a=1; HttpOnly', 'b=2; HttpOnly'],
      isBase64Encoded: false,
    });
    expect(result.body).toBe('{"ok":true}');
    const request = seen.at(-1);
    expect(request).toMatchObject({
      method: 'POST',
      path: '/api/sandbox/api-keys',
      body: '{"name":"é"}',
      headers: {
        'content-type': 'application/json',
        'x-csrf-token': 'csrf',
        cookie: '__Host-portal_session=s; other=o',
      },
    });
    expect([...(request?.query.entries() ?? [])]).toEqual([
      ['limit', '2'],
      ['starting_after', 'key_1'],
    ]);
  });

  test('returns bytes as base64', async () => {
    const result = await portalLambda(echo)(event({ method: 'GET', rawPath: '/api/bytes' }));
    expect(result).toMatchObject({ isBase64Encoded: true, body: Buffer.from([0, 255]).toString('base64') });
  });

  test('refuses a body over the limit without building the app', async () => {
    const before = builds;
    const result = await portalLambda(echo)(event({ body: 'x'.repeat(MAX_BODY_BYTES + 1) }));
    expect(result.statusCode).toBe(413);
    expect(JSON.parse(result.body as string)).toMatchObject({ error: { code: 'payload_too_large' } });
    expect(builds).toBe(before);
  });
});
