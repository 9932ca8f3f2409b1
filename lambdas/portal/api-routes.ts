// portal -> the JSON routes the portal's pages call, each a thin step from the request to one core
// function (the same ones the MCP server calls): the person's organisation and integrations, and per
// environment (in the path: `/api/sandbox/…`, `/api/production/…`) API keys, webhook endpoints, their
// messages and request history; and the MCP clients the person let act for them. Every id is checked
// against the signed-in person's organisation by the core: another organisation's is `not_found`.
import { createApiKey, listApiKeys, revokeApiKey } from '../core/api-keys';
import { fail, notFound } from '../core/errors';
import { listEventTypes } from '../core/events';
import type { QueryPairs } from '../core/lists';
import { ENVIRONMENTS, type Environment, type Scope } from '../core/model';
import {
  createIntegration,
  createOrganisation,
  type Directory,
  getOrganisation,
  integrationScope,
  keyHolder,
  listIntegrations,
  organisationOf,
} from '../core/organisations';
import type { PortalSession } from '../core/portal-sessions';
import type { ClientGrants, CommonPorts, Ports } from '../core/ports';
import { listApiRequests } from '../core/request-history/list';
import { readApiRequestQuery } from '../core/request-history/query';
import type { Services } from '../core/services';
import type { ConnectedClientJson, IntegrationAddressesJson } from '../core/shapes';
import { formatTime } from '../core/time';
import { redeliverMessage, sendTestEvent } from '../core/webhooks/delivery';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  endpointScope,
  listWebhookEndpoints,
  ownEndpoint,
  presentWebhookEndpoint,
  rotateWebhookEndpointSecret,
  setWebhookEndpointEnabled,
  updateWebhookEndpointEvents,
} from '../core/webhooks/endpoints';
import {
  getWebhookMessage,
  listWebhookMessages,
  messageScope,
  presentWebhookMessage,
} from '../core/webhooks/messages';

/** What the routes reach: the identity table's directory, each environment's services, the grants. */
/**
 * The ports the portal's routes may call in each environment: the common ones, and the delivery queue (a
 * test event and a redelivery hand their message on). A route calling any other fails to compile.
 */
export type PortalPorts = CommonPorts & Pick<Ports, 'deliveryQueue'>;

export interface PortalCore {
  directory: Directory;
  environments: Readonly<Record<Environment, Services<PortalPorts>>>;
  grants: ClientGrants;
  /** The identity provider's id of the portal itself, which is no MCP client of the person's. */
  portalClientId: string;
  /** Each environment's onboarding frame address, shown with its base address. */
  frameUrls: Readonly<Record<Environment, string>>;
}

export interface RouteCall {
  core: PortalCore;
  session: PortalSession;
  params: Readonly<Record<string, string>>;
  query: QueryPairs;
  /** The parsed JSON body (an object), `{}` when there was none. */
  body: Readonly<Record<string, unknown>>;
}

export interface RouteResult {
  status?: number;
  body: unknown;
}

export interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Hono's path syntax, each parameter held to what it can be (anything else is no route: 404). */
  path: string;
  handle(call: RouteCall): Promise<RouteResult>;
}

/** A path parameter named `name` that is an id of this service, or an environment. */
const id = (name: string): string => `:${name}{[A-Za-z0-9_-]{1,100}}`;
const ENV = `:environment{${ENVIRONMENTS.join('|')}}`;
const INTEGRATION = id('integration');
const ENDPOINT = id('endpoint');
const MESSAGE = id('message');

const route = (
  method: Route['method'],
  path: string,
  act: (call: RouteCall) => Promise<unknown>,
  status = 200,
): Route => ({ method, path, handle: async (call) => ({ status, body: await act(call) }) });

const text = (body: RouteCall['body'], name: string, required: boolean): string | undefined => {
  const value = body[name];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string') fail('request_invalid', `Send \`${name}\` as a string.`);
  return value;
};

const texts = (body: RouteCall['body'], name: string): string[] | undefined => {
  const value = body[name];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
    fail('request_invalid', `Send \`${name}\` as a list of strings.`);
  return value;
};

const onlyFields = (body: RouteCall['body'], names: readonly string[]): void => {
  const unknown = Object.keys(body).filter((name) => !names.includes(name));
  if (unknown.length > 0) fail('request_invalid', `The field \`${unknown[0]}\` is not known here.`);
};

