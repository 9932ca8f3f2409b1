// One webhook delivery attempt against real receivers on loopback: statuses, redirects not followed, the
// time-out, the 1 KiB body limit, network errors, and the SSRF guard at delivery time (refusals that make
// no connection, and DNS pinning: the connection goes to the address that was checked).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import {
  type Resolve,
  type SendOptions,
  sendWebhook,
  webhookSender,
} from '../../lambdas/adapters/webhooks/http-sender';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  /** `http://{host}:{port}` */
  url: string;
  port: number;
  received: Received[];
  /** TCP connections accepted, requests or not. */
  connections(): number;
}

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
    ),
  );
});

const listen = async (server: Server, host: string, port: number): Promise<number> => {
  servers.push(server);
  await new Promise<void>((ready, failed) => {
    server.once('error', failed);
    server.listen(port, host, () => ready());
  });
  return (server.address() as AddressInfo).port;
};

/** A receiver that reads each request whole, records it, then lets `answer` respond. */
const startReceiver = async (
  answer: (response: ServerResponse, request: IncomingMessage) => void,
  { host = '127.0.0.1', port = 0 } = {},
): Promise<Receiver> => {
  const received: Received[] = [];
  let connections = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      answer(response, request);
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  const bound = await listen(server, host, port);
  return { url: `http://${host}:${bound}`, port: bound, received, connections: () => connections };
};

const text =
  (status: number, body: string, headers: Record<string, string> = {}) =>
  (response: ServerResponse) =>
    response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers }).end(body);

/** A port nothing listens on (free a moment ago). */
const freePort = async (): Promise<number> => {
  const server = createServer();
  const port = await listen(server, '127.0.0.1', 0);
  servers.splice(servers.indexOf(server), 1);
  await new Promise<void>((done) => server.close(() => done()));
  return port;
};

const local: SendOptions = { allowLoopbackHttp: true };
const deployed: SendOptions = { allowLoopbackHttp: false };
const message = {
  headers: { 'webhook-id': 'msg_1', 'webhook-timestamp': '1700000000', 'webhook-signature': 'v1,abc=' },
  body: JSON.stringify({ type: 'test', timestamp: '2026-01-01T00:00:00.000000Z', test: true, data: {} }),
};
const resolveTo = (...addresses: string[]) => jest.fn<Resolve>(async () => addresses);

