// core -> an endpoint's messages as people and agents read them (decisions.md §10): a page of them newest
// first, by state if asked, and one message with the envelope it carries and every attempt of every
// round. The operator tool, the portal and the MCP server call these.
import * as z from 'zod/mini';
import { notFound } from '../errors';
import { isWebhookMessageId } from '../ids';
import { type QueryPairs, readListQuery, startingAfterInvalid } from '../lists';
import type { Scope } from '../model';
import type { Ports } from '../ports';
import { presentList } from '../present';
import { isOrganisations, sameScope } from '../scope';
import type { DeliveryAttemptJson, PageOf, WebhookMessageDetailJson, WebhookMessageJson } from '../shapes';
import { formatTime, formatTimeOrNull } from '../time';
import { ownEndpoint } from './endpoints';
import type { DeliveryAttempt, WebhookMessage } from './model';
import { envelopeBody } from './signing';

export const MESSAGE_STATES: readonly WebhookMessage['state'][] = ['pending', 'delivered', 'failed'];

const isMessageState = (value: string): value is WebhookMessage['state'] =>
  (MESSAGE_STATES as readonly string[]).includes(value);

export const presentDeliveryAttempt = (attempt: DeliveryAttempt): DeliveryAttemptJson => ({
  round: attempt.round,
  number: attempt.number,
  at: formatTime(attempt.at),
  status: attempt.status,
  error: attempt.error,
  duration_ms: attempt.durationMs,
  /** At most 1 KiB of the endpoint's answer. */
  body: attempt.body,
});

export const presentWebhookMessage = (message: WebhookMessage): WebhookMessageJson => ({
  id: message.id,
  endpoint_id: message.endpointId,
  type: message.type,
  test: message.test,
  state: message.state,
  round: message.round,
  attempts_in_round: message.attemptsInRound,
  next_attempt_at: formatTimeOrNull(message.nextAttemptAt),
  created_at: formatTime(message.createdAt),
});

/** The endpoint's messages, newest first: `limit`, `starting_after` and `state` as the API's lists read them. */
const MESSAGE_FILTERS = { state: z.string().check(z.refine(isMessageState)) };

export const listWebhookMessages = async (
  ports: Pick<Ports, 'clock' | 'ids' | 'webhookEndpoints' | 'webhookMessages'>,
  scope: Scope,
  endpointId: string,
  query: QueryPairs,
): Promise<PageOf<WebhookMessageJson>> => {
  await ownEndpoint(ports, scope, endpointId);
  const { limit, startingAfter, filters } = readListQuery(query, MESSAGE_FILTERS);
  const state = filters.state as WebhookMessage['state'] | undefined;
  let after: WebhookMessage | undefined;
  if (startingAfter !== undefined) {
    // Its position is its creation, which never changes: a message that left the state asked for since
    // the last page still marks where that page ended.
    const message = isWebhookMessageId(startingAfter) ? await ports.webhookMessages.get(startingAfter) : null;
    if (message === null || message.endpointId !== endpointId || !sameScope(message.scope, scope))
      return startingAfterInvalid();
    after = message;
  }
  const page = await ports.webhookMessages.listByEndpoint(endpointId, {
    limit,
    ...(state && { state }),
    ...(after && { startingAfter: after }),
  });
  return presentList(page, presentWebhookMessage);
};

/**
 * The scope of one of the organisation's messages in this environment, for callers that name a message
 * by its id alone (the portal, the MCP server); another organisation's message is not found.
 */
export const messageScope = async (
  ports: Pick<Ports, 'webhookMessages' | 'environment'>,
  organisationId: string,
  messageId: string,
): Promise<Scope> => {
  const message = isWebhookMessageId(messageId) ? await ports.webhookMessages.get(messageId) : null;
  if (message === null || !isOrganisations(message.scope, organisationId, ports.environment))
    throw notFound('webhook message');
  return message.scope;
};

/** One message of the caller's: what it is, the envelope every attempt sends, and every attempt. */
export const getWebhookMessage = async (
  ports: Pick<Ports, 'webhookMessages'>,
  scope: Scope,
  messageId: string,
): Promise<WebhookMessageDetailJson> => {
  const message = isWebhookMessageId(messageId) ? await ports.webhookMessages.get(messageId) : null;
  if (message === null || !sameScope(message.scope, scope)) throw notFound('webhook message');
  const attempts = await ports.webhookMessages.attempts(message.id);
  return {
    ...presentWebhookMessage(message),
    envelope: JSON.parse(envelopeBody(message)) as Record<string, unknown>,
    attempts: attempts.map(presentDeliveryAttempt),
  };
};
