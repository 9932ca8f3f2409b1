// bench -> section 5: webhook deliveries on the local stack. A loopback receiver (node:http on 127.0.0.1,
// answering 200 at once) is registered as K production endpoints subscribed to `clients.submitted`; the
// events are made the real way: onboarding sessions opened over the API, then submissions of 4 buyers each
// recorded through the core (`submitOnboarding`, as test/support/tenants.ts submitDirectly does) against
// the stack's storage, one event per buyer. The stack publishes them (looking every 200 ms), fans them
// out and delivers each message from the delivery queue. Two bursts: every endpoint answering, then one
// endpoint answering 500 throughout (the others' figures should not suffer). Figures: deliveries per
// second at the receiver, and the time from each event (the envelope's `timestamp`) to its first
// attempt's arrival, with how many messages arrived exactly once. A sample of messages is verified with
// the `standardwebhooks` package.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import type { Onboarding } from '../lambdas/core/model';
import { type Buyer, MAX_BUYERS, submitOnboarding } from '../lambdas/core/onboarding';
import type { Ports } from '../lambdas/core/ports';
import { readLocalConfig } from '../local/config';
import { localServices } from '../local/wiring';
import { bearer, call } from '../test/support/api-client';
import { ops } from '../test/support/local-stack';
import { median, ms, round, table } from './report';
import type { BenchStack } from './stack';

/** Endpoints registered, all on the one receiver (each on its own path). */
const ENDPOINTS = 10;
/** Events made: submissions of MAX_BUYERS (4) buyers each, one `clients.submitted` per buyer. */
const EVENTS = 200;
const SUBMISSIONS = Math.ceil(EVENTS / MAX_BUYERS);
/** Sessions opened and submissions recorded at once. */
const CONCURRENCY = 10;
/** Messages per endpoint whose signature is checked with `standardwebhooks` (after the run, untimed). */
const VERIFY_PER_ENDPOINT = 10;
/** The run has failed when no new message arrives for this long before all have. */
const STALL_MS = 60_000;
/** After the last expected message, how long to keep listening for duplicates. */
const LINGER_MS = 3_000;
const EVENT_TYPE = 'clients.submitted';

/** Epoch microseconds, on the clock the service's `systemClock` reads (the same expression). */
const nowMicros = () => Math.floor((performance.timeOrigin + performance.now()) * 1000);

/** Microseconds since the epoch of an interface time, `2026-11-21T09:30:00.123456Z`. */
const micros = (time: string): number => {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.(\d{6})Z$/.exec(time);
  if (!match) throw new Error(`not an interface time: ${time}`);
  return Date.parse(`${match[1]}Z`) * 1000 + Number(match[2]);
};

/** Nearest-rank percentile (p in 0–100) of values; NaN when there are none. */
const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] as number;
};

/** Runs `task` over `items` with at most `limit` under way; answers the results in order. */
const pool = async <T, R>(items: T[], limit: number, task: (item: T, index: number) => Promise<R>) => {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await task(items[i] as T, i);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
};