describe('sendWebhook: answers from a loopback receiver', () => {
  test('2xx: the status and body; the request is a JSON POST carrying the headers and exact body', async () => {
    const receiver = await startReceiver(text(200, 'ok'));
    const outcome = await sendWebhook(
      {
        url: `${receiver.url}/hooks/in?tenant=7`,
        headers: { ...message.headers, 'Content-Type': 'text/plain' },
        body: message.body,
      },
      local,
    );
    expect(outcome).toEqual({ status: 200, error: null, body: 'ok', durationMs: expect.any(Number) });
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request).toMatchObject({ method: 'POST', url: '/hooks/in?tenant=7', body: message.body });
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(message.body)),
      host: `127.0.0.1:${receiver.port}`,
      'webhook-id': 'msg_1',
      'webhook-timestamp': '1700000000',
      'webhook-signature': 'v1,abc=',
    });
  });

  test('204 with no body', async () => {
    const receiver = await startReceiver((response) => response.writeHead(204).end());
    expect(await sendWebhook({ url: receiver.url, ...message }, local)).toMatchObject({
      status: 204,
      error: null,
      body: '',
    });
  });

  test('500: a status like any other, with its body', async () => {
    const receiver = await startReceiver(text(500, 'database down'));
    expect(await sendWebhook({ url: receiver.url, ...message }, local)).toMatchObject({
      status: 500,
      error: null,
      body: 'database down',
    });
  });

  test('3xx is only a status: the redirect is not followed', async () => {
    const elsewhere = await startReceiver(text(200, 'should not be reached'));
    const receiver = await startReceiver(text(302, 'moved', { location: `${elsewhere.url}/other` }));
    expect(await sendWebhook({ url: receiver.url, ...message }, local)).toMatchObject({
      status: 302,
      error: null,
      body: 'moved',
    });
    expect(receiver.received).toHaveLength(1);
    expect(elsewhere.received).toHaveLength(0);
    expect(elsewhere.connections()).toBe(0);
  });

  test('no answer in time: timed out, no status', async () => {
    const receiver = await startReceiver(() => {
      // never answers
    });
    expect(await sendWebhook({ url: receiver.url, ...message }, { ...local, timeoutMs: 250 })).toMatchObject({
      status: null,
      error: 'timed out after 0.25 s',
      body: '',
    });
    expect(receiver.received).toHaveLength(1);
  });

  test('a status came but the body stalls: the answer counts, with the body so far', async () => {
    const receiver = await startReceiver((response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('partial');
    });
    expect(await sendWebhook({ url: receiver.url, ...message }, { ...local, timeoutMs: 300 })).toMatchObject({
      status: 200,
      error: null,
      body: 'partial',
    });
  });

  test('the body is cut to its first 1 KiB', async () => {
    const receiver = await startReceiver(text(200, `${'x'.repeat(1000)}${'y'.repeat(4000)}`));
    const outcome = await sendWebhook({ url: receiver.url, ...message }, local);
    expect(outcome).toMatchObject({ status: 200, error: null });
    expect(outcome.body).toBe(`${'x'.repeat(1000)}${'y'.repeat(24)}`);
  });

  test('the 1 KiB is counted in bytes; a character cut at the limit is left out', async () => {
    const receiver = await startReceiver(text(400, `a${'é'.repeat(1000)}`));
    const outcome = await sendWebhook({ url: receiver.url, ...message }, local);
    expect(outcome).toMatchObject({ status: 400, error: null, body: `a${'é'.repeat(511)}` });
    expect(Buffer.byteLength(outcome.body)).toBe(1023);
  });

  test('an endless body: 1 KiB is read, then the connection is closed', async () => {
    let closed!: () => void;
    const hungUp = new Promise<void>((done) => {
      closed = done;
    });
    const receiver = await startReceiver((response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      // Writes until the socket's buffer is full, and again each time it drains, until the sender hangs up.
      const more = () => {
        while (!response.destroyed && response.write('z'.repeat(256)));
      };
      response.on('drain', more);
      response.on('close', () => {
        response.off('drain', more);
        closed();
      });
      more();
    });
    // The time-out is far away: only stopping at 1 KiB lets this finish.
    const outcome = await sendWebhook({ url: receiver.url, ...message }, { ...local, timeoutMs: 120_000 });
    expect(outcome).toMatchObject({ status: 200, error: null, body: 'z'.repeat(1024) });
    await hungUp;
  }, 15_000);

  test('durationMs is the time from sending to the whole answer', async () => {
    // Only `performance` is faked: the network and the sender's own time-out run on real timers, and the
    // attempt's clock moves only when this test moves it, while the receiver holds its answer.
    jest.useFakeTimers({
      doNotFake: [
        'Date',
        'hrtime',
        'nextTick',
        'queueMicrotask',
        'setImmediate',
        'clearImmediate',
        'setInterval',
        'clearInterval',
        'setTimeout',
        'clearTimeout',
      ],
    });
    try {
      const arrived = Promise.withResolvers<ServerResponse>();
      const receiver = await startReceiver((response) => arrived.resolve(response));
      const sending = sendWebhook({ url: receiver.url, ...message }, local);
      const response = await arrived.promise;
      jest.advanceTimersByTime(1_500);
      response.writeHead(200, { 'content-type': 'text/plain' }).write('o');
      jest.advanceTimersByTime(250);
      response.end('k');
      expect(await sending).toEqual({ status: 200, error: null, body: 'ok', durationMs: 1_750 });
    } finally {
      jest.useRealTimers();
    }
  });

  test('connection refused', async () => {
    const port = await freePort();
    expect(await sendWebhook({ url: `http://127.0.0.1:${port}/`, ...message }, local)).toMatchObject({
      status: null,
      error: `connection refused (127.0.0.1:${port})`,
      body: '',
    });
  });

  test('the connection closed without an answer', async () => {
    const receiver = await startReceiver((_response, request) => request.socket.destroy());
    expect(await sendWebhook({ url: receiver.url, ...message }, local)).toMatchObject({
      status: null,
      error: 'connection closed before an answer',
    });
  });

  test('a header value that cannot be sent is an error, not a throw', async () => {
    const receiver = await startReceiver(text(200, 'ok'));
    const outcome = await sendWebhook(
      { url: receiver.url, headers: { 'webhook-id': 'a\r\nb' }, body: '{}' },
      local,
    );
    expect(outcome).toMatchObject({ status: null, error: expect.stringMatching(/^could not send: /) });
    expect(receiver.connections()).toBe(0);
  });

  test('webhookSender binds the options', async () => {
    const receiver = await startReceiver(text(201, 'made'));
    const send = webhookSender(local);
    expect(await send({ url: receiver.url, ...message })).toMatchObject({
      status: 201,
      error: null,
      body: 'made',
    });
  });
});

