// A restart of the local stack while webhook deliveries wait for their next attempt: the runs stay
// recorded with each message's due time, the next start re-drives them, and every message's third
// attempt arrives (same webhook-id, signed afresh), none twice. A real receiver on loopback checks
// every message with the independent `standardwebhooks` verifier.
//
// DELAY_SCALE 30: the pause before attempt 2 is 1 min / 30 = 2 s, before attempt 3 5 min / 30 = 10 s,
// so the stack is stopped while every message waits for its third attempt.
//
// Then events recorded while the stack is down (the operator tool beside DynamoDB Local alone) wait in
// the outbox and go out at the next start, each only to the endpoints subscribed when it happened: an
// endpoint added, or an event subscribed to, after it, gets nothing of it, however late the fan-out.
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PORT_OFFSETS } from '../../local/config';
import { startLocalDynamoDb } from '../../local/emulators/dynamodb-local';
import { bearer, call, contractParts, exchange, upload } from '../support/api-client';
import {
  devBootstrap,
  makeDataDir,
  ops,
  type RunningStack,
  removeDataDir,
  startStack,
} from '../support/local-stack';
import { contractPdf } from '../support/pdfs';
import { untilIdle } from '../support/pipeline';
import { portsOf } from '../support/tenants';
import {
  aboutReview,
  byWebhookId,
  type ReceivedRequest,
  type Receiver,
  registerEndpoint,
  startReceiver,
  verifyEach,
} from '../support/webhook-receiver';

const DELAY_SCALE = 30;
const ENV = { RATE_LIMITS: 'off', DELAY_SCALE: String(DELAY_SCALE) };

/** A recorded time (`…T09:30:00.123456Z`) in microseconds since the epoch. */
const micros = (time: string): number =>
  Date.parse(`${time.slice(0, 23)}Z`) * 1000 + Number(time.slice(23, 26));
/** Endpoints subscribed to the one event: its messages are made at once, in one fan-out. */
const ENDPOINTS = 5;
const PUBLISHED = 'contract-reviews.publication.published';

let dataDir: string;
let stack: RunningStack | undefined;
const receivers: Receiver[] = [];

beforeAll(async () => {
  dataDir = await makeDataDir();
});

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await stack?.stop();
  await removeDataDir(dataDir);
});

test('a restart while deliveries wait for attempt 3: every message still arrives, none twice', async () => {
  // The first two attempts of every message fail; the third succeeds.
  const hooks = await startReceiver((_, { countForId }) => (countForId <= 2 ? 500 : 200));
  receivers.push(hooks);
  let running = await startStack({ dataDir, env: ENV });
  stack = running;
  const { portBase } = running;
  const boot = await devBootstrap(running);

  const created = await Promise.all(
    Array.from({ length: ENDPOINTS }, (_, i) => registerEndpoint(running, hooks, `/hooks/${i}`, PUBLISHED)),
  );
  const secretOf = new Map(created.map((e) => [e.path, e.secret]));
  const verifyAll = (requests: readonly ReceivedRequest[]) => {
    for (const request of requests) verifyEach([request], [secretOf.get(request.path) as string]);
  };

  const token = await exchange(running.production, boot.keys.production);
  const sent = await upload(
    `${running.production}/v1/contract-reviews`,
    token,
    contractParts(await contractPdf(2), {
      external_reference: `hooks-restart-${randomUUID()}`,
      product: 'contract_viewer',
    }),
  );
  expect(sent.status).toBe(202);
  const reviewId = sent.body.id as string;

  // Two attempts of each message have failed: stop at once, while each waits 10 s for its third.
  await hooks.waitFor(2 * ENDPOINTS, undefined, 90_000);
  expect(await running.stop()).toBe(0);
  const beforeRestart = hooks.requests();
  const waiting = byWebhookId(beforeRestart);
  expect(waiting.size).toBe(ENDPOINTS);
  for (const [id, requests] of waiting) {
    expect(id).toMatch(/^msg_/);
    // Every message was waiting for its third attempt when the stack stopped.
    expect(requests).toHaveLength(2);
    expect(requests.map((r) => r.path).filter((p, i, all) => all.indexOf(p) === i)).toHaveLength(1);
  }
  expect(beforeRestart.map((r) => r.path).sort()).toEqual(created.flatMap((e) => [e.path, e.path]).sort());
  expect(beforeRestart.every((r) => aboutReview(r) === reviewId)).toBe(true);
  verifyAll(beforeRestart);

  running = await startStack({ dataDir, portBase, env: ENV });
  stack = running;
  await hooks.waitFor(3 * ENDPOINTS, undefined, 90_000);
  // Once no run is left and the outbox is empty, nothing more can be sent: a repeat would have shown.
  await untilIdle(await portsOf(running));

  const all = hooks.requests();
  expect(all).toHaveLength(3 * ENDPOINTS);
  verifyAll(all);
  for (const [id, requests] of byWebhookId(all)) {
    expect(waiting.has(id)).toBe(true);
    expect(requests).toHaveLength(3);
    const [first, , third] = requests as [ReceivedRequest, ReceivedRequest, ReceivedRequest];
    expect(third.path).toBe(first.path);
    expect(third.body).toBe(first.body);
    expect(third.headers['webhook-id']).toBe(id);
    // Signed afresh after the restart (when it was due is checked below, from the recorded attempts).
    expect(Number(third.headers['webhook-timestamp'])).toBeGreaterThan(
      Number(first.headers['webhook-timestamp']),
    );
    // It was the new stack that re-drove the run and made the attempt.
    expect(running.output()).toContain(`"run":"production/${id}/r1/delivery"`);
  }

  // Each message delivered at its third attempt, recorded once each.
  const listings = await Promise.all(
    created.map((endpoint) => ops(running, 'webhook-messages', endpoint.id)),
  );
  for (const listed of listings) {
    expect(listed.code).toBe(0);
    const messages = (listed.json?.data ?? []) as Array<{ attempts: Array<Record<string, unknown>> }>;
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      type: PUBLISHED,
      state: 'delivered',
      round: 1,
      next_attempt_at: null,
    });
    const attempts = messages[0]?.attempts as Array<{
      round: number;
      number: number;
      status: number;
      at: string;
      duration_ms: number;
    }>;
    expect(attempts.map((a) => [a.round, a.number, a.status])).toEqual([
      [1, 1, 500],
      [1, 2, 500],
      [1, 3, 200],
    ]);
    // Each retry was made no sooner than its pause after the end of the attempt before, as recorded:
    // 1 min then 5 min, divided by DELAY_SCALE (the third across the restart).
    const [first, second, third] = attempts.map((a) => ({
      start: micros(a.at),
      end: micros(a.at) + a.duration_ms * 1000,
    }));
    expect((second?.start ?? 0) - (first?.end ?? 0)).toBeGreaterThanOrEqual(
      (60_000 * 1000) / DELAY_SCALE - 1000,
    );
    expect((third?.start ?? 0) - (second?.end ?? 0)).toBeGreaterThanOrEqual(
      (5 * 60_000 * 1000) / DELAY_SCALE - 1000,
    );
  }
  expect(await (await portsOf(running)).production.webhookMessages.pendingDeliveries(100)).toEqual([]);
}, 240_000);

