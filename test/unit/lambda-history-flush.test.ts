// A deployed endpoint's handler (hosts/aws/lambda.ts) without the after-response extension (outside
// Lambda, or when it could not register) writes the call's request history before it returns, since a
// Lambda is frozen once it has: in process, with the real recorder over a store that keeps what it is
// given, and an endpoint that accepts a caller as the core's auth does. With the extension:
// lambda-after-response.test.ts.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { systemClock } from '../../lambdas/adapters/system-clock';
import { endpoint, ok } from '../../lambdas/api/http/endpoint';
import type { ApiRequestStore, Ports } from '../../lambdas/core/ports';
import type { ApiRequestRecord } from '../../lambdas/core/request-history/model';
import { BatchingRecorder } from '../../lambdas/core/request-history/recorder';
import type { Services } from '../../lambdas/core/services';
import type { Settings } from '../../lambdas/core/settings';
import { registerAfterResponse } from '../../lambdas/hosts/aws/after-response';
import { endpointHandler } from '../../lambdas/hosts/aws/lambda';
import { eventually } from '../support/eventually';

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
      id: result.headers?.['service-request-id'],
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
  const result = await endpointHandler(echo, async () => services, { flushWaitMs: 10 })(event('Bearer good'));
  expect({ status: result.statusCode, started }).toEqual({ status: 200, started: 1 });
});

/**
 * Lambda's Extensions API as the after-response extension uses it: registration, and `event/next`
 * answered with an INVOKE when the test invokes; each ask notes what `snapshot` says at that moment.
 */
const extensionsApi = async (snapshot: () => number, { refuse = false } = {}) => {
  const asks: number[] = [];
  const waiting: ServerResponse[] = [];
  const server = createServer((request, response) => {
    if (request.method === 'POST' && request.url === '/2020-01-01/extension/register') {
      if (refuse) return void response.writeHead(403).end('{}');
      response.writeHead(200, { 'Lambda-Extension-Identifier': 'ext-1', 'Content-Type': 'application/json' });
      return void response.end('{"functionName":"f"}');
    }
    if (
      request.url === '/2020-01-01/extension/event/next' &&
      request.headers['lambda-extension-identifier'] === 'ext-1'
    ) {
      asks.push(snapshot());
      return void waiting.push(response);
    }
    response.writeHead(400).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    runtimeApi: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    asks,
    invoke: (requestId: string) =>
      waiting
        .shift()
        ?.end(JSON.stringify({ eventType: 'INVOKE', requestId, deadlineMs: Date.now() + 29_000 })),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
};

describe('with the after-response extension', () => {
  test('the answer goes before the record is written; the instance is let go once it is', async () => {
    const written: ApiRequestRecord[] = [];
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const services = servicesOver({
      write: async (records) => {
        await released;
        written.push(...records);
      },
    });
    const api = await extensionsApi(() => written.length);
    try {
      const afterResponse = await registerAfterResponse({ runtimeApi: api.runtimeApi, stopped: () => {} });
      expect(afterResponse).not.toBeNull();
      // Its first ask ends the instance's init.
      await eventually(
        async () => api.asks.length,
        (n) => n === 1,
        { what: 'the init ask' },
      );
      api.invoke('invocation-1');
      const handler = endpointHandler(echo, async () => services, { afterResponse });
      const result = await handler(event('Bearer good'), { awsRequestId: 'invocation-1' });
      expect({ status: result.statusCode, written: written.length }).toEqual({ status: 200, written: 0 });
      release();
      await eventually(
        async () => api.asks.length,
        (n) => n === 2,
        { what: 'the ask after the write' },
      );
      // At each ask, what was written: nothing at init, the call's record when it let the instance go.
      expect(api.asks).toEqual([0, 1]);
      expect(written[0]).toMatchObject({ id: result.headers?.['service-request-id'], status: 200 });
    } finally {
      api.close();
    }
  });

  test('an invocation with nothing to write is handed over too, and a write that does not end holds the instance for the wait only', async () => {
    let writes = 0;
    const services = servicesOver({
      write: () => {
        writes += 1;
        return new Promise<void>(() => {});
      },
    });
    const api = await extensionsApi(() => writes);
    try {
      const afterResponse = await registerAfterResponse({
        runtimeApi: api.runtimeApi,
        waitMs: 50,
        stopped: () => {},
      });
      const handler = endpointHandler(echo, async () => services, { afterResponse });
      await eventually(
        async () => api.asks.length,
        (n) => n === 1,
        { what: 'the init ask' },
      );
      api.invoke('refused');
      expect((await handler(event('Bearer refused'), { awsRequestId: 'refused' })).statusCode).toBe(200);
      await eventually(
        async () => api.asks.length,
        (n) => n === 2,
        { what: 'the ask after a call without a record' },
      );
      api.invoke('stuck');
      expect((await handler(event('Bearer good'), { awsRequestId: 'stuck' })).statusCode).toBe(200);
      await eventually(
        async () => api.asks.length,
        (n) => n === 3,
        { what: 'the ask after the wait' },
      );
      expect(api.asks).toEqual([0, 0, 1]);
    } finally {
      api.close();
    }
  });

  test('outside Lambda, or refused by the Extensions API, there is none: the handler writes before it answers', async () => {
    await expect(registerAfterResponse({ runtimeApi: undefined })).resolves.toBeNull();
    const api = await extensionsApi(() => 0, { refuse: true });
    try {
      await expect(registerAfterResponse({ runtimeApi: api.runtimeApi })).resolves.toBeNull();
      expect(api.asks).toEqual([]);
    } finally {
      api.close();
    }
  });
});
