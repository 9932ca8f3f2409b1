// test -> a webhook receiver as an integrator runs one: a node:http server on loopback (a random port)
// that records every request whole (headers, raw body, when it came), answers as its policy says, and
// checks messages with the independent `standardwebhooks` verifier.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { ops, type RunningStack } from './local-stack';

export interface ReceivedRequest {
  /** 1-based, in the order the requests arrived at this receiver. */
  index: number;
  method: string;
  /** The request target: path and query. */
  path: string;
  /** Lower-case names, as node reads them (a repeated header is joined with `, `). */
  headers: Record<string, string>;
  /** The raw body, as UTF-8 text. */
  body: string;
  /** When the whole body had arrived (Date.now()). */
  at: number;
}

export interface PolicyContext {
  /** Requests this receiver has had, this one included. */
  count: number;
  /** Requests with this one's `webhook-id`, this one included. */
  countForId: number;
}

/** The answer's status, and optionally its body; may be a promise, to hold the answer back. */
export type Answer = number | { status: number; body?: string };
export type Policy = (request: ReceivedRequest, context: PolicyContext) => Answer | Promise<Answer>;

export interface Receiver {
  /** `http://127.0.0.1:{port}` */
  origin: string;
  /** Every request so far, oldest first (a copy). */
  requests(matching?: (request: ReceivedRequest) => boolean): ReceivedRequest[];
  /** How the following requests are answered. */
  setPolicy(policy: Policy): void;
  /**
   * Resolves with the matching requests once there are at least `n` (polling); fails with what came
   * after `timeoutMs`.
   */
  waitFor(
    n: number,
    matching?: (request: ReceivedRequest) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

const headerValues = (raw: NodeJS.Dict<string | string[]>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(raw)
      .filter((entry): entry is [string, string | string[]] => entry[1] !== undefined)
      .map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]),
  );

export const startReceiver = async (policy: Policy = () => 200): Promise<Receiver> => {
  const received: ReceivedRequest[] = [];
  let current = policy;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers = headerValues(request.headers);
      const record: ReceivedRequest = {
        index: received.length + 1,
        method: request.method ?? '',
        path: request.url ?? '',
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(record);
      const id = headers['webhook-id'];
      const context = {
        count: received.length,
        countForId: received.filter((r) => r.headers['webhook-id'] === id).length,
      };
      void (async () => {
        let answer: Answer;
        try {
          answer = await current(record, context);
        } catch {
          answer = 500;
        }
        const { status, body } = typeof answer === 'number' ? { status: answer, body: '' } : answer;
        response.writeHead(status, { 'content-type': 'text/plain' });
        response.end(body ?? '');
      })();
    });
  });
  await new Promise<void>((ready, failed) => {
    server.once('error', failed);
    server.listen(0, '127.0.0.1', () => ready());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const requests = (matching: (request: ReceivedRequest) => boolean = () => true) =>
    received.filter(matching);
  return {
    origin,
    requests,
    setPolicy: (next) => {
      current = next;
    },
    waitFor: async (n, matching = () => true, timeoutMs = 60_000) => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = requests(matching);
        if (found.length >= n) return found;
        if (Date.now() > until)
          throw new Error(
            `${origin}: ${found.length} of ${n} requests in ${timeoutMs} ms; all requests so far:\n${received
              .map((r) => `${r.index} ${r.headers['webhook-id']} ${r.body.slice(0, 200)}`)
              .join('\n')}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
};

/** The three Standard Webhooks headers of a request (missing ones as ''). */
export const signedHeaders = (request: ReceivedRequest) => ({
  'webhook-id': request.headers['webhook-id'] ?? '',
  'webhook-timestamp': request.headers['webhook-timestamp'] ?? '',
  'webhook-signature': request.headers['webhook-signature'] ?? '',
});

/** Whether the independent verifier accepts the request with `secret` (signature and 5-minute tolerance). */
export const verifies = (request: ReceivedRequest, secret: string): boolean => {
  try {
    new Webhook(secret).verify(request.body, signedHeaders(request), { jsonParse: false });
    return true;
  } catch {
    return false;
  }
};

/**
 * Verifies every request with every one of `secrets` (each must verify on its own), throwing with the
 * first that does not; returns the parsed envelopes.
 */
export const verifyEach = (requests: readonly ReceivedRequest[], secrets: readonly string[]): Envelope[] => {
  if (secrets.length === 0) throw new Error('no secrets to verify with');
  for (const request of requests) {
    for (const secret of secrets) {
      try {
        new Webhook(secret).verify(request.body, signedHeaders(request), { jsonParse: false });
      } catch (error) {
        throw new Error(
          `request ${request.index} (${request.headers['webhook-id']}) does not verify with ${secret.slice(0, 12)}…: ${String(error)}\n${request.body.slice(0, 500)}`,
        );
      }
    }
  }
  return requests.map(envelopeOf);
};

export interface Envelope {
  type: string;
  timestamp: string;
  test: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever data came and assert on it.
  data: any;
}

export const envelopeOf = (request: ReceivedRequest): Envelope => JSON.parse(request.body) as Envelope;

/** The `contract_review.id` a message is about (undefined for other data). */
export const aboutReview = (request: ReceivedRequest): string | undefined => {
  try {
    return envelopeOf(request).data?.contract_review?.id;
  } catch {
    return undefined;
  }
};

/** The requests grouped by their `webhook-id`, each group in arrival order. */
export const byWebhookId = (requests: readonly ReceivedRequest[]): Map<string, ReceivedRequest[]> => {
  const groups = new Map<string, ReceivedRequest[]>();
  for (const request of requests) {
    const id = request.headers['webhook-id'] ?? '';
    groups.set(id, [...(groups.get(id) ?? []), request]);
  }
  return groups;
};

export interface RegisteredEndpoint {
  /** The path on the receiver it posts to. */
  path: string;
  id: string;
  secret: string;
}

/**
 * Registers `path` on `receiver` as a production endpoint for `events` (comma-separated) with the
 * operator tool beside `stack`; the test fails if the tool does.
 */
export const registerEndpoint = async (
  stack: Pick<RunningStack, 'portBase' | 'dataDir'>,
  receiver: Pick<Receiver, 'origin'>,
  path: string,
  events: string,
): Promise<RegisteredEndpoint> => {
  const result = await ops(
    stack,
    'webhook-endpoint-create',
    '--environment',
    'production',
    '--url',
    `${receiver.origin}${path}`,
    '--events',
    events,
  );
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  return { path, id: result.json?.id as string, secret: result.json?.secret as string };
};
