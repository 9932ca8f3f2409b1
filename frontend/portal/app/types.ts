// frontend/portal -> the shapes of the backend's answers the pages read: the core's schemas
// (lambdas/core/shapes.ts) as types. Type-only imports, so the bundle takes no zod.
import type {
  ApiKeyJson,
  ApiRequestJson,
  ConnectedClientJson,
  CreatedApiKeyJson,
  DeliveryAttemptJson,
  EnvironmentJson,
  EventTypeJson,
  IntegrationAddressesJson,
  IntegrationJson,
  OrganisationJson,
  OrganisationOverviewJson,
  SandboxBudgetJson,
  SessionJson,
  WebhookEndpointJson,
  WebhookMessageDetailJson,
  WebhookMessageJson,
} from '../../../lambdas/core/shapes';

export type { ListOf, PageOf } from '../../../lambdas/core/shapes';

export type Environment = EnvironmentJson;
export type Session = SessionJson;
export type Organisation = OrganisationJson;
export type Integration = IntegrationJson;
export type SandboxBudget = SandboxBudgetJson;
export type OrganisationOverview = OrganisationOverviewJson;
export type IntegrationAddresses = IntegrationAddressesJson;
export type ApiKey = ApiKeyJson;
export type CreatedApiKey = CreatedApiKeyJson;
export type EventType = EventTypeJson;
export type WebhookEndpoint = WebhookEndpointJson;
export type DeliveryAttempt = DeliveryAttemptJson;
export type WebhookMessage = WebhookMessageJson;
export type WebhookMessageDetail = WebhookMessageDetailJson;
export type ApiRequest = ApiRequestJson;
export type ConnectedClient = ConnectedClientJson;

/** Each environment's name on the page; a record, so an environment the core adds must be named here. */
export const ENVIRONMENT_NAMES: Readonly<Record<Environment, string>> = {
  sandbox: 'Sandbox',
  production: 'Production',
};
export const ENVIRONMENTS = Object.keys(ENVIRONMENT_NAMES) as Environment[];
