// Webhooks over HTTP against the real local stack, received by real servers on loopback that check every
// message with the independent `standardwebhooks` verifier: each contract event kind with its exact
// envelope, subscription filtering (events, integrations, environments), subscribing later, a disabled
// endpoint, the whole retry schedule and giving up after 8, redelivery, test events, secret rotation,
// and the SSRF refusals at registration.
//
// DELAY_SCALE 40000 makes the schedule (1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h) last about 4 s:
// 1 min is 1.5 ms and 24 h is 2.2 s, so a first and an eighth attempt are still seconds apart (their
// webhook-timestamps differ), and the lawyer's wait (360 days) still lasts 13 minutes. The SSRF guard at delivery time (a name resolving to a private
// address, DNS pinning) and loopback refused when the stack is not local are covered by
// test/adapters/webhook-sender.test.ts and test/unit/webhook-target.test.ts.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Environment } from '../../lambdas/core/model';
import type { Ports } from '../../lambdas/core/ports';
import { type Answer as ApiAnswer, contractParts, exchange, upload } from '../support/api-client';
import { eventually } from '../support/eventually';
import {
  type Bootstrap,
  devBootstrap,
  ops,
  type RunningStack,
  removeDataDir,
  startStack,
} from '../support/local-stack';
import { contractPdf, undrawablePdf } from '../support/pdfs';
import { isPublished, publication, unfinishedRunsOf, untilIdle, waitForReview } from '../support/pipeline';
import { createTenant, portsOf } from '../support/tenants';
import {
  aboutReview,
  type Envelope,
  envelopeOf,
  type Policy,
  type ReceivedRequest,
  type Receiver,
  startReceiver,
  verifies,
  verifyEach,
} from '../support/webhook-receiver';

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

const PROCESSING_FAILED = 'contract-reviews.processing.failed';
const ANALYSIS_COMPLETED = 'contract-reviews.analysis.completed';
const REVIEW_REQUESTED = 'contract-reviews.lawyer_review.requested';
const REVIEW_COMPLETED = 'contract-reviews.lawyer_review.completed';
const PUBLISHED = 'contract-reviews.publication.published';
const WITHDRAWN = 'contract-reviews.publication.withdrawn';
/** Every contract event interface.md names (analysis.failed is declared and never sent yet). */
const CONTRACT_EVENTS = [
  PROCESSING_FAILED,
  ANALYSIS_COMPLETED,
  'contract-reviews.analysis.failed',
  REVIEW_REQUESTED,
  REVIEW_COMPLETED,
  PUBLISHED,
  WITHDRAWN,
];

let stack: RunningStack;
let boot: Bootstrap;
let ports: Record<Environment, Ports>;
const tokens = {} as Record<Environment, string>;
let pdf: Uint8Array;

interface Endpoint {
  id: string;
  secret: string;
  receiver: Receiver;
}
/** Every endpoint made here, for the final check that every message verifies. */
const endpoints: Endpoint[] = [];

beforeAll(async () => {
  stack = await startStack({ env: { RATE_LIMITS: 'off', DELAY_SCALE: '40000' } });
  boot = await devBootstrap(stack);
  ports = await portsOf(stack);
  tokens.production = await exchange(stack.production, boot.keys.production);
  tokens.sandbox = await exchange(stack.sandbox, boot.keys.sandbox);
  pdf = await contractPdf(2);
}, 180_000);

afterAll(async () => {
  await Promise.all(endpoints.map((e) => e.receiver.close()));
  await stack?.stop();
  if (stack) await removeDataDir(stack.dataDir);
});

