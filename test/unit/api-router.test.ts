// unit -> the `/v1` API and the frame API through the one router (lambdas/api/http/app.ts), in process with
// `app.request()`, no stack started: each route reaches its endpoint, every other method and path the
// table's fallback (404 `not_found`, 405 `method_not_allowed` with `Allow`, HEAD included), a path
// parameter that cannot be decoded is no id, an ordinary body over API Gateway's limit is 413, and every
// answer carries `Service-Request-Id`. The services reach no storage these requests need.
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/document-client';
import { API_ENDPOINTS } from '../../lambdas/api/endpoints';
import { FRAME_ENDPOINTS } from '../../lambdas/api/frame-endpoints';
import { apiApp } from '../../lambdas/api/http/app';
import { tableOnlyServices } from '../support/table-services';

const services = tableOnlyServices(createDocumentClient('http://127.0.0.1:9'), 'unused', 'sandbox', {});
const api = apiApp(API_ENDPOINTS, async () => services);
const frame = apiApp(FRAME_ENDPOINTS, async () => services);

const errorOf = async (answer: Response) => {
  expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(answer.headers.get('service-request-id')).toMatch(/^rqs_/);
  return {
    status: answer.status,
    ...((await answer.json()) as { error: { code: string; message: string } }),
  };
};

describe('the /v1 API', () => {
  test('a route reaches its endpoint: the OpenAPI document, to anyone', async () => {
    const answer = await api.request('/v1/openapi.json');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('service-request-id')).toMatch(/^rqs_/);
    expect(((await answer.json()) as { openapi: string }).openapi).toMatch(/^3\./);
  });

  test('a route that needs a credential, called without one: 401 authentication_required', async () => {
    expect(await errorOf(await api.request('/v1/clients/cli_1'))).toMatchObject({
      status: 401,
      error: { code: 'authentication_required' },
    });
  });

  test.each([
    ['DELETE', '/v1/clients', 'GET'],
    ['HEAD', '/v1/clients', 'GET'],
    ['GET', '/v1/token', 'POST'],
    ['PUT', '/v1/contract-reviews', 'POST, GET'],
    ['GET', '/v1/contract-reviews/crv_1/versions', 'POST'],
  ])('%s %s: 405 with Allow %s', async (method, path, allow) => {
    const answer = await api.request(path, { method });
    expect([answer.status, answer.headers.get('allow')]).toEqual([405, allow]);
    if (method !== 'HEAD')
      expect(await errorOf(answer)).toMatchObject({ error: { code: 'method_not_allowed' } });
  });

  test.each(['/nothing', '/v1/clients/a/b', '/v1/clients/%zz', '/v1/clients/%c0%af'])(
    'GET %s: 404 not_found',
    async (path) => {
      expect(await errorOf(await api.request(path))).toMatchObject({
        status: 404,
        error: { code: 'not_found', message: `There is nothing at GET ${path}. The API lives under /v1.` },
      });
    },
  );

  test('a GET is answered without asking for its body (the Node adapter would build a whole Request for it)', async () => {
    const request = new Request('http://localhost/v1/clients/cli_1');
    const asked: string[] = [];
    const watched = new Proxy(request, {
      get: (target, name) => {
        if (name === 'body' || name === 'bodyUsed') asked.push(name);
        const value = Reflect.get(target, name, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    expect(await errorOf(await api.fetch(watched))).toMatchObject({ status: 401 });
    expect(asked).toEqual([]);
  });

  test('an ordinary body over API Gateway’s 10 MB: 413 payload_too_large', async () => {
    const answer = await api.request('/v1/clients/onboardings/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(10 * 1024 * 1024 + 1),
    });
    expect(await errorOf(answer)).toMatchObject({ status: 413, error: { code: 'payload_too_large' } });
  });
});

describe('the frame API', () => {
  test('a route reaches its endpoint: refused from no allowed origin', async () => {
    expect(await errorOf(await frame.request('/api/form'))).toMatchObject({
      status: 403,
      error: { code: 'origin_not_allowed' },
    });
  });

  test('another method of a frame path: 405 with Allow', async () => {
    const answer = await frame.request('/api/draft', { method: 'POST' });
    expect([answer.status, answer.headers.get('allow')]).toEqual([405, 'PUT']);
  });

  test('a /v1 path is not the frame API’s', async () => {
    expect(await errorOf(await frame.request('/v1/clients'))).toMatchObject({
      status: 404,
      error: { code: 'not_found' },
    });
  });
});