describe('sendWebhook: resolving the host', () => {
  test('the resolver fails', async () => {
    const resolve = jest.fn<Resolve>(async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND hooks.example.com'), { code: 'ENOTFOUND' });
    });
    expect(
      await sendWebhook({ url: 'https://hooks.example.com/', ...message }, { ...deployed, resolve }),
    ).toMatchObject({
      status: null,
      error: 'could not resolve hooks.example.com: no such host',
    });
  });

  test('the resolver finds no address', async () => {
    expect(
      await sendWebhook(
        { url: 'https://hooks.example.com/', ...message },
        { ...deployed, resolve: resolveTo() },
      ),
    ).toMatchObject({ status: null, error: 'could not resolve hooks.example.com: no address' });
  });

  test('resolving counts towards the time-out', async () => {
    const resolve = jest.fn<Resolve>(() => new Promise(() => {}));
    expect(
      await sendWebhook(
        { url: 'https://hooks.example.com/', ...message },
        { ...deployed, resolve, timeoutMs: 100 },
      ),
    ).toMatchObject({ status: null, error: 'timed out after 0.1 s' });
  });
});

describe('sendWebhook: the SSRF guard refuses before connecting', () => {
  test.each([
    ['http://127.0.0.1:{port}/', 'address refused: it must use https, not http'],
    ['http://localhost:{port}/', 'address refused: it must use https, not http'],
    ['https://127.0.0.1:{port}/', 'address refused: its host 127.0.0.1 is a loopback address'],
    ['https://localhost:{port}/', 'address refused: its host localhost is a loopback name'],
  ])('loopback when the stack is not local: %s', async (template, error) => {
    const receiver = await startReceiver(text(200, 'ok'));
    const resolve = resolveTo('127.0.0.1');
    const url = template.replace('{port}', String(receiver.port));
    expect(await sendWebhook({ url, ...message }, { ...deployed, resolve })).toMatchObject({
      status: null,
      error,
    });
    expect(resolve).not.toHaveBeenCalled();
    expect(receiver.connections()).toBe(0);
  });

  test.each([
    [
      'https://10.0.0.1/hook',
      'its host 10.0.0.1 is a private address (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)',
    ],
    [
      'https://192.168.1.20:8443/hook',
      'its host 192.168.1.20 is a private address (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)',
    ],
    ['https://169.254.169.254/latest/meta-data/', 'its host 169.254.169.254 is the cloud metadata address'],
    ['https://[fd00:ec2::254]/latest/meta-data/', 'its host [fd00:ec2::254] is the cloud metadata address'],
    [
      'https://[::ffff:169.254.169.254]/',
      'its host [::ffff:a9fe:a9fe] is the IPv4-mapped form of the cloud metadata address',
    ],
    ['https://100.64.0.1/', 'its host 100.64.0.1 is a carrier-grade NAT address (100.64.0.0/10)'],
    ['https://[fd12::1]/', 'its host [fd12::1] is a unique-local address (fc00::/7)'],
  ])('an IP literal that is not public, even on the local stack: %s', async (url, reason) => {
    const resolve = resolveTo('8.8.8.8');
    expect(await sendWebhook({ url, ...message }, { ...local, resolve })).toMatchObject({
      status: null,
      error: `address refused: ${reason}`,
      body: '',
    });
    expect(resolve).not.toHaveBeenCalled();
  });

  const privateReason = 'a private address (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16)';
  test.each([
    [['10.0.0.1'], `10.0.0.1, ${privateReason}`],
    [['169.254.169.254'], '169.254.169.254, the cloud metadata address'],
    [['fd00:ec2::254'], 'fd00:ec2::254, the cloud metadata address'],
    [['::1'], '::1, a loopback address'],
    [['127.0.0.1'], '127.0.0.1, a loopback address'],
    [['::ffff:10.0.0.1'], `::ffff:10.0.0.1, the IPv4-mapped form of ${privateReason}`],
    [['93.184.216.34', '10.0.0.1'], `10.0.0.1, ${privateReason}`],
    [['2606:2800:220:1::1', 'fe80::1'], 'fe80::1, a link-local address (fe80::/10)'],
    [['not-an-address'], 'not-an-address, not an IP address'],
  ])('a name resolving to %j is refused, any address not public', async (addresses, reason) => {
    for (const policy of [deployed, local]) {
      const resolve = resolveTo(...addresses);
      expect(
        await sendWebhook({ url: 'https://hooks.example.com/in', ...message }, { ...policy, resolve }),
      ).toMatchObject({ status: null, error: `address refused: hooks.example.com resolves to ${reason}` });
      expect(resolve).toHaveBeenCalledWith('hooks.example.com');
    }
  });

  test('a name resolving to the loopback receiver is refused: only the literal loopback forms are local', async () => {
    const receiver = await startReceiver(text(200, 'ok'));
    for (const policy of [deployed, local]) {
      const outcome = await sendWebhook(
        { url: `https://hooks.example.test:${receiver.port}/`, ...message },
        { ...policy, resolve: resolveTo('127.0.0.1') },
      );
      expect(outcome).toMatchObject({
        status: null,
        error: 'address refused: hooks.example.test resolves to 127.0.0.1, a loopback address',
      });
    }
    const resolve = resolveTo('127.0.0.1');
    expect(
      await sendWebhook(
        { url: `http://localhost.test:${receiver.port}/`, ...message },
        { ...local, resolve },
      ),
    ).toMatchObject({ status: null, error: 'address refused: it must use https, not http' });
    expect(resolve).not.toHaveBeenCalled();
    expect(receiver.connections()).toBe(0);
  });

  test('on the local stack, localhost must resolve only to loopback addresses', async () => {
    const receiver = await startReceiver(text(200, 'ok'));
    const outcome = await sendWebhook(
      { url: `http://localhost:${receiver.port}/`, ...message },
      { ...local, resolve: resolveTo('127.0.0.1', '10.0.0.1') },
    );
    expect(outcome).toMatchObject({
      status: null,
      error: 'address refused: localhost resolves to 10.0.0.1, not a loopback address',
    });
    expect(receiver.connections()).toBe(0);
  });
});

