// unit -> a Node HTTP listener behind the one Lambda adapter behind CloudFront (lambdas/hosts/aws/
// listener-lambda.ts), as the identity provider's function runs: the listener sees the public host and
// https, the viewer's address CloudFront added (not what the client claimed), the cookies, the query and
// the body; each Set-Cookie comes back apart and the body whole. A listener whose build fails is answered
// 500 in the API's shape and built again on the next event.

import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { describe, expect, test } from '@jest/globals';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { listenerLambda, viewerAddress } from '../../lambdas/hosts/aws/listener-lambda';
import { apiGatewayEvent, type EventOverrides } from '../support/api-gateway-event';

const event = (overrides: EventOverrides): APIGatewayProxyEventV2 =>
  apiGatewayEvent({
    rawPath: '/token',
    rawQueryString: 'a=1&b=two',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      host: 'abc.execute-api.eu-west-1.amazonaws.com',
      'x-forwarded-for': '198.51.100.9, 203.0.113.7, 130.176.0.1',
      'x-forwarded-proto': 'https',
    },
    cookies: ['_session=one', '_interaction=two'],
    ...overrides,
  });

/** Echoes what it was given as JSON, with two cookies of its own. */
const echo: RequestListener = (request: IncomingMessage, response: ServerResponse) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    response.setHeader('Set-Cookie', ['a=1; Path=/; HttpOnly', 'b=2; Path=/auth']);
    response.setHeader('Content-Type', 'application/json');
    response.end(
      JSON.stringify({
        method: request.method,
        url: request.url,
        host: request.headers.host,
        proto: request.headers['x-forwarded-proto'],
        forwardedFor: request.headers['x-forwarded-for'],
        cookie: request.headers.cookie,
        body: Buffer.concat(chunks).toString('utf8'),
      }),
    );
  });
};

const decoded = (body: string | undefined): unknown => JSON.parse(body ?? '');

describe('listenerLambda', () => {
  test('hands the listener the public address, the viewer, the cookies, query and body, and returns its answer', async () => {
    const handler = listenerLambda(async () => echo, 'https://id.example.com');
    const result = await handler(event({ body: 'grant_type=authorization_code&code=x' }));
    expect(result.statusCode).toBe(200);
    expect(result.cookies).toEqual(['a=1; Path=/; HttpOnly', 'b=2; Path=/auth']);
    expect(result.headers?.['content-type']).toBe('application/json');
    expect(result.isBase64Encoded).toBe(false);
    expect(decoded(result.body)).toEqual({
      method: 'POST',
      url: '/token?a=1&b=two',
      host: 'id.example.com',
      proto: 'https',
      forwardedFor: '203.0.113.7',
      cookie: '_session=one; _interaction=two',
      body: 'grant_type=authorization_code&code=x',
    });
  });

  test('reads a base64 body, and sends none with a GET', async () => {
    const handler = listenerLambda(async () => echo, 'https://id.example.com');
    const posted = await handler(
      event({ body: Buffer.from('π=3').toString('base64'), isBase64Encoded: true }),
    );
    expect((decoded(posted.body) as { body: string }).body).toBe('π=3');
    const got = await handler(event({ method: 'GET', body: 'ignored' }));
    expect(decoded(got.body)).toMatchObject({ method: 'GET', body: '' });
  });

  test('builds the listener again after a failed build', async () => {
    let builds = 0;
    const handler = listenerLambda(async () => {
      builds += 1;
      if (builds === 1) throw new Error('the table is not there yet');
      return echo;
    }, 'https://id.example.com');
    const failed = await handler(event({}));
    expect(failed.statusCode).toBe(500);
    expect(JSON.parse(failed.body ?? '')).toMatchObject({ error: { code: 'internal_error' } });
    expect((await handler(event({}))).statusCode).toBe(200);
    expect(builds).toBe(2);
  });
});

describe('viewerAddress', () => {
  test('is the address CloudFront added: the one before API Gateway’s', () => {
    expect(viewerAddress('198.51.100.9, 203.0.113.7, 130.176.0.1')).toBe('203.0.113.7');
    expect(viewerAddress('203.0.113.7, 130.176.0.1')).toBe('203.0.113.7');
    expect(viewerAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(viewerAddress(undefined)).toBeUndefined();
  });
});
