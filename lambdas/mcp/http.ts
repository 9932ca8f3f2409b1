// mcp -> the MCP server's HTTP face (web-standard Request and Response), the same for the local stack and
// the deployed Lambda: its protected resource metadata (RFC 9728) at
// `/.well-known/oauth-protected-resource/mcp`, and `/mcp` itself behind the checks the MCP authorization
// and transport specifications ask for: an `Origin` other than the server's own is refused (403, against
// DNS rebinding and cross-site requests), and a request without an accepted access token answers 401
// with `WWW-Authenticate: Bearer resource_metadata="…"`, which is how a client finds the authorization
// server. Then the SDK's stateless streamable HTTP handler serves it (a POST: the only method it takes). One
// Hono app routes them, and any other method or path answers as the API's do: 405 `method_not_allowed`
// with `Allow`, or 404 `not_found`. Every answer, whichever of these gives it, carries a
// `Service-Request-Id`, as every response of the API's addresses does (interface.md).

import {
  type AuthInfo,
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
} from '@modelcontextprotocol/server';
import { Hono } from 'hono';
import { createRouter } from '../api/http/router';
import { type ErrorCode, isDependencyUnavailable, ServiceError } from '../core/errors';
import { log } from '../core/log';
import { newRequestId } from '../core/request-ids';
import { MCP_SCOPE, type TokenCheck } from './access-tokens';
import { type McpAuthExtra, mcpServerFactory } from './server';
import type { McpWorkspace } from './tools/tool';

export const MCP_PATH = '/mcp';
export const MCP_METADATA_PATH = '/.well-known/oauth-protected-resource/mcp';

/**
 * What the MCP server answers: its metadata (HEAD answered as GET; OPTIONS for a browser's preflight),
 * and `/mcp`, which takes POST alone (stateless: no GET stream, no DELETE of a session).
 */
export const MCP_ROUTES = [
  { method: 'GET', path: MCP_METADATA_PATH },
  { method: 'HEAD', path: MCP_METADATA_PATH },
  { method: 'OPTIONS', path: MCP_METADATA_PATH },
  { method: 'POST', path: MCP_PATH },
] as const;

const MCP_ROUTER = createRouter(MCP_ROUTES);

/** Whether `path` is one of the MCP server's, on an API address (any method: the server answers them all). */
export const isMcpPath = (path: string): boolean => MCP_ROUTER.methodsAllowed(path).length > 0;

export interface McpHttpSettings {
  /** This server's address, exactly (`{base_url}/mcp`): the resource its tokens are for. */
  resource: string;
  /** The identity provider's issuer identifier, the one authorization server. */
  issuer: string;
  /** What the metadata calls it, for a person choosing a server. */
  resourceName: string;
}

/** Checks a bearer token (access-tokens.ts, with the provider's keys and its record of tokens). */
export type TokenChecker = (token: string) => Promise<TokenCheck>;

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });

const errorAnswer = (code: ErrorCode, message: string, headers: Record<string, string> = {}): Response => {
  const error = new ServiceError(code, message);
  return json(error.status, error.toJSON(), headers);
};

/** A quoted-string of RFC 9110: backslash and double quote escaped. */
const quoted = (value: string): string => `"${value.replace(/["\\]/g, '\\$&')}"`;

const REFUSALS: Readonly<Record<Exclude<TokenCheck, { accepted: true }>['reason'], [ErrorCode, string]>> = {
  expired: ['token_expired', 'The access token has expired: refresh it at the authorization server.'],
  invalid: [
    'token_invalid',
    'The access token is not one for this MCP server: get one from its authorization server with `resource` set to this address (an API access token from POST /v1/token is for /v1 only).',
  ],
  revoked: [
    'token_invalid',
    'The access token was revoked (the person disconnected this client, or it was revoked): sign in again.',
  ],
};

