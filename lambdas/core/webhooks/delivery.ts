// core/webhooks -> from a recorded event to its attempts: the fan-out (one message per endpoint of the
// event's integration subscribed to it when it happened, interface.md "Events"), handed to the delivery
// queue; the attempts of a batch of queued deliveries, each held before it is sent so that copies of one
// delivery send it once, on the schedule of decisions.md §6; the re-drive of deliveries a queue lost; a
// redelivery and a test event.
import { fail, notFound } from '../errors';
import type { ServiceEvent } from '../events';
import { isWebhookMessageId } from '../ids';
import { log } from '../log';
import type { Micros, Scope } from '../model';
import { type AttemptOutcome, type DeliveryRun, type Ports, runName } from '../ports';
import { sameScope } from '../scope';
import { type TimedStep, waitUntil } from '../timed-step';
import { ownEndpoint, receives, signingSecrets } from './endpoints';
import type { DeliveryAttempt, WebhookEndpoint, WebhookMessage } from './model';
import { nextAttemptAt } from './schedule';
import { envelopeBody, TEST_EVENT_TYPE, testEventData, webhookHeaders, webhookTimestamp } from './signing';

/**
 * How long a consumer holds the attempt it makes: the sender's 10 s and a margin. Real time, never
 * scaled by DELAY_SCALE: it covers one send, not a pause of the schedule.
 */
export const CLAIM_MICROS = 30_000_000;

const runOf = (message: WebhookMessage): DeliveryRun => ({
  kind: 'delivery',
  environment: message.scope.environment,
  messageId: message.id,
  round: message.round,
});

/** When a pending message's next attempt may be made: when it is due and no consumer holds it. */
const dueAtOf = (message: WebhookMessage, now: Micros): Micros =>
  Math.max(message.nextAttemptAt ?? now, message.claimedUntil ?? 0);

/**
 * Handing deliveries to the queue is only a head start: each run is recorded with its message, and the
 * re-drive hands on what the queue never got.
 */
const handOn = async (
  ports: Pick<Ports, 'clock' | 'deliveryQueue'>,
  messages: readonly WebhookMessage[],
): Promise<void> => {
  if (messages.length === 0) return;
  const now = ports.clock.now();
  try {
    await ports.deliveryQueue.schedule(
      messages.map((message) => ({ run: runOf(message), dueAt: dueAtOf(message, now) })),
    );
  } catch (error) {
    log.warn('deliveries not handed to the queue; the re-drive will', {
      ids: messages.map((message) => message.id),
      error,
    });
  }
};

/** The message while the round of `run` is under way (pending, the same round); else null. */
const pendingFor = (run: DeliveryRun, message: WebhookMessage | undefined): WebhookMessage | null =>
  message !== undefined && message.round === run.round && message.state === 'pending' ? message : null;

const newMessage = (
  ports: Pick<Ports, 'ids'>,
  fields: Pick<WebhookMessage, 'eventId' | 'endpointId' | 'scope' | 'type' | 'occurredAt' | 'data' | 'test'>,
  now: Micros,
): WebhookMessage => ({
  id: ports.ids.id('msg'),
  ...fields,
  state: 'pending',
  round: 1,
  attemptsInRound: 0,
  nextAttemptAt: now,
  claimedUntil: null,
  createdAt: now,
  updatedAt: now,
});

/** Fans one event out; returns the messages made (none when another fan-out had it already). */
export const fanOutEvent = async (
  ports: Pick<Ports, 'clock' | 'deliveryQueue' | 'ids' | 'webhookEndpoints' | 'webhookMessages'>,
  event: ServiceEvent,
): Promise<WebhookMessage[]> => {
  const endpoints = await ports.webhookEndpoints.listByIntegration(event.scope.integrationId);
  const now = ports.clock.now();
  const messages = endpoints
    .filter(
      (endpoint) =>
        sameScope(endpoint.scope, event.scope) && receives(endpoint, event.type, event.occurredAt),
    )
    .map((endpoint) =>
      newMessage(
        ports,
        {
          eventId: event.id,
          endpointId: endpoint.id,
          scope: event.scope,
          type: event.type,
          occurredAt: event.occurredAt,
          data: event.data,
          test: false,
        },
        now,
      ),
    );
  if (!(await ports.webhookMessages.fanOut(event.id, messages))) return [];
  await handOn(ports, messages);
  return messages;
};

/** What becomes of a queued delivery: nothing more (`done`), or handed on to come back at `dueAt`. */
export type DeliveryStep = TimedStep;

const isSuccess = (status: number | null): boolean => status !== null && status >= 200 && status < 300;

const notSent = (error: string): AttemptOutcome => ({ status: null, error, durationMs: 0, body: '' });

