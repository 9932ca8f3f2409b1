// A crash of the local stack (SIGKILL: no stop handler runs, the in-memory queues are gone) in the middle
// of a burst of webhook deliveries, then a start on the same data: every message still arrives, and the
// only repeats are those the interface's at-least-once delivery allows: an attempt under way at the crash
// (sent, its answer not yet recorded) is made again. Nothing that was recorded as attempted is sent twice.
// A real receiver on loopback checks every request with the independent `standardwebhooks` verifier.
import { randomUUID } from 'node:crypto';
import type { Buyer } from '../../lambdas/core/onboarding';
import { bearer, call, exchange } from '../support/api-client';
import {
  devBootstrap,
  makeDataDir,
  type RunningStack,
  removeDataDir,
  startStack,
} from '../support/local-stack';
import { untilIdle } from '../support/pipeline';
import { portsOf, submitDirectly } from '../support/tenants';
import {
  byWebhookId,
  type Receiver,
  registerEndpoint,
  startReceiver,
  verifyEach,
} from '../support/webhook-receiver';

const ENV = { RATE_LIMITS: 'off' };
const ENDPOINTS = 5;
/** Sign-ups of 4 buyers each: one `clients.submitted` per buyer, to every endpoint. */
const SUBMISSIONS = 20;
const MESSAGES = SUBMISSIONS * 4 * ENDPOINTS;
/** Arrivals before the crash: well into the burst, well before its end. */
const KILL_AFTER = MESSAGES / 4;

let dataDir: string;
let stack: RunningStack | undefined;
let receiver: Receiver | undefined;

beforeAll(async () => {
  dataDir = await makeDataDir();
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
  await removeDataDir(dataDir);
});

const buyers = (label: string): Buyer[] =>
  Array.from({ length: 4 }, (_, i) => ({
    firstName: `Buyer${i + 1}`,
    lastName: `Crash ${label}`,
    email: `buyer${i + 1}-${label}@example.com`,
    mobile: null,
  }));

test('a SIGKILL in the middle of a burst: every message arrives after the next start, and only attempts under way at the crash arrive twice', async () => {
  // Each answer is held back a little, so that the burst takes a while and attempts are under way at the kill.
  receiver = await startReceiver(() => new Promise((resolve) => setTimeout(() => resolve(200), 20)));
  const hooks = receiver;
  let running = await startStack({ dataDir, env: ENV });
  stack = running;
  const { portBase } = running;
  const boot = await devBootstrap(running);
  const endpoints = await Promise.all(
    Array.from({ length: ENDPOINTS }, (_, i) =>
      registerEndpoint(running, hooks, `/hooks/${i}`, 'clients.submitted'),
    ),
  );
  const secretOf = new Map(endpoints.map((endpoint) => [endpoint.path, endpoint.secret]));

  const token = await exchange(running.production, boot.keys.production);
  const sessions = await Promise.all(
    Array.from({ length: SUBMISSIONS }, async () => {
      const session = await call(`${running.production}/v1/clients/onboardings/sessions`, {
        method: 'POST',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        body: JSON.stringify({ reference: `crash-${randomUUID()}` }),
      });
      expect(session.status).toBe(200);
      return session.body.id as string;
    }),
  );
  await Promise.all(sessions.map((id, i) => submitDirectly(running, 'production', id, buyers(`s${i}`))));

  await hooks.waitFor(KILL_AFTER, undefined, 120_000);
  await running.kill();
  const beforeCrash = hooks.requests();
  // The kill came in the middle of the burst, not after it.
  expect(beforeCrash.length).toBeLessThan(MESSAGES);

  running = await startStack({ dataDir, portBase, env: ENV });
  stack = running;
  const ports = await portsOf(running);
  await untilIdle(ports);

  const all = hooks.requests();
  for (const request of all) verifyEach([request], [secretOf.get(request.path) as string]);
  const arrivals = byWebhookId(all);
  const messages = (
    await Promise.all(
      endpoints.map((endpoint) =>
        ports.production.webhookMessages.listByEndpoint(endpoint.id, { limit: 500 }),
      ),
    )
  ).flatMap((page) => page.items);
  expect(messages).toHaveLength(MESSAGES);
  // Every message arrived, and nothing arrived that is not one of them.
  expect([...arrivals.keys()].sort()).toEqual(messages.map((message) => message.id).sort());

  const sentBefore = new Set(beforeCrash.map((request) => request.headers['webhook-id']));
  let repeated = 0;
  for (const message of messages) {
    expect([message.id, message.state, message.round]).toEqual([message.id, 'delivered', 1]);
    const recorded = await ports.production.webhookMessages.attempts(message.id);
    const received = arrivals.get(message.id) ?? [];
    // Every recorded attempt arrived; at most one more did: the one under way when the stack was killed.
    expect([message.id, recorded.length]).toEqual([message.id, 1]);
    expect([message.id, received.length >= 1 && received.length <= 2]).toEqual([message.id, true]);
    if (received.length === 2) {
      repeated++;
      expect([message.id, sentBefore.has(message.id)]).toEqual([message.id, true]);
      // Signed afresh, the same body.
      expect(received[1]?.body).toBe(received[0]?.body);
    }
  }
  // The repeats are bounded by what can be under way at once (8 batches of 10 on the local stack).
  expect(repeated).toBeLessThanOrEqual(80);
}, 300_000);
