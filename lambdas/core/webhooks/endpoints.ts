// core/webhooks -> managing an integration's webhook endpoints in one environment: create (the secret
// shown once), list, change the events, enable or disable, delete, rotate the secret. The operator tool,
// the portal and the MCP server call the same functions.
import { randomBytes } from 'node:crypto';
import { ConcurrentChange, fail, notFound } from '../errors';
import { EVENT_TYPES, type EventType } from '../events';
import { isWebhookEndpointId } from '../ids';
import type { Micros, Scope } from '../model';
import type { Ports } from '../ports';
import { isOrganisations, sameScope } from '../scope';
import type { WebhookEndpointJson } from '../shapes';
import { formatTime } from '../time';
import type { EndpointSecret, WebhookEndpoint } from './model';
import { newSigningSecret } from './signing';
import { checkEndpointUrl } from './target';

/** Endpoints one integration may have in one environment. */
export const MAX_ENDPOINTS = 20;
/** How long a rotated-out secret keeps signing beside the new one, so receivers can switch over. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export interface EndpointPolicy {
  /** The local stack alone accepts http://127.0.0.1, localhost and [::1] (decisions.md §6). */
  allowLoopbackHttp: boolean;
}

type EndpointPorts = Pick<Ports, 'webhookEndpoints' | 'ids' | 'clock'>;

/** The chosen events: each a named event kind, at least one, no wildcards, no repeats. */
export const readEvents = (events: readonly string[]): EventType[] => {
  if (events.length === 0) fail('request_invalid', 'Choose at least one event.');
  const unknown = events.filter((e) => !(EVENT_TYPES as readonly string[]).includes(e));
  if (unknown.length > 0)
    fail(
      'request_invalid',
      `Unknown event${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; choose from ${EVENT_TYPES.join(', ')} (no wildcards).`,
    );
  if (new Set(events).size !== events.length) fail('request_invalid', 'An event is named twice.');
  return events as EventType[];
};

const readUrl = (url: string, policy: EndpointPolicy): string => {
  const checked = checkEndpointUrl(url, policy);
  if (!checked.ok) fail('request_invalid', `This endpoint address cannot be used: ${checked.reason}.`);
  return checked.url.href;
};

/** The endpoint, if it is one of the scope's; another scope's id is as unknown as a made-up one. */
export const ownEndpoint = async (
  ports: EndpointPorts,
  scope: Scope,
  id: string,
): Promise<WebhookEndpoint> => {
  const endpoint = isWebhookEndpointId(id) ? await ports.webhookEndpoints.get(id) : null;
  if (endpoint === null || !sameScope(endpoint.scope, scope)) throw notFound('webhook endpoint');
  return endpoint;
};

/**
 * The scope of one of the organisation's endpoints in this environment, for callers that name an endpoint
 * by its id alone (the portal, the MCP server); another organisation's endpoint is not found.
 */
export const endpointScope = async (
  ports: Pick<Ports, 'webhookEndpoints' | 'environment'>,
  organisationId: string,
  id: string,
): Promise<Scope> => {
  const endpoint = isWebhookEndpointId(id) ? await ports.webhookEndpoints.get(id) : null;
  if (endpoint === null || !isOrganisations(endpoint.scope, organisationId, ports.environment))
    throw notFound('webhook endpoint');
  return endpoint.scope;
};

/** The secrets that sign a message sent at `now`: the current one, and a rotated-out one until it expires. */
export const signingSecrets = (endpoint: WebhookEndpoint, now: Micros): string[] =>
  endpoint.secrets.filter((s) => s.expiresAt === null || s.expiresAt > now).map((s) => s.secret);

/** Whether the endpoint receives an event of `type` that happened at `occurredAt`. */
export const receives = (endpoint: WebhookEndpoint, type: EventType, occurredAt: Micros): boolean => {
  const since = endpoint.subscriptions[type];
  return endpoint.enabled && since !== undefined && since <= occurredAt;
};