test('events recorded while the stack is down go out at the next start, only to endpoints subscribed when they happened', async () => {
  let running = stack as RunningStack;
  const { portBase } = running;
  const boot = await devBootstrap(running);
  const token = await exchange(running.production, boot.keys.production);
  const hooks = await startReceiver();
  receivers.push(hooks);
  const createEndpoint = (name: string, events: string) =>
    registerEndpoint(running, hooks, `/${name}`, events);
  const session = await call(`${running.production}/v1/clients/onboardings/sessions`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({ reference: `hooks-down-${randomUUID()}` }),
  });
  expect(session.status).toBe(200);
  const onboardingId = session.body.id as string;
  const buyers = path.join(dataDir, 'buyers.json');
  await writeFile(
    buyers,
    JSON.stringify([
      { first_name: 'Ivy', last_name: 'Ng', email: 'ivy@example.com' },
      { first_name: 'Oli', last_name: 'Ng', email: 'oli@example.com' },
    ]),
  );
  const [early, later] = await Promise.all([
    createEndpoint('early', 'clients.submitted'),
    createEndpoint('later', PUBLISHED),
  ]);

  expect(await running.stop()).toBe(0);
  // Only the storage runs: the operator tool records a submission (two clients.submitted events), then
  // a new endpoint for them, and the other endpoint subscribes to them: both after the events.
  const storage = await startLocalDynamoDb({
    path: path.join(dataDir, 'dynamodb'),
    port: portBase + PORT_OFFSETS.dynamoDb,
  });
  let submitted: Record<string, unknown> | undefined;
  let added: { path: string; id: string; secret: string } | undefined;
  try {
    const result = await ops(running, 'submit-onboarding', onboardingId, '--buyers', buyers);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    submitted = result.json;
    added = await createEndpoint('added', 'clients.submitted');
    const updated = await ops(
      running,
      'webhook-endpoint-update',
      later.id,
      '--events',
      `${PUBLISHED},clients.submitted`,
    );
    expect(updated.code).toBe(0);
    expect(updated.json?.events).toEqual([PUBLISHED, 'clients.submitted']);
  } finally {
    await storage.stop();
  }
  running = await startStack({ dataDir, portBase, env: ENV });
  stack = running;

  const clients = submitted?.clients as Array<{
    id: string;
    primary: boolean;
    first_name: string;
    email: string;
  }>;
  expect(clients).toHaveLength(2);
  const atEarly = await hooks.waitFor(2, (r) => r.path === early.path, 90_000);
  // Nothing left to run or to fan out: any stray message would have arrived.
  await untilIdle(await portsOf(running));
  expect(hooks.requests()).toHaveLength(2);
  const envelopes = verifyEach(atEarly, [early.secret]);
  expect(envelopes.map((e) => e.data.client_id).sort()).toEqual(clients.map((c) => c.id).sort());
  for (const envelope of envelopes) {
    const client = clients.find((c) => c.id === envelope.data.client_id);
    expect(envelope).toEqual({
      type: 'clients.submitted',
      timestamp: submitted?.submitted_at,
      test: false,
      data: {
        client_id: client?.id,
        onboarding_id: onboardingId,
        reference: session.body.reference,
        primary: client?.primary,
        first_name: client?.first_name,
        last_name: 'Ng',
        email: client?.email,
      },
    });
  }
  const production = (await portsOf(running)).production;
  expect((await production.webhookMessages.listByEndpoint(added?.id as string, { limit: 10 })).items).toEqual(
    [],
  );
  expect((await production.webhookMessages.listByEndpoint(later.id, { limit: 10 })).items).toEqual([]);

  // Subscribed now, they get what happens from now on: the form submitted again repeats both events.
  const again = await ops(running, 'submit-onboarding', onboardingId, '--buyers', buyers);
  expect(again.code).toBe(0);
  for (const endpoint of [early, added as { path: string; secret: string }, later]) {
    const requests = await hooks.waitFor(endpoint === early ? 4 : 2, (r) => r.path === endpoint.path);
    verifyEach(requests, [endpoint.secret]);
  }
  await untilIdle(await portsOf(running));
  expect(hooks.requests()).toHaveLength(8);
}, 240_000);