const environmentOf = (call: RouteCall): Environment => call.params.environment as Environment;
const servicesOf = (call: RouteCall): Services<PortalPorts> => call.core.environments[environmentOf(call)];
const organisationIdOf = (call: RouteCall): Promise<string> =>
  organisationOf(call.core.directory, call.session.personId);

/** The scope of the path's integration in the path's environment, if it is the person's. */
const integrationScopeOf = async (call: RouteCall): Promise<Scope> =>
  integrationScope(
    call.core.directory,
    await organisationIdOf(call),
    call.params.integration ?? '',
    environmentOf(call),
  );

const endpointScopeOf = async (call: RouteCall): Promise<Scope> =>
  endpointScope(servicesOf(call).ports, await organisationIdOf(call), call.params.endpoint ?? '');

const messageScopeOf = async (call: RouteCall): Promise<Scope> =>
  messageScope(servicesOf(call).ports, await organisationIdOf(call), call.params.message ?? '');

const presentEndpoint = (call: RouteCall, endpoint: Parameters<typeof presentWebhookEndpoint>[0]) =>
  presentWebhookEndpoint(endpoint, servicesOf(call).ports.clock.now());

export const PORTAL_ROUTES: readonly Route[] = [
  route('GET', '/api/organisation', (call) =>
    getOrganisation(call.core.directory, call.core.environments.sandbox.ports, call.session.personId),
  ),
  route(
    'POST',
    '/api/organisation',
    async (call) => {
      onlyFields(call.body, ['name']);
      return createOrganisation(call.core.directory, call.session.personId, call.body.name);
    },
    201,
  ),
  route('GET', '/api/integrations', async (call) =>
    listIntegrations(call.core.directory, await organisationIdOf(call)),
  ),
  route(
    'POST',
    '/api/integrations',
    async (call) => {
      onlyFields(call.body, ['name']);
      return createIntegration(call.core.directory, await organisationIdOf(call), call.body.name);
    },
    201,
  ),
  route('GET', '/api/event-types', async () => listEventTypes()),
  route('GET', '/api/mcp-clients', async (call) => {
    const grants = await call.core.grants.listByPerson(call.session.personId);
    return {
      data: grants
        .filter((grant) => grant.clientId !== call.core.portalClientId)
        .map(
          (grant) =>
            ({
              id: grant.grantId,
              client_id: grant.clientId,
              client_name: grant.clientName,
              granted_at: formatTime(grant.grantedAt),
            }) satisfies ConnectedClientJson,
        ),
    };
  }),
  route('DELETE', `/api/mcp-clients/${id('grant')}`, async (call) => {
    const grantId = call.params.grant ?? '';
    const isPortal = (await call.core.grants.listByPerson(call.session.personId)).some(
      (grant) => grant.grantId === grantId && grant.clientId === call.core.portalClientId,
    );
    if (isPortal || !(await call.core.grants.revoke(call.session.personId, grantId)))
      throw notFound('connected client');
    return { id: grantId, revoked: true };
  }),

  // One integration in one environment: where its calls go.
  route('GET', `/api/${ENV}/integrations/${INTEGRATION}`, async (call) => {
    const scope = await integrationScopeOf(call);
    const { data } = await listIntegrations(call.core.directory, scope.organisationId);
    const integration = data.find((candidate) => candidate.id === scope.integrationId);
    if (!integration) throw notFound('integration');
    const environment = environmentOf(call);
    return {
      integration,
      environment,
      base_url: servicesOf(call).settings.baseUrls[environment],
      frame_url: call.core.frameUrls[environment],
    } satisfies IntegrationAddressesJson;
  }),

  // API keys.
  route('GET', `/api/${ENV}/integrations/${INTEGRATION}/api-keys`, async (call) =>
    listApiKeys(servicesOf(call).ports, await integrationScopeOf(call)),
  ),
  route(
    'POST',
    `/api/${ENV}/integrations/${INTEGRATION}/api-keys`,
    async (call) => {
      onlyFields(call.body, ['name']);
      return createApiKey(
        servicesOf(call).ports,
        await keyHolder(call.core.directory, await integrationScopeOf(call)),
        text(call.body, 'name', false),
      );
    },
    201,
  ),
  route('POST', `/api/${ENV}/api-keys/${id('key')}/revoke`, async (call) =>
    revokeApiKey(servicesOf(call).ports, await organisationIdOf(call), call.params.key ?? ''),
  ),

  // Webhook endpoints.
  route('GET', `/api/${ENV}/integrations/${INTEGRATION}/webhook-endpoints`, async (call) =>
    listWebhookEndpoints(servicesOf(call).ports, await integrationScopeOf(call)),
  ),
  route(
    'POST',
    `/api/${ENV}/integrations/${INTEGRATION}/webhook-endpoints`,
    async (call) => {
      onlyFields(call.body, ['url', 'events']);
      const { ports, settings } = servicesOf(call);
      const { endpoint, secret } = await createWebhookEndpoint(
        ports,
        await integrationScopeOf(call),
        { url: text(call.body, 'url', true) ?? '', events: texts(call.body, 'events') ?? [] },
        { allowLoopbackHttp: settings.allowLoopbackWebhooks },
      );
      return { endpoint: presentEndpoint(call, endpoint), secret };
    },
    201,
  ),
  route('GET', `/api/${ENV}/webhook-endpoints/${ENDPOINT}`, async (call) => {
    const scope = await endpointScopeOf(call);
    return presentEndpoint(
      call,
      await ownEndpoint(servicesOf(call).ports, scope, call.params.endpoint ?? ''),
    );
  }),
  route('PATCH', `/api/${ENV}/webhook-endpoints/${ENDPOINT}`, async (call) => {
    onlyFields(call.body, ['events', 'enabled']);
    const events = texts(call.body, 'events');
    const enabled = call.body.enabled;
    if (enabled !== undefined && typeof enabled !== 'boolean')
      fail('request_invalid', 'Send `enabled` as true or false.');
    if (events === undefined && enabled === undefined)
      fail('request_invalid', 'Send `events`, `enabled`, or both.');
    const { ports } = servicesOf(call);
    const scope = await endpointScopeOf(call);
    const id = call.params.endpoint ?? '';
    let endpoint = await ownEndpoint(ports, scope, id);
    if (events !== undefined) endpoint = await updateWebhookEndpointEvents(ports, scope, id, events);
    if (enabled !== undefined) endpoint = await setWebhookEndpointEnabled(ports, scope, id, enabled);
    return presentEndpoint(call, endpoint);
  }),
  route('DELETE', `/api/${ENV}/webhook-endpoints/${ENDPOINT}`, async (call) => {
    const id = call.params.endpoint ?? '';
    await deleteWebhookEndpoint(servicesOf(call).ports, await endpointScopeOf(call), id);
    return { id, deleted: true };
  }),
  route('POST', `/api/${ENV}/webhook-endpoints/${ENDPOINT}/rotate-secret`, async (call) => {
    const { endpoint, secret } = await rotateWebhookEndpointSecret(
      servicesOf(call).ports,
      await endpointScopeOf(call),
      call.params.endpoint ?? '',
    );
    return { id: endpoint.id, secret };
  }),
  route(
    'POST',
    `/api/${ENV}/webhook-endpoints/${ENDPOINT}/test-event`,
    async (call) => {
      const { ports, settings } = servicesOf(call);
      const message = await sendTestEvent(
        ports,
        await endpointScopeOf(call),
        call.params.endpoint ?? '',
        settings.pagesBaseUrl,
      );
      return presentWebhookMessage(message);
    },
    201,
  ),
  // A page of deliveries, each with its every attempt: what the deliveries page shows.
  route('GET', `/api/${ENV}/webhook-endpoints/${ENDPOINT}/messages`, async (call) => {
    const { ports } = servicesOf(call);
    const scope = await endpointScopeOf(call);
    const page = await listWebhookMessages(ports, scope, call.params.endpoint ?? '', call.query);
    return { ...page, data: await Promise.all(page.data.map((m) => getWebhookMessage(ports, scope, m.id))) };
  }),
  route('GET', `/api/${ENV}/webhook-messages/${MESSAGE}`, async (call) =>
    getWebhookMessage(servicesOf(call).ports, await messageScopeOf(call), call.params.message ?? ''),
  ),
  route('POST', `/api/${ENV}/webhook-messages/${MESSAGE}/redeliver`, async (call) => {
    const { ports } = servicesOf(call);
    return presentWebhookMessage(
      await redeliverMessage(ports, await messageScopeOf(call), call.params.message ?? ''),
    );
  }),

  // Request history.
  route('GET', `/api/${ENV}/integrations/${INTEGRATION}/requests`, async (call) =>
    listApiRequests(servicesOf(call).ports, await integrationScopeOf(call), readApiRequestQuery(call.query)),
  ),
];
