// frontend/portal -> the shapes of the backend's answers the pages read, under the core's own names
// (lambdas/core/shapes.ts), as types: type-only, so the bundle takes no zod; and the environments' names
// on the page.
import type { EnvironmentJson } from '../../../lambdas/core/shapes';

export type {
  ApiKeyJson,
  ApiRequestJson,
  ConnectedClientJson,
  CreatedApiKeyJson,
  DeliveryAttemptJson,
  EnvironmentJson,
  EventTypeJson,
  IntegrationAddressesJson,
  IntegrationJson,
  ListOf,
  OrganisationJson,
  OrganisationOverviewJson,
  PageOf,
  SandboxBudgetJson,
  SessionJson,
  WebhookEndpointJson,
  WebhookMessageDetailJson,
  WebhookMessageJson,
} from '../../../lambdas/core/shapes';

/** Each environment's name on the page; a record, so an environment the core adds must be named here. */
export const ENVIRONMENT_NAMES: Readonly<Record<EnvironmentJson, string>> = {
  sandbox: 'Sandbox',
  production: 'Production',
};
export const ENVIRONMENTS = Object.keys(ENVIRONMENT_NAMES) as EnvironmentJson[];
