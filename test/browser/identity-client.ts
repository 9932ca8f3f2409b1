// test support -> an OAuth client of the identity provider, as an MCP client is one: it reads the
// discovery document, registers itself (dynamic client registration, public, PKCE), sends a person's
// browser to the authorization endpoint with a code challenge (S256) and the MCP server as `resource`,
// takes the answer at its own loopback redirect address, exchanges the code with the verifier, refreshes,
// and checks access tokens with `jose` against the provider's JWKS. And the person's side: a recorded
// browser page on the provider, driven by the labels a person reads, with axe run on what it shows.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axeViolations as axeViolationsAt, RESULTS } from './harness';

export interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint: string;
  jwks_uri: string;
  [name: string]: unknown;
}

export const discover = async (issuer: string): Promise<Discovery> => {
  const answer = await fetch(`${issuer}/.well-known/openid-configuration`);
  if (answer.status !== 200) throw new Error(`discovery answered ${answer.status}`);
  return (await answer.json()) as Discovery;
};

/** A loopback server taking the authorization answers at `/callback`, as a native MCP client does. */
export interface RedirectReceiver {
  redirectUri: string;
  stop(): Promise<void>;
}

export const startRedirectReceiver = async (): Promise<RedirectReceiver> => {
  const server: Server = createServer((_request, response) => {
    const body = '<!doctype html><html lang="en"><title>Done</title><p>You can close this window.</p></html>';
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};

/** Registers a public client (no secret) for the code flow with refresh tokens; answers its metadata. */
export const registerClient = async (
  discovery: Discovery,
  redirectUri: string,
  clientName: string,
): Promise<{ client_id: string; [name: string]: unknown }> => {
  const answer = await fetch(discovery.registration_endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      client_name: clientName,
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }),
  });
  const body = (await answer.json()) as { client_id: string };
  if (answer.status !== 201)
    throw new Error(`registration answered ${answer.status}: ${JSON.stringify(body)}`);
  return body;
};

export interface AuthorizationRequest {
  url: string;
  state: string;
  verifier: string;
}

/** An authorization request with a fresh PKCE pair (S256) and state, for `resource`. */
export const authorizationRequest = (
  discovery: Discovery,
  clientId: string,
  redirectUri: string,
  options: { resource?: string; scope?: string } = {},
): AuthorizationRequest => {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const url = new URL(discovery.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state,
    ...(options.resource !== undefined && { resource: options.resource }),
    ...(options.scope !== undefined && { scope: options.scope }),
  }).toString();
  return { url: url.toString(), state, verifier };
};

/** What came back to the redirect address: its query's parameters. */
export const answerAt = (page: Page): URLSearchParams => new URL(page.url()).searchParams;

/** Waits for the browser to arrive at the redirect address; answers the parameters it carried. */
export const arrivalAt = async (page: Page, redirectUri: string): Promise<URLSearchParams> => {
  await page.waitForURL((url) => url.toString().startsWith(`${redirectUri}?`));
  return answerAt(page);
};

export interface Tokens {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token?: string;
  scope?: string;
}

const tokenRequest = async (discovery: Discovery, form: Record<string, string>) => {
  const answer = await fetch(discovery.token_endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  return { status: answer.status, body: (await answer.json()) as Tokens & { error?: string } };
};

/** The token request for a code, with the verifier (and the resource, as the MCP specification asks). */
export const exchangeCode = (
  discovery: Discovery,
  client: { clientId: string; redirectUri: string },
  code: string,
  verifier: string,
  resource?: string,
) =>
  tokenRequest(discovery, {
    grant_type: 'authorization_code',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    code,
    code_verifier: verifier,
    ...(resource !== undefined && { resource }),
  });

export const refresh = (discovery: Discovery, clientId: string, refreshToken: string, resource?: string) =>
  tokenRequest(discovery, {
    grant_type: 'refresh_token',
    client_id: clientId,
    refresh_token: refreshToken,
    ...(resource !== undefined && { resource }),
  });

/**
 * The access token verified as the MCP server will: signature against the provider's JWKS, issuer,
 * audience exactly `resource`, expiry, and the JWT access token type (RFC 9068).
 */
export const verifyAccessToken = async (
  discovery: Discovery,
  token: string,
  resource: string,
): Promise<JWTPayload> => {
  const { payload, protectedHeader } = await jwtVerify(
    token,
    createRemoteJWKSet(new URL(discovery.jwks_uri)),
    {
      issuer: discovery.issuer,
      audience: resource,
      typ: 'at+jwt',
      requiredClaims: ['exp', 'iat', 'sub', 'client_id'],
    },
  );
  expect(payload.aud).toBe(resource);
  expect(protectedHeader.alg).toBe('RS256');
  return payload;
};

/** A page that records its requests and CSP violations, in a context of its own. */
export interface PersonPage {
  context: BrowserContext;
  page: Page;
  requests: string[];
  violations(): Promise<string[]>;
  close(): Promise<void>;
}

export const openPersonPage = async (browser: Browser): Promise<PersonPage> => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  // Init scripts come from the debugging protocol, so the page's CSP does not stop them.
  await page.addInitScript(() => {
    const store = window as unknown as { violations: string[] };
    store.violations = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      store.violations.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  return {
    context,
    page,
    requests,
    violations: () => page.evaluate(() => (window as unknown as { violations: string[] }).violations),
    close: () => context.close(),
  };
};

/** Every request went to the provider or the client's own redirect address: nothing third-party. */
export const expectOnlyOwnRequests = (requests: readonly string[], ...origins: string[]): void => {
  const allowed = new Set(origins.map((origin) => new URL(origin).origin));
  expect(requests.filter((url) => !allowed.has(new URL(url).origin))).toEqual([]);
};

/**
 * What axe finds wrong with the page showing now, at a phone's and a desktop's width: it is opened again
 * (a GET, which changes nothing) with the person's cookies.
 */
export const axeViolations = async (browser: Browser, person: PersonPage) =>
  axeViolationsAt(browser, person.page.url(), [320, 1280], await person.context.cookies());

export const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: join(RESULTS, `identity-${name}.png`), fullPage: true });
