// core -> the developer account's answers (the portal's backend and the MCP tools answer the same JSON),
// each defined once as a zod schema: the core's `present…` functions are typed by them, the MCP tools
// advertise them as output schemas, and the portal's pages read their `z.infer` types (type-only
// imports: no zod in the portal's bundle). The /v1 interface's own are in interface-schemas.ts.
import * as z from 'zod/mini';
import { ENVIRONMENTS } from './model';

export type { ContractReviewJson } from './interface-schemas';

/** A schema with words for whoever reads its JSON Schema (an MCP client's model). */
const described = <T extends z.ZodMiniType>(schema: T, description: string): T =>
  schema.check(z.describe(description)) as T;

const time = described(
  z.string(),
  'A UTC date-time to the microsecond, such as 2026-11-21T09:30:00.123456Z.',
);
const timeOrNull = z.nullable(time);

export const EnvironmentShape = z.enum(ENVIRONMENTS);
export type EnvironmentJson = z.infer<typeof EnvironmentShape>;

/** A whole list: `{data}`. */
export const listOf = <T extends z.ZodMiniType>(item: T) => z.object({ data: z.array(item) });
/** A page of a longer list, newest first: `{data, has_more}`. */
export const pageOf = <T extends z.ZodMiniType>(item: T) =>
  z.object({ data: z.array(item), has_more: z.boolean() });

export interface ListOf<T> {
  data: T[];
}
export interface PageOf<T> extends ListOf<T> {
  has_more: boolean;
}

export const SessionShape = z.object({
  signed_in: z.boolean(),
  email: z.nullable(z.string()),
  csrf_token: z.nullable(z.string()),
});
export type SessionJson = z.infer<typeof SessionShape>;

export const OrganisationShape = z.object({ id: z.string(), name: z.string(), created_at: time });
export type OrganisationJson = z.infer<typeof OrganisationShape>;

export const IntegrationShape = z.object({
  id: z.string(),
  organisation_id: z.string(),
  type: z.literal('contract_reviews'),
  name: z.string(),
  created_at: time,
});
export type IntegrationJson = z.infer<typeof IntegrationShape>;

export const SandboxBudgetShape = z.object({
  organisation_id: z.string(),
  total: z.int(),
  used: z.int(),
  remaining: z.int(),
});
export type SandboxBudgetJson = z.infer<typeof SandboxBudgetShape>;

export const OrganisationOverviewShape = z.object({
  organisation: z.nullable(OrganisationShape),
  sandbox_budget: z.nullable(SandboxBudgetShape),
  integrations: z.array(IntegrationShape),
});
export type OrganisationOverviewJson = z.infer<typeof OrganisationOverviewShape>;

/** One integration in one environment: where its calls go (the portal's integration page). */
export const IntegrationAddressesShape = z.object({
  integration: IntegrationShape,
  environment: EnvironmentShape,
  base_url: z.string(),
  frame_url: z.string(),
});
export type IntegrationAddressesJson = z.infer<typeof IntegrationAddressesShape>;

export const ApiKeyShape = z.object({
  id: z.string(),
  name: z.nullable(z.string()),
  prefix: z.string(),
  environment: EnvironmentShape,
  integration_id: z.string(),
  created_at: time,
  last_used_at: timeOrNull,
  revoked_at: timeOrNull,
});
export type ApiKeyJson = z.infer<typeof ApiKeyShape>;

/** A new key: the only answer that carries the key itself. */
export const CreatedApiKeyShape = z.extend(ApiKeyShape, {
  key: described(z.string(), 'The API key, shown this once.'),
});
export type CreatedApiKeyJson = z.infer<typeof CreatedApiKeyShape>;

export const RevokedApiKeyShape = z.object({ id: z.string(), revoked_at: timeOrNull });
export type RevokedApiKeyJson = z.infer<typeof RevokedApiKeyShape>;

export const EventTypeShape = z.object({ type: z.string(), when: z.string(), data: z.string() });
export type EventTypeJson = z.infer<typeof EventTypeShape>;

export const WebhookEndpointShape = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  environment: EnvironmentShape,
  signing_secrets: described(
    z.int(),
    'How many secrets sign its messages now (2 for 24 h after a rotation).',
  ),
  created_at: time,
  updated_at: time,
});
export type WebhookEndpointJson = z.infer<typeof WebhookEndpointShape>;

/** A new endpoint, or a rotated one's id: the only answers that carry a signing secret. */
export const CreatedWebhookEndpointShape = z.object({
  endpoint: WebhookEndpointShape,
  secret: described(z.string(), 'Shown this once.'),
});
export const RotatedWebhookSecretShape = z.object({
  id: z.string(),
  secret: described(z.string(), 'Shown this once.'),
});

export const DeletedWebhookEndpointShape = z.object({ id: z.string(), deleted: z.literal(true) });

export const DeliveryAttemptShape = z.object({
  round: z.int(),
  number: z.int(),
  at: time,
  status: described(z.nullable(z.int()), "The endpoint's HTTP status, or null when none came."),
  error: z.nullable(z.string()),
  duration_ms: z.number(),
  body: described(z.string(), "At most 1 KiB of the endpoint's answer."),
});
export type DeliveryAttemptJson = z.infer<typeof DeliveryAttemptShape>;

export const WebhookMessageShape = z.object({
  id: described(z.string(), '`msg_…`, also the `webhook-id` header of every attempt.'),
  endpoint_id: z.string(),
  type: z.string(),
  test: z.boolean(),
  state: z.enum(['pending', 'delivered', 'failed']),
  round: z.int(),
  attempts_in_round: z.int(),
  next_attempt_at: timeOrNull,
  created_at: time,
});
export type WebhookMessageJson = z.infer<typeof WebhookMessageShape>;

/** One message in full: the envelope every attempt sends, and every attempt of every round. */
export const WebhookMessageDetailShape = z.extend(WebhookMessageShape, {
  envelope: z.record(z.string(), z.unknown()),
  attempts: z.array(DeliveryAttemptShape),
});
export type WebhookMessageDetailJson = z.infer<typeof WebhookMessageDetailShape>;

export const ApiRequestShape = z.object({
  id: described(z.string(), 'The `Service-Request-Id` of the call.'),
  time,
  method: z.string(),
  path: z.string(),
  status: z.int(),
  duration_ms: z.number(),
  environment: EnvironmentShape,
  integration_id: z.string(),
});
export type ApiRequestJson = z.infer<typeof ApiRequestShape>;

/** An application the person let act for them over MCP (the portal's connected-clients page). */
export const ConnectedClientShape = z.object({
  id: z.string(),
  client_id: z.string(),
  client_name: z.nullable(z.string()),
  granted_at: time,
});
export type ConnectedClientJson = z.infer<typeof ConnectedClientShape>;
