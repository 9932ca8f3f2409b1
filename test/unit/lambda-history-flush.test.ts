// A deployed endpoint's handler (hosts/aws/lambda.ts) writes the call's request history before it returns,
// since a Lambda is frozen once it has: in process, with the real recorder over a store that keeps what it
// is given, and an endpoint that accepts a caller as the core's auth does.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { systemClock } from '../../lambdas/adapters/system-clock';
import { endpoint, ok } from '../../lambdas/api/http/endpoint';
import type { ApiRequestStore, Ports } from '../../lambdas/core/ports';
import type { ApiRequestRecord } from '../../lambdas/core/request-history/model';
import { BatchingRecorder } from '../../lambdas/core/request-history/recorder';
import type { Services } from '../../lambdas/core/services';
import type { Settings } from '../../lambdas/core/settings';
import { endpointHandler } from '../../lambdas/hosts/aws/lambda';

const scope = { organisationId: 'org_lambda', integrationId: 'int_lambda', environment: 'sandbox' as const };

/** Accepts the caller of `Bearer good`, as `authenticate` would, and refuses no one. */
const echo = endpoint(async (request) => {
  if (request.authorization === 'Bearer good') request.accept(scope);
  return ok({ ok: true });
});

const event = (authorization: string): APIGatewayProxyEventV2 => ({
  version: '2.0',
  routeKey: 'GET /v1/clients',
  rawPath: '/v1/clients',
  rawQueryString: 'limit=1',
  headers: { authorization },
  isBase64Encoded: false,
  requestContext: {
    accountId: '123456789012',
    apiId: 'api',
    domainName: 'api.example.com',
    domainPrefix: 'api',
    http: {
      method: 'GET',
      path: '/v1/clients',
      protocol: 'HTTP/1.1',
      sourceIp: '203.0.113.9',
      userAgent: 'test',
    },
    requestId: 'request',
    routeKey: 'GET /v1/clients',
    stage: '$default',
    time: '21/Nov/2026:09:30:00 +0000',
    timeEpoch: 1_763_717_400_000,
  },
});

const servicesOver = (store: Pick<ApiRequestStore, 'write'>): Services => ({
  // Only what an endpoint's wrapper uses of the ports.
  ports: { clock: systemClock(), apiRequestRecorder: new BatchingRecorder(store) } as unknown as Ports,
  settings: { environment: 'sandbox' } as Settings,
});

test('the record of an accepted call is written before the handler returns', async () => {
  const written: ApiRequestRecord[] = [];
  const services = servicesOver({
    write: async (records) => {
      // A write that takes a few turns, as a call over the network does.
      await new Promise((resolve) => setImmediate(resolve));
      written.push(...records);
    },
  });
  const result = await endpointHandler(echo, async () => services)(event('Bearer good'));
  expect(result.statusCode).toBe(200);
  expect(written).toEqual([
    expect.objectContaining({
      id: result.headers?.['Service-Request-Id'],
      method: 'GET',
      path: '/v1/clients',
      status: 200,
      environment: 'sandbox',
      integrationId: 'int_lambda',
    }),
  ]);
});

test('a call without an accepted caller writes nothing', async () => {
  const written: ApiRequestRecord[] = [];
  const services = servicesOver({ write: async (records) => void written.push(...records) });
  const result = await endpointHandler(echo, async () => services)(event('Bearer refused'));
  expect(result.statusCode).toBe(200);
  expect(written).toEqual([]);
});

test('a write that does not end delays the answer by the wait at most, and never fails it', async () => {
  let started = 0;
  const services = servicesOver({
    write: () => {
      started += 1;
      return new Promise<void>(() => {});
    },
  });
  const result = await endpointHandler(echo, async () => services, 10)(event('Bearer good'));
  expect({ status: result.statusCode, started }).toEqual({ status: 200, started: 1 });
});
