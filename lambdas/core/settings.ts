// core -> what the domain needs to know of the environment it serves.
import type { Environment } from './model';

export interface Settings {
  environment: Environment;
  /** Public API base address of each environment, for `wrong_environment` messages. */
  baseUrls: Readonly<Record<Environment, string>>;
  /** This environment's hosted pages address, without a trailing slash: a publication is `{pagesBaseUrl}/{slug}/`. */
  pagesBaseUrl: string;
  /** Webhook endpoints at http://127.0.0.1, localhost or [::1] are allowed: the local stack only (decisions.md §6). */
  allowLoopbackWebhooks: boolean;
  /** DELAY_SCALE on the local stack (divides every scheduled delay); 1 deployed. */
  delayScale: number;
  /** decisions.md §4; the local stack may lift them (`RATE_LIMITS=off`). */
  rateLimits: boolean;
}

/** An environment's MCP server (decisions.md §10): `{base_url}/mcp`, the address its tokens are for. */
export const mcpServerUrl = (baseUrl: string): string => `${baseUrl.replace(/\/+$/, '')}/mcp`;

/**
 * Where the identity provider's upstream sign-in (deployed: Cognito) answers, under its issuer: the one
 * redirect address registered there.
 */
export const UPSTREAM_CALLBACK_PATH = '/interaction/upstream-callback';
