// mcp -> the tools of an integration's webhook endpoints and their messages in one environment: the same
// core functions as the portal's webhook pages. An endpoint's secret is answered once (creation,
// rotation); a test event and a redelivery send real HTTP requests to the endpoint's address.
import * as z from 'zod/mini';
import { fail } from '../../core/errors';
import type { Environment } from '../../core/model';
import {
  CreatedWebhookEndpointShape,
  DeletedWebhookEndpointShape,
  listOf,
  pageOf,
  RotatedWebhookSecretShape,
  WebhookEndpointShape,
  WebhookMessageDetailShape,
  WebhookMessageShape,
} from '../../core/shapes';
import { redeliverMessage, sendTestEvent } from '../../core/webhooks/delivery';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  endpointScope,
  listWebhookEndpoints,
  presentWebhookEndpoint,
  rotateWebhookEndpointSecret,
  setWebhookEndpointEnabled,
  updateWebhookEndpointEvents,
} from '../../core/webhooks/endpoints';
import {
  getWebhookMessage,
  listWebhookMessages,
  messageScope,
  presentWebhookMessage,
} from '../../core/webhooks/messages';
import { callerIntegration } from './api-key-tools';
import { callerOrganisation } from './organisation-tools';
import {
  boundedString,
  described,
  environmentArgument,
  integrationIdArgument,
  limitArgument,
  startingAfterArgument,
} from './shapes';
import { type Tool, type ToolContext, tool } from './tool';

const endpointIdArgument = described(boundedString(100), 'A webhook endpoint id, `whe_…`.');
const messageIdArgument = described(boundedString(100), 'A webhook message id, `msg_…`.');
const eventsArgument = described(
  z.array(z.string()),
  'Event types named in full, no wildcards (list_event_types lists them), at least one.',
);

const servicesOf = (context: ToolContext, environment: Environment) =>
  context.workspace.environments[environment];

/** The caller's endpoint in one environment, with that environment's services. */
const callerEndpoint = async (context: ToolContext, environment: Environment, endpointId: string) => {
  const services = servicesOf(context, environment);
  const scope = await endpointScope(services.ports, await callerOrganisation(context), endpointId);
  return { ...services, scope };
};

/** The caller's message in one environment, with that environment's services. */
const callerMessage = async (context: ToolContext, environment: Environment, messageId: string) => {
  const services = servicesOf(context, environment);
  const scope = await messageScope(services.ports, await callerOrganisation(context), messageId);
  return { ...services, scope };
};

const secretNotice =
  "The answer carries the signing secret (whsec_…) this once: it passes through your model provider, so put it straight into the receiver's secret store and do not repeat it.";