interface Receipt {
  /** The endpoint's path on the receiver. */
  path: string;
  webhookId: string;
  /** When the request's headers had arrived (epoch µs). */
  receivedUs: number;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Envelope {
  type: string;
  timestamp: string;
  test: boolean;
  data: { client_id: string; reference: string };
}

interface Receiver {
  url: string;
  receipts: Receipt[];
  /** Paths answered 500 (an endpoint failing throughout); every other path is answered 200. */
  failing: Set<string>;
  stop(): Promise<void>;
}

/** The loopback receiver: records each request's arrival time, path, headers and body, and answers 200. */
const startReceiver = async (): Promise<Receiver> => {
  const receipts: Receipt[] = [];
  const receiver: Receiver = {
    url: '',
    receipts,
    failing: new Set(),
    stop: async () => {},
  };
  const server: Server = createServer((request, response) => {
    const receivedUs = nowMicros();
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const status = receiver.failing.has(request.url ?? '') ? 500 : 200;
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'failing');
      receipts.push({
        path: request.url ?? '',
        webhookId: String(request.headers['webhook-id'] ?? ''),
        receivedUs,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return receiver;
};

const parse = (receipt: Receipt): Envelope => JSON.parse(receipt.body) as Envelope;

/** Waits until `done()` or until nothing new has arrived for STALL_MS; answers whether `done()`. */
const waitFor = async (receiver: Receiver, done: () => boolean): Promise<boolean> => {
  let lastCount = receiver.receipts.length;
  let lastChange = performance.now();
  while (!done()) {
    if (receiver.receipts.length !== lastCount) {
      lastCount = receiver.receipts.length;
      lastChange = performance.now();
    } else if (performance.now() - lastChange > STALL_MS) return false;
    await sleep(20);
  }
  return true;
};

const buyersFor = (label: string): Buyer[] =>
  Array.from({ length: MAX_BUYERS }, (_, j) => ({
    firstName: `Buyer${j + 1}`,
    lastName: `Bench ${label}`,
    email: `buyer${j + 1}-${label}@example.com`,
    mobile: null,
  }));

/** Opens a sign-up session over the API and reads the onboarding it made from the stack's storage. */
const openOnboarding = async (
  stack: BenchStack,
  token: string,
  ports: Ports,
  reference: string,
): Promise<Onboarding> => {
  const answer = await call(`${stack.production}/v1/clients/onboardings/sessions`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({ reference }),
  });
  if (answer.status !== 200) throw new Error(`session answered ${answer.status}: ${answer.text}`);
  const onboarding = await ports.onboardings.get(answer.body.id as string);
  if (!onboarding) throw new Error(`no onboarding ${answer.body.id}`);
  return onboarding;
};

interface Endpoint {
  id: string;
  secret: string;
  path: string;
}

const registerEndpoints = async (stack: BenchStack, receiverUrl: string): Promise<Endpoint[]> =>
  pool(
    Array.from({ length: ENDPOINTS }, (_, i) => `/hooks/${i + 1}`),
    ENDPOINTS,
    async (path) => {
      const made = await ops(
        stack,
        'webhook-endpoint-create',
        '--environment',
        'production',
        '--url',
        `${receiverUrl}${path}`,
        '--events',
        EVENT_TYPE,
      );
      const json = made.json as { id?: string; secret?: string } | undefined;
      if (made.code !== 0 || !json?.id || !json.secret)
        throw new Error(`webhook-endpoint-create failed (${made.code}): ${made.stderr || made.stdout}`);
      return { id: json.id, secret: json.secret, path };
    },
  );

const stats = (values: number[]) => ({
  median: median(values),
  p99: percentile(values, 99),
  max: values.length === 0 ? Number.NaN : Math.max(...values),
});

interface Burst {
  stack: BenchStack;
  token: string;
  ports: Ports;
  receiver: Receiver;
  endpoints: Endpoint[];
  progress: (message: string) => void;
  /** The endpoint answering 500 throughout, if any: its first attempts are counted apart. */
  failing?: Endpoint;
}

/** One burst of SUBMISSIONS × MAX_BUYERS events to every endpoint, measured and printed; answers its summary. */
const burst = async ({ stack, token, ports, receiver, endpoints, progress, failing }: Burst) => {
  const secretOf = new Map(endpoints.map((endpoint) => [endpoint.path, endpoint.secret]));
  const healthy = endpoints.filter((endpoint) => endpoint !== failing);
  receiver.failing = new Set(failing ? [failing.path] : []);
  const run = randomUUID().slice(0, 8);
  const startReceipts = receiver.receipts.length;

  progress(`webhooks: opening ${SUBMISSIONS} onboarding sessions over the API…`);
  const onboardings = await pool(
    Array.from({ length: SUBMISSIONS }, (_, i) => `bench-webhooks-${run}-${i + 1}`),
    CONCURRENCY,
    (reference) => openOnboarding(stack, token, ports, reference),
  );

  // Every (endpoint path, client id) the run must deliver exactly once; and the failing endpoint's.
  const expected = new Set<string>();
  const expectedFailing = new Set<string>();
  const pairKey = (path: string, clientId: string) => `${path} ${clientId}`;
  let allExpected = false;

  progress(
    `webhooks: recording ${SUBMISSIONS} submissions of ${MAX_BUYERS} buyers (${CONCURRENCY} at once): ` +
      `${SUBMISSIONS * MAX_BUYERS} events → ${SUBMISSIONS * MAX_BUYERS * ENDPOINTS} messages` +
      (failing ? ` (${failing.path} answering 500 throughout)…` : '…'),
  );
  const emitStartedUs = nowMicros();
  const submitted = await pool(onboardings, CONCURRENCY, (onboarding, i) =>
    submitOnboarding(ports, onboarding, buyersFor(`${run}-${i + 1}`)),
  );
  const emitEndedUs = nowMicros();
  for (const onboarding of submitted)
    for (const clientId of onboarding.clientIds) {
      for (const endpoint of healthy) expected.add(pairKey(endpoint.path, clientId));
      if (failing) expectedFailing.add(pairKey(failing.path, clientId));
    }
  const eventCount = submitted.reduce((sum, onboarding) => sum + onboarding.clientIds.length, 0);

  // First receipts of the run's pairs, counted as they come.
  const firstOf = new Map<string, Receipt>();
  const receiptsOf = new Map<string, number>();
  const webhookIdsOf = new Map<string, Set<string>>();
  let scanned = startReceipts;
  const scan = () => {
    for (; scanned < receiver.receipts.length; scanned++) {
      const receipt = receiver.receipts[scanned] as Receipt;
      const key = pairKey(receipt.path, parse(receipt).data.client_id);
      receiptsOf.set(key, (receiptsOf.get(key) ?? 0) + 1);
      if (!firstOf.has(key)) firstOf.set(key, receipt);
      const ids = webhookIdsOf.get(key) ?? new Set<string>();
      ids.add(receipt.webhookId);
      webhookIdsOf.set(key, ids);
    }
    allExpected = [...expected, ...expectedFailing].every((key) => firstOf.has(key));
  };
  progress(`webhooks: waiting for ${expected.size + expectedFailing.size} messages…`);
  const complete = await waitFor(receiver, () => {
    scan();
    return allExpected;
  });
  await sleep(LINGER_MS);
  scan();
  const runReceipts = receiver.receipts.slice(startReceipts);

  // Figures over the healthy endpoints' first receipts.
  const firsts = [...expected].flatMap((key) => firstOf.get(key) ?? []);
  const eventToArrivalMs = firsts.map((r) => (r.receivedUs - micros(parse(r).timestamp)) / 1000);
  const receivedTimes = firsts.map((r) => r.receivedUs);
  const windowS = (Math.max(...receivedTimes) - Math.min(...receivedTimes)) / 1e6;
  const deliveriesPerSecond = firsts.length / windowS;
  const exactlyOnce = [...expected].filter(
    (key) => receiptsOf.get(key) === 1 && webhookIdsOf.get(key)?.size === 1,
  ).length;
  const duplicates = [...expected].reduce((sum, key) => sum + Math.max(0, (receiptsOf.get(key) ?? 0) - 1), 0);
  const missing = [...expected].filter((key) => !firstOf.has(key)).length;
  const unexpected = runReceipts.filter((r) => {
    const key = pairKey(r.path, parse(r).data.client_id);
    return (!expected.has(key) && !expectedFailing.has(key)) || parse(r).type !== EVENT_TYPE;
  }).length;
  // The failing endpoint: its first attempts arrived once each, within the burst (the retries come a minute on).
  const failingFirsts = [...expectedFailing].flatMap((key) => firstOf.get(key) ?? []);
  const failingOnce = [...expectedFailing].filter((key) => receiptsOf.get(key) === 1).length;

  // The service's side: when each message was made (the fan-out) and its attempts (untimed, afterwards).
  progress('webhooks: reading the messages back from the stack…');
  const records = await pool(firsts, 20, (r) => ports.webhookMessages.get(r.webhookId));
  const fanOutMs: number[] = [];
  const madeToArrivalMs: number[] = [];
  let deliveredOnce = 0;
  firsts.forEach((r, i) => {
    const record = records[i];
    if (!record) return;
    fanOutMs.push((record.createdAt - record.occurredAt) / 1000);
    madeToArrivalMs.push((r.receivedUs - record.createdAt) / 1000);
    if (record.state === 'delivered' && record.round === 1 && record.attemptsInRound === 1) deliveredOnce++;
  });
  const failingRecords = await pool(failingFirsts, 20, (r) => ports.webhookMessages.get(r.webhookId));
  const failingWaiting = failingRecords.filter(
    (record) => record?.state === 'pending' && record.attemptsInRound === 1 && record.nextAttemptAt !== null,
  ).length;

  // A sample of signatures, checked with the independent verifier.
  const sample = endpoints.flatMap((endpoint) =>
    runReceipts.filter((r) => r.path === endpoint.path).slice(0, VERIFY_PER_ENDPOINT),
  );
  let verified = 0;
  const failures: string[] = [];
  for (const receipt of sample) {
    try {
      new Webhook(secretOf.get(receipt.path) ?? '').verify(
        receipt.body,
        receipt.headers as Record<string, string>,
      );
      verified++;
    } catch (error) {
      failures.push(`${receipt.webhookId}: ${String(error)}`);
    }
  }

  const latency = stats(eventToArrivalMs);
  const fanOut = stats(fanOutMs);
  const madeToArrival = stats(madeToArrivalMs);
  const expectedCount = expected.size;
  console.log(
    `\n5${failing ? 'b' : 'a'}. Webhooks: ${eventCount} ${EVENT_TYPE} events (${SUBMISSIONS} submissions of ${MAX_BUYERS} buyers, ` +
      `${CONCURRENCY} at once) to ${ENDPOINTS} endpoints = ${eventCount * ENDPOINTS} messages, production, ` +
      'on the stack above (RATE_LIMITS=off)' +
      (failing
        ? `;\n    one endpoint (${failing.path}) answering 500 throughout: the figures are the other ${healthy.length}'s`
        : ''),
  );
  console.log(
    '   receiver: node:http on 127.0.0.1 answering at once; event = the envelope timestamp; ' +
      "arrival = the first attempt's request headers read;\n   made = the message record's created_at " +
      '(the fan-out)\n',
  );
  console.log(
    table([
      ['time', 'median', 'p99', 'max', 'messages'],
      ...(
        [
          ['event → first attempt arrives', latency, eventToArrivalMs.length],
          ['  event → message made', fanOut, fanOutMs.length],
          ['  message made → arrives', madeToArrival, madeToArrivalMs.length],
        ] as const
      ).map(([name, s, n]) => [name, ms(s.median), ms(s.p99), ms(s.max), String(n)]),
    ]),
  );
  console.log(
    `\n   deliveries per second at the receiver: ${deliveriesPerSecond.toFixed(1)} ` +
      `(${firsts.length} messages between the first and last arrival, ${windowS.toFixed(2)} s)`,
  );
  console.log(
    `   events recorded over ${ms((emitEndedUs - emitStartedUs) / 1000)}; ` +
      `arrived exactly once: ${exactlyOnce} of ${expectedCount}; duplicates ${duplicates}; ` +
      `missing ${missing}${complete ? '' : ` (gave up after ${STALL_MS / 1000} s without a new arrival)`}; ` +
      `unexpected ${unexpected}`,
  );
  if (failing)
    console.log(
      `   the failing endpoint: ${failingFirsts.length} of ${expectedFailing.size} first attempts arrived, ` +
        `${failingOnce} once each; ${failingWaiting} recorded as failed once and waiting for the retry a minute on`,
    );
  console.log(
    `   service records: ${deliveredOnce} of ${records.length} delivered at the first attempt of round 1; ` +
      `signatures verified with standardwebhooks: ${verified} of ${sample.length} sampled` +
      (failures.length > 0 ? ` (FAILED: ${failures.slice(0, 3).join('; ')})` : ''),
  );

  return {
    endpoints: ENDPOINTS,
    failing_endpoints: failing ? 1 : 0,
    events: eventCount,
    submissions: SUBMISSIONS,
    buyers_per_submission: MAX_BUYERS,
    concurrency: CONCURRENCY,
    messages_expected: expectedCount,
    emit_ms: round((emitEndedUs - emitStartedUs) / 1000, 0),
    deliveries_per_second: round(deliveriesPerSecond, 1),
    arrival_window_s: round(windowS, 2),
    event_to_first_attempt_median_ms: round(latency.median, 1),
    event_to_first_attempt_p99_ms: round(latency.p99, 1),
    event_to_first_attempt_max_ms: round(latency.max, 1),
    fan_out_median_ms: round(fanOut.median, 1),
    fan_out_p99_ms: round(fanOut.p99, 1),
    made_to_arrival_median_ms: round(madeToArrival.median, 1),
    made_to_arrival_p99_ms: round(madeToArrival.p99, 1),
    received: runReceipts.length,
    exactly_once: exactlyOnce,
    duplicates,
    missing,
    unexpected,
    delivered_at_first_attempt: deliveredOnce,
    failing_first_attempts: failingFirsts.length,
    failing_waiting_for_retry: failingWaiting,
    signatures_verified: verified,
    signatures_sampled: sample.length,
  };
};

/**
 * Runs section 5 of the bench against a running stack (production, RATE_LIMITS=off) and prints it: a
 * burst to endpoints that all answer, then one with an endpoint failing throughout; for each a table of
 * the times, the rate and the counts, then one JSON line of both. The goal (issue 12): event to first
 * attempt p99 under 1 s, and 500 deliveries a second.
 */
export const webhooksSection = async (
  stack: BenchStack,
  token: string,
  progress: (message: string) => void,
): Promise<void> => {
  const receiver = await startReceiver();
  try {
    const ports = (
      await localServices(readLocalConfig({ PORT_BASE: String(stack.portBase), DATA_DIR: stack.dataDir }))
    ).production.ports;
    progress(
      `webhooks: registering ${ENDPOINTS} endpoints on ${receiver.url} (ops webhook-endpoint-create)…`,
    );
    const endpoints = await registerEndpoints(stack, receiver.url);

    // Warm-up: one submission through the whole path, its messages awaited and left out of the figures.
    const run = randomUUID().slice(0, 8);
    progress(`webhooks: warm-up submission (${MAX_BUYERS} events → ${MAX_BUYERS * ENDPOINTS} messages)…`);
    const warmUp = await openOnboarding(stack, token, ports, `bench-webhooks-warm-up-${run}`);
    await submitOnboarding(ports, warmUp, buyersFor(`warm-up-${run}`));
    const warmedUp = await waitFor(receiver, () => receiver.receipts.length >= MAX_BUYERS * ENDPOINTS);
    if (!warmedUp) throw new Error('webhooks: the warm-up messages did not all arrive');
    await sleep(500);

    const common = { stack, token, ports, receiver, endpoints, progress };
    const all = await burst(common);
    const oneFailing = await burst({ ...common, failing: endpoints[0] });
    console.log(`\n${JSON.stringify({ webhooks: all, webhooks_one_failing: oneFailing })}`);
  } finally {
    await receiver.stop();
  }
};
