// bin/ops -> the operator tool's webhook endpoint commands (decisions.md §9: `webhook-endpoint-create`
// prints `{"id","secret"}`), over the core functions the portal and the MCP server will call.
import { parseArgs } from 'node:util';
import { ActionRefused } from '../../lambdas/core/errors';
import { listEventTypes } from '../../lambdas/core/events';
import type { Directory } from '../../lambdas/core/organisations';
import { redeliverMessage, sendTestEvent } from '../../lambdas/core/webhooks/delivery';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  ownEndpoint,
  presentWebhookEndpoint,
  rotateWebhookEndpointSecret,
  setWebhookEndpointEnabled,
  updateWebhookEndpointEvents,
} from '../../lambdas/core/webhooks/endpoints';
import {
  getWebhookMessage,
  listWebhookMessages,
  presentWebhookMessage,
} from '../../lambdas/core/webhooks/messages';
import { lookedIn, type Reach, reached, readEnvironment, scopeOf, servicesIn } from './scope';

export const WEBHOOK_USAGE = `  webhook-event-types                   the events an endpoint can subscribe to, each with when it happens
  webhook-endpoint-create --environment E --url U --events a,b [--integration I]
                                        register an endpoint; prints {"id","secret"} (the secret, once)
  webhook-endpoint-list --environment E [--integration I]
  webhook-endpoint-update <whe_id> [--events a,b] [--enable | --disable]
  webhook-endpoint-rotate-secret <whe_id>  a new secret (printed once); the old one signs too for 24 h
  webhook-endpoint-delete <whe_id>
  webhook-test <whe_id>                 send a test event (type "test", the data shape of publication.published)
  webhook-messages <whe_id> [--limit N] [--state pending|delivered|failed] [--starting-after msg_…]
                                        the endpoint's messages, newest first, each with its envelope and attempts
  webhook-message <msg_id>              one message, its envelope and every attempt
  webhook-redeliver <msg_id>            deliver a message again (same webhook-id; up to 8 attempts)`;

/** Which environment's table holds the endpoint, and its scope. */
const findEndpoint = async (services: Reach, id: string | undefined) => {
  if (!id) throw new ActionRefused('name the endpoint: whe_…');
  for (const [, environmentServices] of reached(services)) {
    const endpoint = await environmentServices.ports.webhookEndpoints.get(id);
    if (endpoint) return { ...environmentServices, scope: endpoint.scope };
  }
  throw new ActionRefused(`no webhook endpoint ${id} in ${lookedIn(services)}`);
};

const eventList = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');

/** Runs a webhook command, or returns undefined when `command` is not one. */
export const runWebhookCommand = async (
  command: string,
  argv: string[],
  services: Reach,
  directory: Directory,
): Promise<unknown> => {
  if (!command.startsWith('webhook-')) return undefined;
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      environment: { type: 'string' },
      integration: { type: 'string' },
      url: { type: 'string' },
      events: { type: 'string' },
      enable: { type: 'boolean' },
      disable: { type: 'boolean' },
      limit: { type: 'string' },
      state: { type: 'string' },
      'starting-after': { type: 'string' },
    },
  });
  const [id] = positionals;
  switch (command) {
    case 'webhook-endpoint-create': {
      const environment = readEnvironment(values.environment, services);
      const { ports, settings } = servicesIn(services, environment);
      if (!values.url) throw new ActionRefused('--url is required');
      const { endpoint, secret } = await createWebhookEndpoint(
        ports,
        await scopeOf(directory, environment, values.integration),
        { url: values.url, events: eventList(values.events) },
        { allowLoopbackHttp: settings.allowLoopbackWebhooks },
      );
      return { id: endpoint.id, secret };
    }
    case 'webhook-event-types':
      return listEventTypes();
    case 'webhook-endpoint-list': {
      const environment = readEnvironment(values.environment, services);
      const { ports } = servicesIn(services, environment);
      const scope = await scopeOf(directory, environment, values.integration);
      return listWebhookEndpoints(ports, scope);
    }
    case 'webhook-endpoint-update': {
      const { ports, scope } = await findEndpoint(services, id);
      const endpointId = id as string;
      if (values.enable && values.disable) throw new ActionRefused('--enable or --disable, not both');
      if (values.events === undefined && !values.enable && !values.disable)
        throw new ActionRefused('nothing to change: give --events, --enable or --disable');
      let endpoint = await ownEndpoint(ports, scope, endpointId);
      if (values.events !== undefined)
        endpoint = await updateWebhookEndpointEvents(ports, scope, endpointId, eventList(values.events));
      if (values.enable || values.disable)
        endpoint = await setWebhookEndpointEnabled(ports, scope, endpointId, values.enable === true);
      return presentWebhookEndpoint(endpoint, ports.clock.now());
    }
    case 'webhook-endpoint-rotate-secret': {
      const { ports, scope } = await findEndpoint(services, id);
      const { endpoint, secret } = await rotateWebhookEndpointSecret(ports, scope, id as string);
      return { id: endpoint.id, secret };
    }
    case 'webhook-endpoint-delete': {
      const { ports, scope } = await findEndpoint(services, id);
      await deleteWebhookEndpoint(ports, scope, id as string);
      return { id, deleted: true };
    }
    case 'webhook-test': {
      const { ports, settings, scope } = await findEndpoint(services, id);
      const message = await sendTestEvent(ports, scope, id as string, settings.pagesBaseUrl);
      return { ...presentWebhookMessage(message), attempts: [] };
    }
    case 'webhook-messages': {
      const { ports, scope } = await findEndpoint(services, id);
      const pairs: Array<[string, string]> = [];
      if (values.limit !== undefined) pairs.push(['limit', values.limit]);
      if (values.state !== undefined) pairs.push(['state', values.state]);
      if (values['starting-after'] !== undefined) pairs.push(['starting_after', values['starting-after']]);
      const page = await listWebhookMessages(ports, scope, id as string, pairs);
      // The operator reads each message whole: its envelope and every attempt.
      return {
        ...page,
        data: await Promise.all(page.data.map((m) => getWebhookMessage(ports, scope, m.id))),
      };
    }
    case 'webhook-message': {
      if (!id) throw new ActionRefused('name the message: msg_…');
      for (const [, { ports }] of reached(services)) {
        const message = await ports.webhookMessages.get(id);
        if (message) return getWebhookMessage(ports, message.scope, id);
      }
      throw new ActionRefused(`no webhook message ${id} in ${lookedIn(services)}`);
    }
    case 'webhook-redeliver': {
      if (!id) throw new ActionRefused('name the message: msg_…');
      for (const [, { ports }] of reached(services)) {
        const message = await ports.webhookMessages.get(id);
        if (message) return presentWebhookMessage(await redeliverMessage(ports, message.scope, id));
      }
      throw new ActionRefused(`no webhook message ${id} in ${lookedIn(services)}`);
    }
    default:
      throw new ActionRefused(`unknown command ${command}`);
  }
};