export const webhookTools: Tool[] = [
  tool({
    name: 'create_webhook_endpoint',
    title: 'Create a webhook endpoint',
    description: `Registers an address (https, public) to receive signed webhook messages of the chosen events for an integration in one environment; from now on the service sends it real HTTP requests. ${secretNotice}`,
    input: z.strictObject({
      environment: environmentArgument,
      integration_id: integrationIdArgument,
      url: described(z.string().check(z.maxLength(2048)), 'The receiver address, https to a public host.'),
      events: eventsArgument,
    }),
    output: CreatedWebhookEndpointShape,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    call: async (context, { environment, integration_id, url, events }) => {
      const { ports, settings } = servicesOf(context, environment);
      const scope = await callerIntegration(context, environment, integration_id);
      const { endpoint, secret } = await createWebhookEndpoint(
        ports,
        scope,
        { url, events },
        { allowLoopbackHttp: settings.allowLoopbackWebhooks },
      );
      return { endpoint: presentWebhookEndpoint(endpoint, ports.clock.now()), secret };
    },
  }),
  tool({
    name: 'list_webhook_endpoints',
    title: 'List webhook endpoints',
    description:
      "Lists an integration's webhook endpoints in one environment, with their events and whether each is enabled. Never their secrets. Changes nothing.",
    input: z.strictObject({ environment: environmentArgument, integration_id: integrationIdArgument }),
    output: listOf(WebhookEndpointShape),
    annotations: { readOnlyHint: true, openWorldHint: false },
    call: async (context, { environment, integration_id }) => {
      const { ports } = servicesOf(context, environment);
      return listWebhookEndpoints(ports, await callerIntegration(context, environment, integration_id));
    },
  }),
  tool({
    name: 'update_webhook_endpoint',
    title: 'Change a webhook endpoint',
    description:
      'Changes the events an endpoint receives (events kept keep their subscription; new ones start now; events dropped stop at once) and/or turns it off or on (`enabled`: a disabled endpoint gets no messages of events that happen meanwhile). Give `events`, `enabled`, or both.',
    input: z.strictObject({
      environment: environmentArgument,
      endpoint_id: endpointIdArgument,
      events: z.optional(eventsArgument),
      enabled: z.optional(described(z.boolean(), 'false turns the endpoint off, true on again.')),
    }),
    output: WebhookEndpointShape,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    call: async (context, { environment, endpoint_id, events, enabled }) => {
      if (events === undefined && enabled === undefined)
        fail('request_invalid', 'Nothing to change: give `events`, `enabled`, or both.');
      const { ports, scope } = await callerEndpoint(context, environment, endpoint_id);
      let endpoint =
        events === undefined
          ? undefined
          : await updateWebhookEndpointEvents(ports, scope, endpoint_id, events);
      if (enabled !== undefined)
        endpoint = await setWebhookEndpointEnabled(ports, scope, endpoint_id, enabled);
      if (endpoint === undefined) throw new Error('no change was made');
      return presentWebhookEndpoint(endpoint, ports.clock.now());
    },
  }),
  tool({
    name: 'rotate_webhook_endpoint_secret',
    title: "Rotate a webhook endpoint's secret",
    description: `Makes a new signing secret for an endpoint; the old one keeps signing beside it (two signatures) for 24 hours, so the receiver can switch over. ${secretNotice}`,
    input: z.strictObject({ environment: environmentArgument, endpoint_id: endpointIdArgument }),
    output: RotatedWebhookSecretShape,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    call: async (context, { environment, endpoint_id }) => {
      const { ports, scope } = await callerEndpoint(context, environment, endpoint_id);
      const { endpoint, secret } = await rotateWebhookEndpointSecret(ports, scope, endpoint_id);
      return { id: endpoint.id, secret };
    },
  }),
  tool({
    name: 'delete_webhook_endpoint',
    title: 'Delete a webhook endpoint',
    description:
      'Deletes an endpoint: it gets no more messages, and it cannot be undone (its past messages stay readable). Only when the person asked for it.',
    input: z.strictObject({ environment: environmentArgument, endpoint_id: endpointIdArgument }),
    output: DeletedWebhookEndpointShape,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    call: async (context, { environment, endpoint_id }) => {
      const { ports, scope } = await callerEndpoint(context, environment, endpoint_id);
      await deleteWebhookEndpoint(ports, scope, endpoint_id);
      return { id: endpoint_id, deleted: true as const };
    },
  }),
  tool({
    name: 'send_test_event',
    title: 'Send a test event',
    description:
      "Sends a real, signed HTTP POST to the endpoint's address: an event of type `test` (`test` true) with the data shape of contract-reviews.publication.published, whatever events the endpoint chose; retried like any message. Refused with endpoint_disabled while the endpoint is disabled. Answers the message; read its attempts with get_webhook_message.",
    input: z.strictObject({ environment: environmentArgument, endpoint_id: endpointIdArgument }),
    output: WebhookMessageShape,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    call: async (context, { environment, endpoint_id }) => {
      const { ports, settings, scope } = await callerEndpoint(context, environment, endpoint_id);
      return presentWebhookMessage(await sendTestEvent(ports, scope, endpoint_id, settings.pagesBaseUrl));
    },
  }),
  tool({
    name: 'list_webhook_messages',
    title: "List an endpoint's messages",
    description:
      "Lists an endpoint's messages, newest first, a page at a time ({data, has_more}; pass the last id as starting_after for the next page), only those in `state` when given. Changes nothing.",
    input: z.strictObject({
      environment: environmentArgument,
      endpoint_id: endpointIdArgument,
      state: z.optional(described(WebhookMessageShape.shape.state, 'Only messages in this state.')),
      limit: limitArgument,
      starting_after: startingAfterArgument,
    }),
    output: pageOf(WebhookMessageShape),
    annotations: { readOnlyHint: true, openWorldHint: false },
    call: async (context, { environment, endpoint_id, state, limit, starting_after }) => {
      const { ports, scope } = await callerEndpoint(context, environment, endpoint_id);
      const pairs: Array<[string, string]> = [];
      if (state !== undefined) pairs.push(['state', state]);
      if (limit !== undefined) pairs.push(['limit', String(limit)]);
      if (starting_after !== undefined) pairs.push(['starting_after', starting_after]);
      return listWebhookMessages(ports, scope, endpoint_id, pairs);
    },
  }),
  tool({
    name: 'get_webhook_message',
    title: 'Get a webhook message',
    description:
      'Reads one message: its state, the envelope every attempt sends, and every attempt of every round (time, HTTP status or error, duration, the first 1 KiB of the answer). Changes nothing.',
    input: z.strictObject({ environment: environmentArgument, message_id: messageIdArgument }),
    output: WebhookMessageDetailShape,
    annotations: { readOnlyHint: true, openWorldHint: false },
    call: async (context, { environment, message_id }) => {
      const { ports, scope } = await callerMessage(context, environment, message_id);
      return getWebhookMessage(ports, scope, message_id);
    },
  }),
  tool({
    name: 'redeliver_webhook_message',
    title: 'Redeliver a webhook message',
    description:
      "Sends a delivered or failed message again: a new round of up to 8 real HTTP attempts to the endpoint's address, with the same webhook-id (the receiver drops it if it handled it already). Answers the message.",
    input: z.strictObject({ environment: environmentArgument, message_id: messageIdArgument }),
    output: WebhookMessageShape,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    call: async (context, { environment, message_id }) => {
      const { ports, scope } = await callerMessage(context, environment, message_id);
      return presentWebhookMessage(await redeliverMessage(ports, scope, message_id));
    },
  }),
];