export const createWebhookEndpoint = async (
  ports: EndpointPorts,
  scope: Scope,
  request: { url: string; events: readonly string[] },
  policy: EndpointPolicy,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> => {
  const url = readUrl(request.url, policy);
  const events = readEvents(request.events);
  const existing = await ports.webhookEndpoints.listByIntegration(scope.integrationId);
  if (existing.length >= MAX_ENDPOINTS)
    fail(
      'request_invalid',
      `An integration has at most ${MAX_ENDPOINTS} endpoints in an environment; delete one to add another.`,
    );
  const now = ports.clock.now();
  const secret = newSigningSecret(randomBytes);
  const endpoint: WebhookEndpoint = {
    id: ports.ids.id('whe'),
    scope,
    url,
    subscriptions: Object.fromEntries(events.map((e) => [e, now])),
    secrets: [{ secret, createdAt: now, expiresAt: null }],
    enabled: true,
    createdAt: now,
    updatedAt: now,
  };
  await ports.webhookEndpoints.create(endpoint);
  return { endpoint, secret };
};

/** Applies `change` to the current endpoint and writes it if nobody changed it meanwhile (else again). */
const changeEndpoint = async (
  ports: EndpointPorts,
  scope: Scope,
  id: string,
  change: (current: WebhookEndpoint, now: Micros) => WebhookEndpoint,
): Promise<WebhookEndpoint> => {
  for (let attempt = 1; ; attempt++) {
    const current = await ownEndpoint(ports, scope, id);
    const now = Math.max(ports.clock.now(), current.updatedAt + 1);
    const next = { ...change(current, now), updatedAt: now };
    try {
      await ports.webhookEndpoints.update(next, current.updatedAt);
      return next;
    } catch (error) {
      if (!(error instanceof ConcurrentChange) || attempt >= 5) throw error;
    }
  }
};

/** Replaces the chosen events: those kept keep their subscription time, new ones start now. */
export const updateWebhookEndpointEvents = async (
  ports: EndpointPorts,
  scope: Scope,
  id: string,
  events: readonly string[],
): Promise<WebhookEndpoint> => {
  const chosen = readEvents(events);
  return changeEndpoint(ports, scope, id, (current, now) => ({
    ...current,
    subscriptions: Object.fromEntries(chosen.map((e) => [e, current.subscriptions[e] ?? now])),
  }));
};

/** A disabled endpoint gets no messages of events that happen while it is disabled. */
export const setWebhookEndpointEnabled = (
  ports: EndpointPorts,
  scope: Scope,
  id: string,
  enabled: boolean,
): Promise<WebhookEndpoint> => changeEndpoint(ports, scope, id, (current) => ({ ...current, enabled }));

export const deleteWebhookEndpoint = async (
  ports: EndpointPorts,
  scope: Scope,
  id: string,
): Promise<void> => {
  await ownEndpoint(ports, scope, id);
  await ports.webhookEndpoints.delete(id);
};

/**
 * A new secret, shown once; the previous one keeps signing beside it for `ROTATION_OVERLAP_MS` (both
 * signatures sent, space-separated), so a receiver can switch without losing a message.
 */
export const rotateWebhookEndpointSecret = async (
  ports: EndpointPorts,
  scope: Scope,
  id: string,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> => {
  const secret = newSigningSecret(randomBytes);
  const endpoint = await changeEndpoint(ports, scope, id, (current, now) => {
    const kept: EndpointSecret[] = current.secrets
      .filter((s) => s.expiresAt === null || s.expiresAt > now)
      .map((s) => ({ ...s, expiresAt: s.expiresAt ?? now + ROTATION_OVERLAP_MS * 1000 }));
    return { ...current, secrets: [{ secret, createdAt: now, expiresAt: null }, ...kept] };
  });
  return { endpoint, secret };
};

/** An endpoint as shown to its owner: never its secrets. */
export const presentWebhookEndpoint = (endpoint: WebhookEndpoint, now: Micros): WebhookEndpointJson => ({
  id: endpoint.id,
  url: endpoint.url,
  events: EVENT_TYPES.filter((e) => endpoint.subscriptions[e] !== undefined),
  enabled: endpoint.enabled,
  environment: endpoint.scope.environment,
  signing_secrets: signingSecrets(endpoint, now).length,
  created_at: formatTime(endpoint.createdAt),
  updated_at: formatTime(endpoint.updatedAt),
});

/** The integration's endpoints in this environment, as shown to their owner (`{data}`, never secrets). */
export const listWebhookEndpoints = async (ports: EndpointPorts, scope: Scope) => {
  const endpoints = await ports.webhookEndpoints.listByIntegration(scope.integrationId);
  const now = ports.clock.now();
  return { data: endpoints.map((endpoint) => presentWebhookEndpoint(endpoint, now)) };
};