/** `ops …` that must succeed; its JSON. */
// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back and assert on it.
const opsOk = async (...args: string[]): Promise<any> => {
  const result = await ops(stack, ...args);
  if (result.code !== 0) throw new Error(`ops ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.json;
};

/** A receiver and an endpoint registered for it with `ops webhook-endpoint-create`. */
const createEndpoint = async (
  events: readonly string[],
  options: { environment?: Environment; integration?: string; policy?: Policy } = {},
): Promise<Endpoint> => {
  const receiver = await startReceiver(options.policy);
  const created = await opsOk(
    'webhook-endpoint-create',
    '--environment',
    options.environment ?? 'production',
    '--url',
    `${receiver.origin}/hooks/${randomUUID()}`,
    '--events',
    events.join(','),
    ...(options.integration ? ['--integration', options.integration] : []),
  );
  expect(created).toEqual({ id: expect.stringMatching(/^whe_/), secret: expect.stringMatching(/^whsec_/) });
  const endpoint = { id: created.id as string, secret: created.secret as string, receiver };
  endpoints.push(endpoint);
  return endpoint;
};

const send = async (
  request: Record<string, unknown>,
  file = pdf,
  environment: Environment = 'production',
  token = tokens[environment],
): Promise<string> => {
  const answer = await upload(
    `${stack[environment]}/v1/contract-reviews`,
    token,
    contractParts(file, request),
  );
  expect(answer.status).toBe(202);
  return answer.body.id as string;
};

const waitFor = (
  id: string,
  done: (review: ApiAnswer['body']) => boolean,
  environment: Environment = 'production',
  token = tokens[environment],
) => waitForReview(stack[environment], token, id, done, 90_000);

const about = (id: string) => (request: ReceivedRequest) => aboutReview(request) === id;
const withId = (messageId: string) => (request: ReceivedRequest) =>
  request.headers['webhook-id'] === messageId;

/** The interface's time format of epoch microseconds, written out independently of the service's own. */
const timeOf = (micros: number): string =>
  `${new Date(Math.floor(micros / 1000)).toISOString().slice(0, 19)}.${String(micros % 1_000_000).padStart(6, '0')}Z`;

/** The message a request delivers and the event recorded in the outbox when it happened. */
const recorded = async (environment: Environment, request: ReceivedRequest) => {
  const message = await ports[environment].webhookMessages.get(request.headers['webhook-id'] ?? '');
  if (message === null) throw new Error(`no message ${request.headers['webhook-id']}`);
  const event = message.eventId === null ? null : await ports[environment].outbox.get(message.eventId);
  return { message, event };
};

/** When an event says it happened, as the contract review it carries shows it. */
const timeShown = (envelope: Envelope): string | null | undefined => {
  const review = envelope.data.contract_review;
  switch (envelope.type) {
    case PROCESSING_FAILED:
      return review.processing.failed_at;
    case ANALYSIS_COMPLETED:
      return review.analysis.completed_at;
    case REVIEW_REQUESTED:
      return review.lawyer_review.requested_at;
    case REVIEW_COMPLETED:
      return review.lawyer_review.completed_at;
    case PUBLISHED:
      return (
        (publication(review, envelope.data.channel) as { published_at?: string | null } | undefined)
          ?.published_at ?? null
      );
    default:
      return undefined;
  }
};

/**
 * A contract event's message, exactly: the envelope's four fields, `timestamp` when it happened (as
 * recorded, and as the review shows it), `test` false, and `data` as recorded when it happened, shaped
 * as interface.md says.
 */
const expectEventMessage = async (environment: Environment, request: ReceivedRequest): Promise<Envelope> => {
  expect(request.method).toBe('POST');
  expect(request.headers['content-type']).toMatch(/^application\/json/);
  const envelope = envelopeOf(request);
  const { message, event } = await recorded(environment, request);
  expect(event).not.toBeNull();
  expect(envelope).toEqual({
    type: event?.type,
    timestamp: timeOf(event?.occurredAt ?? 0),
    test: false,
    data: JSON.parse(event?.data ?? 'null'),
  });
  expect(message.type).toBe(envelope.type);
  expect(envelope.timestamp).toMatch(TIME);
  const review = envelope.data.contract_review;
  expect(review.id).toMatch(/^crv_/);
  if (envelope.type === PUBLISHED || envelope.type === WITHDRAWN) {
    expect(Object.keys(envelope.data).sort()).toEqual(['channel', 'contract_review', 'url']);
    const shown = publication(review, envelope.data.channel);
    expect(shown).toMatchObject({
      state: envelope.type === PUBLISHED ? 'published' : 'withdrawn',
      url: envelope.data.url,
    });
    expect(envelope.data.url).toMatch(new RegExp(`^${stack.pages[environment]}/`));
  } else {
    expect(Object.keys(envelope.data)).toEqual(['contract_review']);
  }
  const shownAt = timeShown(envelope);
  // processing.failed is announced again with the final state when the retries give up, later than the
  // last failure it shows; every other event happens when the review says it did.
  if (envelope.type === PROCESSING_FAILED) expect((shownAt ?? '') <= envelope.timestamp).toBe(true);
  else if (shownAt !== undefined) expect(shownAt).toBe(envelope.timestamp);
  return envelope;
};

const kindOf = (envelope: Envelope): string =>
  envelope.data.channel ? `${envelope.type} ${envelope.data.channel}` : envelope.type;

/** A receiver's messages about a contract review, verified, in the order their events happened. */
const messagesAbout = (endpoint: Endpoint, reviewId: string) => {
  const requests = endpoint.receiver.requests(about(reviewId));
  const envelopes = verifyEach(requests, [endpoint.secret]);
  return requests
    .map((request, i) => ({ request, envelope: envelopes[i] as Envelope }))
    .sort((a, b) => a.envelope.timestamp.localeCompare(b.envelope.timestamp));
};

/** The endpoint's messages as `ops webhook-messages` shows them, newest first. */
// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back and assert on it.
const messagesOf = async (endpointId: string): Promise<any[]> =>
  (await opsOk('webhook-messages', endpointId, '--limit', '100')).data;

/** The endpoint's stored messages (read directly, where the ops listing is not the point). */
const storedMessages = async (environment: Environment, endpointId: string) =>
  (await ports[environment].webhookMessages.listByEndpoint(endpointId, { limit: 100 })).items;

/** Polls the stored message until `done` holds of it (the ops listing is read once it does). */
const waitForMessage = async (
  environment: Environment,
  messageId: string,
  done: (state: string, attempts: number) => boolean,
) =>
  eventually(
    () => ports[environment].webhookMessages.get(messageId),
    (message) => message !== null && done(message.state, message.attemptsInRound),
    { what: `message ${messageId} reaching its state` },
  );

describe('contract events', () => {
  let all: Endpoint;
  let publishedOnly: Endpoint;
  let otherIntegration: Endpoint;
  let sandbox: Endpoint;
  let other: { integrationId: string; token: string };
  const reviews = {} as Record<
    'information' | 'advice' | 'broken' | 'sandbox' | 'other',
    { id: string; final: ApiAnswer['body'] }
  >;

  beforeAll(async () => {
    const tenant = await createTenant(stack, 'hooks');
    other = {
      integrationId: tenant.integrationId,
      token: await exchange(stack.production, tenant.keys.production),
    };
    [all, publishedOnly, otherIntegration, sandbox] = await Promise.all([
      createEndpoint(CONTRACT_EVENTS),
      createEndpoint([PUBLISHED]),
      createEndpoint(CONTRACT_EVENTS, { integration: tenant.integrationId }),
      createEndpoint(CONTRACT_EVENTS, { environment: 'sandbox' }),
    ]);

    const information = async () => {
      const id = await send({
        external_reference: `hooks-info-${randomUUID()}`,
        product: 'legal_information',
        review: 'lawyer',
      });
      await waitFor(id, (r) => r.lawyer_review.state === 'requested');
      await opsOk('publish-review', id);
      await waitFor(id, isPublished('review'));
      await opsOk('withdraw', id, '--channel', 'review');
      const final = await waitFor(id, (r) => publication(r, 'review')?.state === 'withdrawn');
      return { id, final };
    };
    const advice = async () => {
      const id = await send({
        external_reference: `hooks-advice-${randomUUID()}`,
        product: 'legal_advice',
        recipient: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
      });
      await waitFor(id, (r) => r.lawyer_review.state === 'requested');
      await opsOk('publish-review', id);
      return { id, final: await waitFor(id, isPublished('review_snapshot')) };
    };
    const broken = async () => {
      const id = await send(
        { external_reference: `hooks-broken-${randomUUID()}`, product: 'contract_viewer' },
        await undrawablePdf(3),
      );
      return { id, final: await waitFor(id, (r) => publication(r, 'contract_viewer')?.state === 'failed') };
    };
    const viewer = async (environment: Environment, token: string) => {
      const request = { external_reference: `hooks-viewer-${randomUUID()}`, product: 'contract_viewer' };
      const id = await send(request, pdf, environment, token);
      return { id, final: await waitFor(id, isPublished('contract_viewer'), environment, token) };
    };
    [reviews.information, reviews.advice, reviews.broken, reviews.sandbox, reviews.other] = await Promise.all(
      [
        information(),
        advice(),
        broken(),
        viewer('sandbox', tokens.sandbox),
        viewer('production', other.token),
      ],
    );
    // Every message of every event above was made when its event was fanned out, for all endpoints at
    // once: once the last ones have arrived where they are due, a short wait lets any stray one show.
    await Promise.all([
      all.receiver.waitFor(6, about(reviews.information.id)),
      all.receiver.waitFor(4, about(reviews.advice.id)),
      all.receiver.waitFor(2, about(reviews.broken.id)),
      publishedOnly.receiver.waitFor(3),
      sandbox.receiver.waitFor(1),
      otherIntegration.receiver.waitFor(1),
    ]);
    // Once nothing is under way, any stray message would have arrived.
    await untilIdle(ports);
  }, 180_000);

  test('each contract event kind reaches the endpoint subscribed to all, once, signed, with its exact envelope', async () => {
    const expected = {
      information: [
        `${PUBLISHED} contract_viewer`,
        ANALYSIS_COMPLETED,
        REVIEW_REQUESTED,
        REVIEW_COMPLETED,
        `${PUBLISHED} review`,
        `${WITHDRAWN} review`,
      ],
      advice: [ANALYSIS_COMPLETED, REVIEW_REQUESTED, REVIEW_COMPLETED, `${PUBLISHED} review_snapshot`],
      // At the first failed attempt, and with the final state once the retries gave up.
      broken: [PROCESSING_FAILED, PROCESSING_FAILED],
    };
    for (const [name, kinds] of Object.entries(expected)) {
      const { id, final } = reviews[name as keyof typeof expected];
      const messages = messagesAbout(all, id);
      for (const { request } of messages) await expectEventMessage('production', request);
      // Each event once: one message each, delivered at the first attempt.
      const ids = messages.map((m) => m.request.headers['webhook-id']);
      expect(new Set(ids).size).toBe(ids.length);
      const received = messages.map((m) => kindOf(m.envelope));
      expect([...received].sort()).toEqual([...kinds].sort());
      // What the pipeline guarantees about their order, whichever way the viewer and the analysis race.
      const position = (kind: string) => received.indexOf(kind);
      for (let i = 1; i < kinds.length; i++) {
        if (kinds[i - 1]?.endsWith('contract_viewer') || kinds[i - 1] === kinds[i]) continue;
        expect(position(kinds[i - 1] as string)).toBeLessThan(position(kinds[i] as string));
      }
      // The latest event shows the contract review exactly as GET shows it now (nothing changed since);
      // deliveries run side by side, so latest by when the event happened, not by arrival.
      const latest = [...messages]
        .sort((a, b) => a.envelope.timestamp.localeCompare(b.envelope.timestamp))
        .at(-1);
      expect(latest?.envelope.data.contract_review).toEqual(final);
      for (const { request } of messages) {
        const { message } = await recorded('production', request);
        expect(message.state).toBe('delivered');
        expect(message.attemptsInRound).toBe(1);
      }
    }

    // The review as each event showed it at that moment.
    const information = messagesAbout(all, reviews.information.id).map((m) => m.envelope);
    const of = (kind: string) => information.find((e) => kindOf(e) === kind)?.data.contract_review;
    expect(of(ANALYSIS_COMPLETED).lawyer_review.state).toBe('not_requested');
    expect(of(REVIEW_REQUESTED).lawyer_review.state).toBe('requested');
    expect(of(REVIEW_COMPLETED).lawyer_review.state).toBe('completed');
    expect(publication(of(REVIEW_COMPLETED), 'review')?.state).toBe('pending');
    expect(publication(of(`${PUBLISHED} review`), 'review')?.state).toBe('published');
    expect(publication(of(`${PUBLISHED} contract_viewer`), 'contract_viewer')?.state).toBe('published');
    // The first announcement, made at the first failed attempt (the final one follows the give-up).
    const broken = messagesAbout(all, reviews.broken.id)
      .map((m) => m.envelope)
      .sort((a, b) => a.timestamp.localeCompare(b.timestamp))[0];
    expect(broken?.data.contract_review.processing).toEqual({
      state: 'failed',
      completed_at: null,
      failure_reason: 'processing_error',
      failed_at: broken?.timestamp,
    });
    expect(broken?.data.contract_review.id).toBe(reviews.broken.final.id);
    expect(broken?.data.contract_review.version).toBe(reviews.broken.final.version);
  });

  test('filtering: only the subscribed events, only the integration’s own, only the environment’s own', async () => {
    const production = [reviews.information.id, reviews.advice.id, reviews.broken.id];

    // Subscribed to publication.published alone: those three and nothing else of the same contracts.
    const published = production.flatMap((id) => messagesAbout(publishedOnly, id));
    for (const { request } of published) await expectEventMessage('production', request);
    expect(published.map((m) => kindOf(m.envelope)).sort()).toEqual([
      `${PUBLISHED} contract_viewer`,
      `${PUBLISHED} review`,
      `${PUBLISHED} review_snapshot`,
    ]);
    expect(publishedOnly.receiver.requests().length).toBe(3);
    expect(await storedMessages('production', publishedOnly.id)).toHaveLength(3);

    // Another integration's endpoint: its own contract's event, and nothing of this integration's.
    const others = otherIntegration.receiver.requests();
    expect(others.map(aboutReview)).toEqual([reviews.other.id]);
    await expectEventMessage('production', others[0] as ReceivedRequest);
    verifyEach(others, [otherIntegration.secret]);
    expect(await storedMessages('production', otherIntegration.id)).toHaveLength(1);
    for (const endpoint of [all, publishedOnly, sandbox])
      expect(endpoint.receiver.requests(about(reviews.other.id))).toEqual([]);

    // Sandbox: the sandbox endpoint gets the sandbox contract's event; production endpoints do not.
    const sandboxed = sandbox.receiver.requests();
    expect(sandboxed.map(aboutReview)).toEqual([reviews.sandbox.id]);
    const envelope = await expectEventMessage('sandbox', sandboxed[0] as ReceivedRequest);
    expect(envelope.data.contract_review).toEqual(reviews.sandbox.final);
    verifyEach(sandboxed, [sandbox.secret]);
    expect(await storedMessages('sandbox', sandbox.id)).toHaveLength(1);
    for (const endpoint of [all, publishedOnly, otherIntegration])
      expect(endpoint.receiver.requests(about(reviews.sandbox.id))).toEqual([]);
  });
});

describe('subscribing', () => {
  test('an endpoint added after an event gets nothing of it; events subscribed later only from then on', async () => {
    const later = await createEndpoint([PUBLISHED]);
    const id = await send({
      external_reference: `hooks-later-${randomUUID()}`,
      product: 'legal_information',
      review: 'lawyer',
    });
    await waitFor(id, (r) => r.lawyer_review.state === 'requested' && isPublished('contract_viewer')(r));
    // The viewer's publication, the analysis and the review request have happened: now a new endpoint
    // for everything, and the first one subscribes to the rest too. (Here those events were fanned out
    // already; test/api/webhooks-restart.test.ts shows the same when the fan-out comes later, for events
    // recorded while the stack was down: each goes to the endpoints subscribed when it happened.)
    const added = await createEndpoint(CONTRACT_EVENTS);
    const updated = await opsOk(
      'webhook-endpoint-update',
      later.id,
      '--events',
      [PUBLISHED, ANALYSIS_COMPLETED, REVIEW_REQUESTED, REVIEW_COMPLETED].join(','),
    );
    expect(updated.events.sort()).toEqual(
      [ANALYSIS_COMPLETED, REVIEW_REQUESTED, REVIEW_COMPLETED, PUBLISHED].sort(),
    );
    await opsOk('publish-review', id);
    await waitFor(id, isPublished('review'));
    await Promise.all([added.receiver.waitFor(2, about(id)), later.receiver.waitFor(3, about(id))]);
    await untilIdle(ports);

    const addedKinds = messagesAbout(added, id).map((m) => kindOf(m.envelope));
    expect(addedKinds).toEqual([REVIEW_COMPLETED, `${PUBLISHED} review`]);
    const laterKinds = messagesAbout(later, id).map((m) => kindOf(m.envelope));
    expect(laterKinds).toEqual([`${PUBLISHED} contract_viewer`, REVIEW_COMPLETED, `${PUBLISHED} review`]);
    for (const endpoint of [added, later])
      for (const { request } of messagesAbout(endpoint, id)) await expectEventMessage('production', request);
    // Nothing was kept back for them either: no message of the earlier events exists.
    expect((await storedMessages('production', added.id)).map((m) => m.type).sort()).toEqual(
      [REVIEW_COMPLETED, PUBLISHED].sort(),
    );
    expect((await storedMessages('production', later.id)).map((m) => m.type).sort()).toEqual(
      [PUBLISHED, REVIEW_COMPLETED, PUBLISHED].sort(),
    );
  });

  test('a disabled endpoint: its waiting message is attempted on schedule without a request, and new events make none', async () => {
    // The first attempt is held until the endpoint is disabled, then answered 500.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const disabled = await createEndpoint([PUBLISHED, WITHDRAWN], {
      policy: async () => {
        await held;
        return 500;
      },
    });
    const watcher = await createEndpoint([WITHDRAWN]);
    const id = await send({
      external_reference: `hooks-disabled-${randomUUID()}`,
      product: 'contract_viewer',
    });
    const [first] = await disabled.receiver.waitFor(1, about(id));
    const shown = await opsOk('webhook-endpoint-update', disabled.id, '--disable');
    expect(shown).toMatchObject({ id: disabled.id, enabled: false });
    release();

    const messageId = first?.headers['webhook-id'] as string;
    await waitForMessage('production', messageId, (state) => state !== 'pending');
    // An event while it is disabled (the watcher shows it happened and was fanned out).
    await opsOk('withdraw', id, '--channel', 'contract_viewer');
    await watcher.receiver.waitFor(1, about(id));
    await untilIdle(ports);

    expect(disabled.receiver.requests()).toHaveLength(1);
    const messages = await messagesOf(disabled.id);
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message).toMatchObject({ id: messageId, type: PUBLISHED, state: 'failed', round: 1 });
    expect(message.next_attempt_at).toBeNull();
    expect(message.attempts.map((a: { number: number }) => a.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(message.attempts[0]).toMatchObject({ round: 1, status: 500, error: null });
    for (const attempt of message.attempts.slice(1))
      expect(attempt).toMatchObject({ round: 1, status: null, error: 'the endpoint is disabled' });
    verifyEach(disabled.receiver.requests(), [disabled.secret]);
  });
});

describe('the retry schedule', () => {
  let failing: Endpoint;
  let messageId: string;

  test('a receiver answering 500 gets exactly 8 attempts of one message, each freshly signed, then it is failed', async () => {
    failing = await createEndpoint([PUBLISHED], {
      policy: () => ({ status: 500, body: 'down for maintenance' }),
    });
    const id = await send({ external_reference: `hooks-retry-${randomUUID()}`, product: 'contract_viewer' });
    const attempts = await failing.receiver.waitFor(8, about(id));
    // The delivery run gives up after its 8th attempt: once nothing is under way, no 9th comes.
    await untilIdle(ports);
    expect(failing.receiver.requests(about(id))).toHaveLength(8);

    messageId = attempts[0]?.headers['webhook-id'] as string;
    expect(messageId).toMatch(/^msg_/);
    for (const request of attempts) {
      expect(request.headers['webhook-id']).toBe(messageId);
      // The same envelope every time (its timestamp is when the event happened)...
      expect(request.body).toBe(attempts[0]?.body);
      // ...signed afresh: webhook-timestamp is the attempt's own time.
      const signedAt = Number(request.headers['webhook-timestamp']);
      expect(Number.isInteger(signedAt)).toBe(true);
      expect(Math.abs(signedAt - Math.floor(request.at / 1000))).toBeLessThanOrEqual(3);
    }
    verifyEach(attempts, [failing.secret]);
    await expectEventMessage('production', attempts[0] as ReceivedRequest);
    // Different timestamps, different signatures: the first and last attempts are seconds apart.
    expect(attempts[7]?.headers['webhook-timestamp']).not.toBe(attempts[0]?.headers['webhook-timestamp']);
    expect(attempts[7]?.headers['webhook-signature']).not.toBe(attempts[0]?.headers['webhook-signature']);

    const [message] = (await messagesOf(failing.id)).filter((m) => m.id === messageId);
    expect(message).toMatchObject({ state: 'failed', round: 1, next_attempt_at: null });
    expect(message.attempts).toHaveLength(8);
    expect(message.attempts.map((a: { number: number }) => a.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const attempt of message.attempts) {
      expect(attempt).toMatchObject({ round: 1, status: 500, error: null, body: 'down for maintenance' });
      expect(attempt.at).toMatch(TIME);
    }
    const times = message.attempts.map((a: { at: string }) => a.at);
    expect([...times].sort()).toEqual(times);
    expect(new Set(times).size).toBe(8);
  });

  test('redelivery of the failed message: the same webhook-id, a second round, delivered', async () => {
    failing.receiver.setPolicy(() => 200);
    const before = failing.receiver.requests(withId(messageId)).length;
    expect(before).toBe(8);
    const redelivered = await opsOk('webhook-redeliver', messageId);
    expect(redelivered).toMatchObject({ id: messageId, state: 'pending', round: 2 });
    const requests = await failing.receiver.waitFor(9, withId(messageId));
    const last = requests[8] as ReceivedRequest;
    expect(last.body).toBe(requests[0]?.body);
    verifyEach([last], [failing.secret]);
    await waitForMessage('production', messageId, (state) => state === 'delivered');
    await untilIdle(ports);
    expect(failing.receiver.requests(withId(messageId))).toHaveLength(9);

    const [message] = (await messagesOf(failing.id)).filter((m) => m.id === messageId);
    expect(message).toMatchObject({ state: 'delivered', round: 2, next_attempt_at: null });
    expect(message.attempts).toHaveLength(9);
    expect(message.attempts[8]).toMatchObject({ round: 2, number: 1, status: 200, error: null });
  });

  test('redelivering a message still being delivered is refused', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = await createEndpoint([PUBLISHED], {
      policy: async () => {
        await held;
        return 204;
      },
    });
    const sent = await opsOk('webhook-test', slow.id);
    await slow.receiver.waitFor(1, withId(sent.id));
    const [refused, unknown] = await Promise.all([
      ops(stack, 'webhook-redeliver', sent.id),
      ops(stack, 'webhook-redeliver', 'msg_doesnotexist000000000000'),
    ]);
    release();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('still being delivered');
    await waitForMessage('production', sent.id, (state) => state === 'delivered');
    const [message] = await messagesOf(slow.id);
    expect(message).toMatchObject({ id: sent.id, state: 'delivered', round: 1 });
    expect(message.attempts).toEqual([expect.objectContaining({ number: 1, status: 204 })]);
    expect(slow.receiver.requests()).toHaveLength(1);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no webhook message');
  });
});

describe('the wait for the lawyer', () => {
  test('a review that waits (scaled) days: the run still waits after a failing receiver’s 8 attempts, then completes through its task token', async () => {
    const failing = await createEndpoint([REVIEW_REQUESTED], {
      policy: () => ({ status: 500, body: 'down for maintenance' }),
    });
    const id = await send({
      external_reference: `hooks-wait-${randomUUID()}`,
      product: 'legal_information',
      review: 'lawyer',
    });
    // lawyer_review.requested is attempted on the schedule, 1 minute to 24 hours apart, about 1.9 days
    // from the first attempt to the 8th (seconds at this DELAY_SCALE): once the 8th has come, more than
    // a (scaled) day has passed since the review was requested.
    await failing.receiver.waitFor(8, about(id));
    const runsOf = () => unfinishedRunsOf(ports.production, id);
    expect(await runsOf()).toEqual([
      { kind: 'contract', environment: 'production', contractReviewId: id, version: 1 },
    ]);
    expect((await ports.production.contractReviews.get(id))?.lawyerReview).toMatchObject({
      state: 'requested',
      waitToken: `local-wait/production/${id}/v1/contract/AwaitLawyerReview`,
    });

    await opsOk('publish-review', id);
    await waitFor(id, isPublished('review'));
    await eventually(runsOf, (runs) => runs.length === 0, { what: `no run of ${id} unfinished` });
  });
});

describe('test events and secret rotation', () => {
  test('a test event: type test, test true, the data shape of publication.published', async () => {
    const endpoint = await createEndpoint([REVIEW_COMPLETED]);
    const sent = await opsOk('webhook-test', endpoint.id);
    expect(sent).toMatchObject({ id: expect.stringMatching(/^msg_/), type: 'test', test: true });
    const [request] = await endpoint.receiver.waitFor(1, withId(sent.id));
    const [envelope] = verifyEach([request as ReceivedRequest], [endpoint.secret]);
    expect(envelope).toEqual({
      type: 'test',
      timestamp: expect.stringMatching(TIME),
      test: true,
      data: { channel: expect.any(String), url: expect.any(String), contract_review: expect.any(Object) },
    });
    expect(Object.keys(envelope?.data ?? {}).sort()).toEqual(['channel', 'contract_review', 'url']);
    expect(['contract_viewer', 'review', 'review_snapshot']).toContain(envelope?.data.channel);
    expect(publication(envelope?.data.contract_review, envelope?.data.channel)).toMatchObject({
      state: 'published',
      url: envelope?.data.url,
    });
    await waitForMessage('production', sent.id, (state) => state === 'delivered');
  });

  test('the message list pages newest first and keeps a state; one message shows its envelope and attempts', async () => {
    // The first two messages the receiver sees always fail; any other is delivered.
    const failing = new Set<string>();
    const endpoint = await createEndpoint([PUBLISHED], {
      policy: (request) => {
        const id = request.headers['webhook-id'] as string;
        if (failing.size < 2) failing.add(id);
        return failing.has(id) ? 500 : 204;
      },
    });
    const sent: string[] = [];
    for (let i = 0; i < 3; i++) {
      sent.push((await opsOk('webhook-test', endpoint.id)).id);
      await endpoint.receiver.waitFor(i + 1);
    }
    await waitForMessage('production', sent[0] as string, (state) => state === 'failed');
    await waitForMessage('production', sent[1] as string, (state) => state === 'failed');
    await waitForMessage('production', sent[2] as string, (state) => state === 'delivered');

    const first = await opsOk('webhook-messages', endpoint.id, '--limit', '2');
    expect(first.data.map((m: { id: string }) => m.id)).toEqual([sent[2], sent[1]]);
    expect(first.has_more).toBe(true);
    const rest = await opsOk(
      'webhook-messages',
      endpoint.id,
      '--limit',
      '2',
      '--starting-after',
      sent[1] as string,
    );
    expect(rest).toMatchObject({ data: [{ id: sent[0] }], has_more: false });
    const failed = await opsOk('webhook-messages', endpoint.id, '--state', 'failed');
    expect(failed.data.map((m: { id: string }) => m.id)).toEqual([sent[1], sent[0]]);
    const delivered = await opsOk('webhook-messages', endpoint.id, '--state', 'delivered');
    expect(delivered.data.map((m: { id: string }) => m.id)).toEqual([sent[2]]);

    const one = await opsOk('webhook-message', sent[0] as string);
    expect(one).toMatchObject({
      id: sent[0],
      endpoint_id: endpoint.id,
      type: 'test',
      state: 'failed',
      envelope: {
        type: 'test',
        test: true,
        timestamp: expect.stringMatching(TIME),
        data: expect.any(Object),
      },
    });
    expect(one.attempts).toHaveLength(8);
    expect(one.attempts[0]).toMatchObject({
      round: 1,
      number: 1,
      status: 500,
      at: expect.stringMatching(TIME),
    });
    const refused = await ops(stack, 'webhook-messages', endpoint.id, '--state', 'lost');
    expect(refused.stderr).toMatch(/filter_invalid/);
    const unknown = await ops(stack, 'webhook-messages', endpoint.id, '--starting-after', 'msg_unknown');
    expect(unknown.stderr).toMatch(/starting_after_invalid/);
  }, 180_000); // two whole retry schedules and a dozen `ops` processes: about 35 s idle, twice that loaded

  test('after a rotation the next message carries two signatures: it verifies with the old secret and with the new', async () => {
    const endpoint = await createEndpoint([PUBLISHED]);
    const old = endpoint.secret;
    const before = await opsOk('webhook-test', endpoint.id);
    const [first] = await endpoint.receiver.waitFor(1, withId(before.id));

    const rotated = await opsOk('webhook-endpoint-rotate-secret', endpoint.id);
    expect(rotated).toEqual({ id: endpoint.id, secret: expect.stringMatching(/^whsec_/) });
    const fresh = rotated.secret as string;
    expect(fresh).not.toBe(old);
    expect((await ports.production.webhookEndpoints.get(endpoint.id))?.secrets).toHaveLength(2);

    const after = await opsOk('webhook-test', endpoint.id);
    const [next] = await endpoint.receiver.waitFor(1, withId(after.id));
    const firstRequest = first as ReceivedRequest;
    const nextRequest = next as ReceivedRequest;

    // Before: one signature, the old secret's.
    expect(firstRequest.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(verifies(firstRequest, old)).toBe(true);
    expect(verifies(firstRequest, fresh)).toBe(false);
    // After: two, space-separated, and each secret alone verifies the message.
    const signatures = nextRequest.headers['webhook-signature']?.split(' ') ?? [];
    expect(signatures).toHaveLength(2);
    for (const signature of signatures) expect(signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    verifyEach([nextRequest], [old, fresh]);
    const stranger = `whsec_${randomBytes(32).toString('base64')}`;
    expect(verifies(nextRequest, stranger)).toBe(false);
    // One signature per secret.
    const withOnly = (signature: string): ReceivedRequest => ({
      ...nextRequest,
      headers: { ...nextRequest.headers, 'webhook-signature': signature },
    });
    const [one, two] = signatures as [string, string];
    expect([verifies(withOnly(one), fresh), verifies(withOnly(one), old)]).toEqual([true, false]);
    expect([verifies(withOnly(two), fresh), verifies(withOnly(two), old)]).toEqual([false, true]);
  });
});

describe('SSRF refusals at registration', () => {
  test('private, metadata, CGNAT, unique-local and plain-http public addresses are refused, loopback http is accepted locally', async () => {
    const stored = async () =>
      (await ports.production.webhookEndpoints.listByIntegration(boot.integration_id)).map((e) => e.url);
    const before = await stored();
    const refusals: Array<[string, string]> = [
      ['https://10.0.0.1/hooks', 'its host 10.0.0.1 is a private address'],
      ['https://192.168.1.1/hooks', 'its host 192.168.1.1 is a private address'],
      ['https://169.254.169.254/latest/meta-data/', 'its host 169.254.169.254 is the cloud metadata address'],
      ['https://100.64.0.1/hooks', 'its host 100.64.0.1 is a carrier-grade NAT address'],
      ['https://[fd12:3456:789a::1]/hooks', 'is a unique-local address'],
      ['http://hooks.example.com/hooks', 'it must use https, not http'],
    ];
    // Every endpoint above has been http://127.0.0.1:…; the other loopback forms are accepted too.
    const loopback = ['http://localhost:9/hooks', 'http://[::1]:9/hooks'];
    const create = (url: string) =>
      ops(
        stack,
        'webhook-endpoint-create',
        '--environment',
        'production',
        '--url',
        url,
        '--events',
        WITHDRAWN,
      );
    const [refused, accepted] = await Promise.all([
      Promise.all(refusals.map(([url]) => create(url))),
      Promise.all(loopback.map(create)),
    ]);
    refused.forEach((result, i) => {
      const [url, reason] = refusals[i] as [string, string];
      expect({ url, code: result.code, stdout: result.stdout }).toEqual({ url, code: 1, stdout: '' });
      expect(result.stderr).toContain('ops: request_invalid: This endpoint address cannot be used: ');
      expect(result.stderr).toContain(reason);
    });
    for (const result of accepted) {
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      expect(result.json?.secret).toMatch(/^whsec_/);
    }
    // Only the loopback ones were recorded.
    expect((await stored()).filter((url) => !before.includes(url)).sort()).toEqual([...loopback].sort());
  });
});

test('every message every receiver got verifies with its endpoint’s secret', () => {
  const total = endpoints.reduce((sum, endpoint) => sum + endpoint.receiver.requests().length, 0);
  expect(total).toBeGreaterThan(30);
  for (const endpoint of endpoints) verifyEach(endpoint.receiver.requests(), [endpoint.secret]);
});