/** A due attempt of a batch: the queued run, the message as read, and as held for this consumer. */
interface DueAttempt {
  index: number;
  run: DeliveryRun;
  message: WebhookMessage;
  held: WebhookMessage;
}

/** Makes a held attempt (signed afresh, the same `webhook-id`): the message as it is after it, and the attempt. */
const makeAttempt = async (
  ports: Pick<Ports, 'clock' | 'webhookSender'>,
  { message, held }: DueAttempt,
  endpoint: WebhookEndpoint | null,
  now: Micros,
  delayScale: number,
): Promise<{ updated: WebhookMessage; attempt: DeliveryAttempt }> => {
  let outcome: AttemptOutcome;
  if (endpoint === null) outcome = notSent('the endpoint was deleted');
  else if (!endpoint.enabled) outcome = notSent('the endpoint is disabled');
  else {
    const body = envelopeBody(held);
    const headers = webhookHeaders(held.id, webhookTimestamp(now), body, signingSecrets(endpoint, now));
    outcome = await ports.webhookSender.send({ url: endpoint.url, headers: { ...headers }, body });
  }
  const number = held.attemptsInRound + 1;
  // The schedule counts from the attempt's end; the record's time only ever moves forward.
  const sentAt = Math.max(ports.clock.now(), message.updatedAt + 1);
  const delivered = isSuccess(outcome.status);
  // A deleted endpoint gets no more attempts; a disabled one is tried on schedule, in case it comes back.
  const next = delivered || endpoint === null ? null : nextAttemptAt(number, sentAt, delayScale);
  return {
    updated: {
      ...held,
      state: delivered ? 'delivered' : next === null ? 'failed' : 'pending',
      attemptsInRound: number,
      nextAttemptAt: next,
      claimedUntil: null,
      updatedAt: Math.max(sentAt, held.updatedAt + 1),
    },
    attempt: { round: held.round, number, at: now, ...outcome },
  };
};

/**
 * The delivery consumer's step for a batch of queued runs, in order: for each whose message's next
 * attempt is due and that no other consumer holds, holds it, makes it and records it; then says when
 * the next one is due, or that nothing more is to do here (delivered, given up after 8, overtaken by a
 * redelivery, or held by another consumer: a queue hands a message out at least once, so copies of one
 * delivery may meet, and only the one that holds the attempt sends it). A copy that comes early waits
 * out the stored due time, so a re-drive neither skips nor repeats an attempt. The batch's messages
 * and endpoints are read at once, and its holds and records written at once (one transaction each
 * when no other writer got in between).
 */
export const attemptDeliveries = async (
  ports: Pick<Ports, 'clock' | 'webhookEndpoints' | 'webhookMessages' | 'webhookSender'>,
  runs: readonly DeliveryRun[],
  delayScale: number,
): Promise<DeliveryStep[]> => {
  const stored = await ports.webhookMessages.getMany(runs.map((run) => run.messageId));
  const now = ports.clock.now();
  const steps: DeliveryStep[] = runs.map(() => ({ done: true }));
  const due: Array<Omit<DueAttempt, 'held'>> = [];
  const taken = new Set<string>();
  for (const [index, run] of runs.entries()) {
    const message = pendingFor(run, stored.get(run.messageId));
    // Held (or two copies in this batch): the holder records the attempt and hands on the next; if it
    // crashed, its own queue message comes back (or the re-drive hands the run on): no copy is needed.
    if (message === null || (message.claimedUntil ?? 0) > now || taken.has(message.id)) continue;
    if (message.nextAttemptAt !== null && message.nextAttemptAt > now) {
      steps[index] = waitUntil(message.nextAttemptAt);
      continue;
    }
    taken.add(message.id);
    due.push({ index, run, message });
  }
  const holding = due.map((attempt) => ({
    ...attempt,
    held: {
      ...attempt.message,
      claimedUntil: now + CLAIM_MICROS,
      updatedAt: Math.max(now, attempt.message.updatedAt + 1),
    },
  }));
  const holds = await ports.webhookMessages.updateMany(
    holding.map(({ held, message }) => ({
      message: held,
      expectedUpdatedAt: message.updatedAt,
      effects: {},
    })),
  );
  // A hold refused: another copy held or made the attempt since this one read the message.
  const attempts = holding.filter((_, i) => holds[i]);
  const endpoints = await ports.webhookEndpoints.getMany(attempts.map(({ held }) => held.endpointId));
  const made = await Promise.all(
    attempts.map(async (attempt) => ({
      ...attempt,
      ...(await makeAttempt(ports, attempt, endpoints.get(attempt.held.endpointId) ?? null, now, delayScale)),
    })),
  );
  const recorded = await ports.webhookMessages.updateMany(
    made.map(({ held, updated, attempt }) => ({
      message: updated,
      expectedUpdatedAt: held.updatedAt,
      effects: { attempt },
    })),
  );
  for (const [i, { index, run, updated, attempt }] of made.entries()) {
    // Not recorded: the hold lapsed before the attempt was (the send outlasted it) and another consumer
    // took the message over; it goes on from what that one records.
    if (!recorded[i]) continue;
    log.info('webhook attempt made', {
      run: runName(run),
      id: updated.id,
      number: attempt.number,
      status: attempt.status,
      error: attempt.error,
      duration_ms: attempt.durationMs,
      state: updated.state,
    });
    if (updated.nextAttemptAt !== null) steps[index] = waitUntil(updated.nextAttemptAt);
  }
  return steps;
};

