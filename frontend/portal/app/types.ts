// frontend/portal -> the shapes of the backend's answers the pages read (as the core presents them).
export type Environment = 'sandbox' | 'production';
export const ENVIRONMENTS: readonly Environment[] = ['sandbox', 'production'];
export const ENVIRONMENT_NAMES: Readonly<Record<Environment, string>> = {
  sandbox: 'Sandbox',
  production: 'Production',
};

export interface Session {
  signed_in: boolean;
  email: string | null;
  csrf_token: string | null;
}

export interface Organisation {
  id: string;
  name: string;
  created_at: string;
}

export interface Integration {
  id: string;
  organisation_id: string;
  type: string;
  name: string;
  created_at: string;
}

export interface SandboxBudget {
  organisation_id: string;
  total: number;
  used: number;
  remaining: number;
}

export interface OrganisationOverview {
  organisation: Organisation | null;
  sandbox_budget: SandboxBudget | null;
  integrations: Integration[];
}

export interface IntegrationAddresses {
  integration: Integration;
  environment: Environment;
  base_url: string;
  frame_url: string;
}

export interface ApiKey {
  id: string;
  name: string | null;
  prefix: string;
  environment: Environment;
  integration_id: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface EventType {
  type: string;
  when: string;
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  environment: Environment;
  signing_secrets: number;
  created_at: string;
  updated_at: string;
}

export interface DeliveryAttempt {
  round: number;
  number: number;
  at: string;
  status: number | null;
  error: string | null;
  duration_ms: number;
  body: string;
}

export interface WebhookMessage {
  id: string;
  endpoint_id: string;
  type: string;
  test: boolean;
  state: 'pending' | 'delivered' | 'failed';
  round: number;
  attempts_in_round: number;
  next_attempt_at: string | null;
  created_at: string;
  /** The envelope every attempt sends (the message's own page and the deliveries list). */
  envelope?: Record<string, unknown>;
  attempts?: DeliveryAttempt[];
}

export interface ApiRequest {
  id: string;
  time: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  environment: Environment;
  integration_id: string;
}

export interface ConnectedClient {
  id: string;
  client_id: string;
  client_name: string | null;
  granted_at: string;
}

export interface ListOf<T> {
  data: T[];
}

export interface PageOf<T> {
  data: T[];
  has_more: boolean;
}