describe('sendWebhook: the connection goes to the checked address (DNS pinning)', () => {
  /** Two receivers on one port: 127.0.0.1 (where the system would send `localhost`) and 127.0.0.2. */
  const twoReceivers = async () => {
    for (let tries = 0; ; tries += 1) {
      const pinned = await startReceiver(text(200, 'pinned'), { host: '127.0.0.2' });
      try {
        const usual = await startReceiver(text(200, 'usual'), { port: pinned.port });
        return { pinned, usual, port: pinned.port };
      } catch (error) {
        if (tries >= 5) throw error;
      }
    }
  };

  test('the request goes to the address the resolver gave, asked once, the Host still the name', async () => {
    const { pinned, usual, port } = await twoReceivers();
    // A rebinding resolver: the checked answer first, another one on every later question.
    let asked = 0;
    const resolve = jest.fn<Resolve>(async () => (asked++ === 0 ? ['127.0.0.2'] : ['127.0.0.1']));
    const outcome = await sendWebhook(
      { url: `http://localhost:${port}/in`, ...message },
      { ...local, resolve },
    );
    expect(outcome).toMatchObject({ status: 200, error: null, body: 'pinned' });
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(resolve).toHaveBeenCalledWith('localhost');
    expect(pinned.received).toHaveLength(1);
    expect(pinned.received[0]!.headers.host).toBe(`localhost:${port}`);
    expect(usual.connections()).toBe(0);
  });

  test('the system resolver by default: localhost reaches a receiver on 127.0.0.1', async () => {
    const receiver = await startReceiver(text(200, 'ok'));
    expect(await sendWebhook({ url: `http://localhost:${receiver.port}/`, ...message }, local)).toMatchObject(
      {
        status: 200,
        error: null,
      },
    );
    expect(receiver.received[0]!.headers.host).toBe(`localhost:${receiver.port}`);
  });

  test('an IP literal is connected to as it is, with no resolving', async () => {
    const { pinned, port } = await twoReceivers();
    const resolve = resolveTo('127.0.0.2');
    const outcome = await sendWebhook(
      { url: `http://127.0.0.1:${port}/`, ...message },
      { ...local, resolve },
    );
    expect(outcome).toMatchObject({ status: 200, body: 'usual' });
    expect(resolve).not.toHaveBeenCalled();
    expect(pinned.connections()).toBe(0);
  });

  test('https: the certificate is checked against the host name (sent as SNI), so a self-signed one fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'webhook-tls-'));
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-subj',
          '/CN=localhost',
          '-addext',
          'subjectAltName=DNS:localhost',
          '-days',
          '2',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
        ],
        { stdio: 'ignore' },
      );
      const servernames: string[] = [];
      let requests = 0;
      const server = createHttpsServer(
        {
          key: readFileSync(join(dir, 'key.pem')),
          cert: readFileSync(join(dir, 'cert.pem')),
          SNICallback: (servername, done) => {
            servernames.push(servername);
            done(null);
          },
        },
        (_request, response) => {
          requests += 1;
          response.end('ok');
        },
      );
      const port = await listen(server, '127.0.0.2', 0);
      const outcome = await sendWebhook(
        { url: `https://localhost:${port}/`, ...message },
        { ...local, resolve: resolveTo('127.0.0.2') },
      );
      expect(outcome).toMatchObject({
        status: null,
        error: expect.stringMatching(/self-signed certificate/),
      });
      expect(servernames).toEqual(['localhost']);
      expect(requests).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