/** `attemptDeliveries` of one run. */
export const attemptDelivery = async (
  ports: Pick<Ports, 'clock' | 'webhookEndpoints' | 'webhookMessages' | 'webhookSender'>,
  run: DeliveryRun,
  delayScale: number,
): Promise<DeliveryStep> => (await attemptDeliveries(ports, [run], delayScale))[0] ?? { done: true };

/**
 * Hands on again pending deliveries a queue may have lost (deployed, a message past its receives;
 * locally, everything a restart forgot): each of `pending` due and unheld for `overdueBy` is handed on
 * now; with `overdueBy` null (after a start, when the local queue is new and empty), every one at its due
 * time. Answers how many were handed on.
 */
export const redriveDeliveries = async (
  ports: Pick<Ports, 'clock' | 'deliveryQueue'>,
  pending: readonly WebhookMessage[],
  overdueBy: Micros | null,
): Promise<number> => {
  const now = ports.clock.now();
  const lost = pending.filter(
    (message) =>
      message.state === 'pending' && (overdueBy === null || dueAtOf(message, now) + overdueBy <= now),
  );
  await ports.deliveryQueue.schedule(
    lost.map((message) => ({ run: runOf(message), dueAt: dueAtOf(message, now) })),
  );
  return lost.length;
};

/** A message of the scope's own endpoints (another scope's is as unknown as a made-up id). */
const ownMessage = async (
  ports: Pick<Ports, 'webhookMessages'>,
  scope: Scope,
  id: string,
): Promise<WebhookMessage> => {
  const message = isWebhookMessageId(id) ? await ports.webhookMessages.get(id) : null;
  if (message === null || !sameScope(message.scope, scope)) throw notFound('webhook message');
  return message;
};

/** Delivers a message again, as a new round of up to 8 attempts with the same `webhook-id`. */
export const redeliverMessage = async (
  ports: Pick<Ports, 'clock' | 'deliveryQueue' | 'ids' | 'webhookEndpoints' | 'webhookMessages'>,
  scope: Scope,
  id: string,
): Promise<WebhookMessage> => {
  const message = await ownMessage(ports, scope, id);
  if (message.state === 'pending')
    fail(
      'request_invalid',
      `This message is still being delivered (attempt ${message.attemptsInRound + 1} is due); redeliver it once it is delivered or failed.`,
    );
  await ownEndpoint(ports, scope, message.endpointId);
  const now = Math.max(ports.clock.now(), message.updatedAt + 1);
  const next: WebhookMessage = {
    ...message,
    state: 'pending',
    round: message.round + 1,
    attemptsInRound: 0,
    nextAttemptAt: now,
    claimedUntil: null,
    updatedAt: now,
  };
  await ports.webhookMessages.update(next, message.updatedAt, {});
  await handOn(ports, [next]);
  return next;
};

/** A `test` event to one enabled endpoint, whatever its events, with the data shape of `publication.published` (interface.md "Delivery"). */
export const sendTestEvent = async (
  ports: Pick<Ports, 'clock' | 'deliveryQueue' | 'ids' | 'webhookEndpoints' | 'webhookMessages'>,
  scope: Scope,
  endpointId: string,
  pagesBaseUrl: string,
): Promise<WebhookMessage> => {
  const endpoint = await ownEndpoint(ports, scope, endpointId);
  if (!endpoint.enabled)
    fail('endpoint_disabled', 'This endpoint is disabled; enable it to send it a test event.');
  const now = ports.clock.now();
  const message = newMessage(
    ports,
    {
      eventId: null,
      endpointId: endpoint.id,
      scope,
      type: TEST_EVENT_TYPE,
      occurredAt: now,
      data: testEventData(pagesBaseUrl, now),
      test: true,
    },
    now,
  );
  await ports.webhookMessages.create(message);
  await handOn(ports, [message]);
  return message;
};
