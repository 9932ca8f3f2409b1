// core/webhooks -> from a recorded event to its attempts: the fan-out (one message per endpoint of the
// event's integration subscribed to it when it happened, interface.md "Events"), one attempt of a
// message's delivery on the schedule of decisions.md §6, a redelivery and a test event.
import { ActionRefused, ConcurrentChange } from '../errors';
import type { ServiceEvent } from '../events';
import { isWebhookMessageId } from '../ids';
import { log } from '../log';
import type { Micros, Scope } from '../model';
import type { AttemptOutcome, DeliveryRun, Ports } from '../ports';
import { sameScope } from '../scope';
import { type TimedStep, waitUntil } from '../timed-step';
import { ownEndpoint, receives, signingSecrets } from './endpoints';
import type { WebhookMessage } from './model';
import { nextAttemptAt } from './schedule';
import { envelopeBody, TEST_EVENT_TYPE, testEventData, webhookHeaders, webhookTimestamp } from './signing';

type DeliveryPorts = Pick<
  Ports,
  'clock' | 'ids' | 'outbox' | 'runs' | 'webhookEndpoints' | 'webhookMessages' | 'webhookSender' | 'workflows'
>;

const runOf = (message: WebhookMessage): DeliveryRun => ({
  kind: 'delivery',
  environment: message.scope.environment,
  messageId: message.id,
  round: message.round,
});

/** Starting is only a head start: the run is recorded with the message, and a re-drive starts it too. */
const startDelivery = async (ports: DeliveryPorts, message: WebhookMessage): Promise<void> => {
  try {
    await ports.workflows.start(runOf(message));
  } catch (error) {
    log.warn('delivery not started; the re-drive will', { id: message.id, error });
  }
};

const newMessage = (
  ports: DeliveryPorts,
  fields: Pick<WebhookMessage, 'eventId' | 'endpointId' | 'scope' | 'type' | 'occurredAt' | 'data' | 'test'>,
  now: Micros,
): WebhookMessage => ({
  id: ports.ids.id('msg'),
  ...fields,
  state: 'pending',
  round: 1,
  attemptsInRound: 0,
  nextAttemptAt: now,
  createdAt: now,
  updatedAt: now,
});

/** Fans one event out; returns the messages made (none when another fan-out had it already). */
export const fanOutEvent = async (ports: DeliveryPorts, event: ServiceEvent): Promise<WebhookMessage[]> => {
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
  await Promise.all(messages.map((message) => startDelivery(ports, message)));
  return messages;
};

/** What the delivery workflow does next: wait until `dueAt` and attempt again, or stop. */
export type DeliveryStep = TimedStep;

const isSuccess = (status: number | null): boolean => status !== null && status >= 200 && status < 300;

const notSent = (error: string): AttemptOutcome => ({ status: null, error, durationMs: 0, body: '' });

/**
 * The delivery workflow's step: if the message's next attempt is due, makes it (signed afresh, the same
 * `webhook-id`) and records it; then says when the next one is due, or that the round is over
 * (delivered, given up after 8, or overtaken by a redelivery). Called again after a restart, it first
 * waits out the stored due time, so a restart neither skips nor repeats an attempt.
 */
export const attemptDelivery = async (
  ports: DeliveryPorts,
  run: DeliveryRun,
  delayScale: number,
): Promise<DeliveryStep> => {
  const message = await ports.webhookMessages.get(run.messageId);
  if (message === null || message.round !== run.round || message.state !== 'pending') {
    await ports.runs.finish(run, message?.round === run.round ? 'completed' : 'superseded');
    return { done: true };
  }
  const now = ports.clock.now();
  if (message.nextAttemptAt !== null && message.nextAttemptAt > now) return waitUntil(message.nextAttemptAt);

  const endpoint = await ports.webhookEndpoints.get(message.endpointId);
  let outcome: AttemptOutcome;
  if (endpoint === null) outcome = notSent('the endpoint was deleted');
  else if (!endpoint.enabled) outcome = notSent('the endpoint is disabled');
  else {
    const body = envelopeBody(message);
    const headers = webhookHeaders(message.id, webhookTimestamp(now), body, signingSecrets(endpoint, now));
    outcome = await ports.webhookSender.send({ url: endpoint.url, headers: { ...headers }, body });
  }
  const number = message.attemptsInRound + 1;
  const after = Math.max(ports.clock.now(), message.updatedAt + 1);
  const delivered = isSuccess(outcome.status);
  // A deleted endpoint gets no more attempts; a disabled one is tried on schedule, in case it comes back.
  const next = delivered || endpoint === null ? null : nextAttemptAt(number, after, delayScale);
  const updated: WebhookMessage = {
    ...message,
    state: delivered ? 'delivered' : next === null ? 'failed' : 'pending',
    attemptsInRound: number,
    nextAttemptAt: next,
    updatedAt: after,
  };
  try {
    await ports.webhookMessages.update(updated, message.updatedAt, {
      attempt: { round: message.round, number, at: now, ...outcome },
      finish: updated.state === 'pending' ? undefined : run,
    });
  } catch (error) {
    if (!(error instanceof ConcurrentChange)) throw error;
    // Another writer got there first: a redelivery (a newer round takes over), or a retried task of
    // this same run that recorded its attempt (this run goes on from what that one recorded).
    const now = await ports.webhookMessages.get(run.messageId);
    if (now?.round === run.round && now.state === 'pending' && now.nextAttemptAt !== null)
      return waitUntil(now.nextAttemptAt);
    if (now?.round !== run.round) await ports.runs.finish(run, 'superseded');
    return { done: true };
  }
  return next === null ? { done: true } : waitUntil(next);
};

/** A message of the scope's own endpoints (another scope's is as unknown as a made-up id). */
const ownMessage = async (ports: DeliveryPorts, scope: Scope, id: string): Promise<WebhookMessage> => {
  const message = isWebhookMessageId(id) ? await ports.webhookMessages.get(id) : null;
  if (message === null || !sameScope(message.scope, scope))
    throw new ActionRefused(`no webhook message ${id} in this integration and environment`);
  return message;
};

/** Delivers a message again, as a new round of up to 8 attempts with the same `webhook-id`. */
export const redeliverMessage = async (
  ports: DeliveryPorts,
  scope: Scope,
  id: string,
): Promise<WebhookMessage> => {
  const message = await ownMessage(ports, scope, id);
  if (message.state === 'pending')
    throw new ActionRefused(
      `${id} is still being delivered (attempt ${message.attemptsInRound + 1} is due); redeliver it once it is delivered or failed`,
    );
  await ownEndpoint(ports, scope, message.endpointId);
  const now = Math.max(ports.clock.now(), message.updatedAt + 1);
  const next: WebhookMessage = {
    ...message,
    state: 'pending',
    round: message.round + 1,
    attemptsInRound: 0,
    nextAttemptAt: now,
    updatedAt: now,
  };
  await ports.webhookMessages.update(next, message.updatedAt, { start: runOf(next) });
  await startDelivery(ports, next);
  return next;
};

/** A `test` event to one endpoint, with the data shape of `publication.published` (interface.md "Delivery"). */
export const sendTestEvent = async (
  ports: DeliveryPorts,
  scope: Scope,
  endpointId: string,
  pagesBaseUrl: string,
): Promise<WebhookMessage> => {
  const endpoint = await ownEndpoint(ports, scope, endpointId);
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
  await startDelivery(ports, message);
  return message;
};