export const mcpHttpHandler = (
  settings: McpHttpSettings,
  checkToken: TokenChecker,
  workspace: McpWorkspace,
): ((request: Request) => Promise<Response>) => {
  const resourceUrl = new URL(settings.resource);
  const metadataUrl = getOAuthProtectedResourceMetadataUrl(resourceUrl);
  const metadata = {
    resource: settings.resource,
    authorization_servers: [settings.issuer],
    scopes_supported: [MCP_SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: settings.resourceName,
  };
  const mcp = createMcpHandler(mcpServerFactory(workspace), {
    // No change is ever announced (the tools are fixed), and a Lambda cannot hold a stream open: a
    // `subscriptions/listen` is refused rather than kept until the function times out.
    maxSubscriptions: 0,
    onerror: (error) => log.warn('MCP request refused or failed', { error }),
  });

  const challenge = (fields: Record<string, string> = {}): Record<string, string> => ({
    'WWW-Authenticate': `Bearer ${Object.entries({
      resource_metadata: metadataUrl,
      scope: MCP_SCOPE,
      ...fields,
    })
      .map(([name, value]) => `${name}=${quoted(value)}`)
      .join(', ')}`,
  });

  const serveMetadata = (request: Request): Response => {
    const cors = { 'Access-Control-Allow-Origin': '*' };
    if (request.method === 'OPTIONS')
      return new Response(null, {
        status: 204,
        headers: { ...cors, 'Access-Control-Allow-Methods': 'GET', 'Access-Control-Allow-Headers': '*' },
      });
    return json(200, metadata, { ...cors, 'Cache-Control': 'public, max-age=3600' });
  };

  /** Who may call `/mcp` (with any method): the server's own origin, with an accepted access token. */
  const admit = async (request: Request): Promise<Response | AuthInfo> => {
    const origin = request.headers.get('origin');
    if (origin !== null && origin !== resourceUrl.origin)
      return json(403, {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: `Requests from the origin ${origin} are not accepted here.` },
      });
    const authorization = request.headers.get('authorization') ?? '';
    const bearer = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(authorization.trim());
    if (!bearer?.[1])
      return errorAnswer(
        'authentication_required',
        'Send an access token for this MCP server: Authorization: Bearer <token>. The WWW-Authenticate header names its authorization server.',
        challenge(),
      );
    let check: TokenCheck;
    try {
      check = await checkToken(bearer[1]);
    } catch (error) {
      if (!isDependencyUnavailable(error)) throw error;
      log.warn('MCP token check unavailable', { error });
      return errorAnswer('service_unavailable', 'The service cannot check tokens just now; try again soon.', {
        'Retry-After': '5',
      });
    }
    if (!check.accepted) {
      const [code, message] = REFUSALS[check.reason];
      return errorAnswer(code, message, challenge({ error: 'invalid_token', error_description: message }));
    }
    const { caller } = check;
    const extra: McpAuthExtra = { personId: caller.personId, environments: caller.environments };
    return {
      token: caller.token,
      clientId: caller.clientId,
      scopes: [...caller.scopes],
      expiresAt: caller.expiresAt,
      resource: resourceUrl,
      extra: { ...extra },
    };
  };

  /** Any other method or path: 405 with the methods the path takes, or 404. */
  const notRouted = (request: Request): Response => {
    const allowed = MCP_ROUTER.methodsAllowed(new URL(request.url).pathname);
    if (allowed.length === 0) return errorAnswer('not_found', 'Nothing is here: the MCP server is at /mcp.');
    return errorAnswer('method_not_allowed', `Use ${allowed.join(' or ')} here.`, {
      Allow: allowed.join(', '),
    });
  };

  const app = new Hono<{ Variables: { authInfo: AuthInfo } }>();
  // A fault goes on to the adapter, which answers it in the service's shape (hosts/http/fetch-handler.ts).
  app.onError((error) => {
    throw error;
  });
  app.get(MCP_METADATA_PATH, (c) => serveMetadata(c.req.raw));
  app.options(MCP_METADATA_PATH, (c) => serveMetadata(c.req.raw));
  // Every method at `/mcp` is admitted first, so an unknown caller learns nothing before the 401.
  app.use(MCP_PATH, async (c, next) => {
    const admitted = await admit(c.req.raw);
    if (admitted instanceof Response) return admitted;
    c.set('authInfo', admitted);
    await next();
  });
  app.post(MCP_PATH, (c) => mcp.fetch(c.req.raw, { authInfo: c.get('authInfo') }));
  app.all('*', (c) => notRouted(c.req.raw));

  return async (request) => {
    const answer = await app.fetch(request);
    const headers = new Headers(answer.headers);
    headers.set('Service-Request-Id', newRequestId());
    return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers });
  };
};
