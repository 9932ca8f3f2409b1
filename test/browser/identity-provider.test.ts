// Browser test of the identity provider (offset 7) on the real local stack, as an MCP client and a
// person use it: discovery; dynamic registration of a public client; an authorization request with PKCE
// (S256) and the production MCP server as `resource`; the sign-in page, `Create account`, the sign-up
// page, the consent page's `Allow`; the code at the client's loopback address; the token request with
// the verifier; a JWT access token whose audience is exactly that MCP address, checked against the
// provider's JWKS. Then: no second consent; errors of a client nobody allowed shown on the provider's
// own page (`prompt=none`, a bad resource, no PKCE, `Deny`) while the portal and an allowed client hear
// theirs; names imitating the service's own clients refused; a wrong password, refusals on sign-up, the
// local person, the portal (never asked for consent), and last the registration limit. Axe checks each page.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { devBootstrap, type RunningStack, useLocalStack } from '../support/local-stack';
import { launchChromium, RESULTS } from './harness';
import {
  arrivalAt,
  authorizationRequest,
  axeViolations,
  type Discovery,
  discover,
  exchangeCode,
  expectOnlyOwnRequests,
  openPersonPage,
  type PersonPage,
  type RedirectReceiver,
  refresh,
  registerClient,
  screenshot,
  startRedirectReceiver,
  verifyAccessToken,
} from './identity-client';

let stack: RunningStack;
useLocalStack((started) => {
  stack = started;
});

let browser: Browser;
let receiver: RedirectReceiver;
let discovery: Discovery;
let issuer: string;
let mcpProduction: string;
let mcpSandbox: string;

beforeAll(async () => {
  issuer = `http://127.0.0.1:${stack.portBase + 7}`;
  mcpProduction = `${stack.production}/mcp`;
  mcpSandbox = `${stack.sandbox}/mcp`;
  await mkdir(RESULTS, { recursive: true });
  const [launched, started, found] = await Promise.all([
    launchChromium(),
    startRedirectReceiver(),
    discover(issuer),
    devBootstrap(stack),
  ]);
  browser = launched;
  receiver = started;
  discovery = found;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.stop();
});

afterAll(() => {
  // oidc-provider warns of every default a deployment must replace (in-memory storage, development
  // pages, placeholder policies) when it is used: none may be left.
  expect(stack.output()).not.toContain('oidc-provider ');
});

const newEmail = () => `person-${randomUUID().slice(0, 8)}@example.com`;

/** A new public client, as an MCP client registers itself. */
const newClient = async (name = 'Test agent') => {
  const registered = await registerClient(discovery, receiver.redirectUri, name);
  return { clientId: registered.client_id, redirectUri: receiver.redirectUri };
};

/** The person types into the field with this label. */
const fill = async (person: PersonPage, label: string, value: string) =>
  person.page.getByLabel(label, { exact: true }).fill(value);

const press = async (person: PersonPage, name: string) =>
  person.page.getByRole('button', { name, exact: true }).click();

const heading = (person: PersonPage) => person.page.getByRole('heading', { level: 1 }).textContent();

/** From the sign-in page to a new account: `Create account`, then the sign-up form. */
const signUpFromSignIn = async (person: PersonPage, email: string, password: string) => {
  await person.page.getByRole('link', { name: 'Create account' }).click();
  await person.page.waitForURL(/\/sign-up$/);
  await fill(person, 'Email', email);
  await fill(person, 'Password', password);
  await press(person, 'Create account');
};

const signIn = async (person: PersonPage, email: string, password: string) => {
  await fill(person, 'Email', email);
  await fill(person, 'Password', password);
  await press(person, 'Sign in');
};

const withPerson = async (use: (person: PersonPage) => Promise<void>) => {
  const person = await openPersonPage(browser);
  try {
    await use(person);
  } finally {
    await person.close();
  }
};

test('the discovery documents name the flows MCP clients need', async () => {
  expect(discovery).toMatchObject({
    issuer,
    authorization_endpoint: `${issuer}/auth`,
    token_endpoint: `${issuer}/token`,
    registration_endpoint: `${issuer}/reg`,
    jwks_uri: `${issuer}/jwks`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: expect.arrayContaining(['none', 'client_secret_basic']),
  });
  // RFC 8414's address, which MCP clients read first, says the same.
  const oauth = await fetch(`${issuer}/.well-known/oauth-authorization-server`);
  expect(oauth.status).toBe(200);
  expect(await oauth.json()).toMatchObject({ issuer, registration_endpoint: `${issuer}/reg` });
});

test('an MCP client: registration, sign-up, consent, code, token for exactly the MCP address; no second consent', async () => {
  const client = await newClient('Claude <Code> & co');
  await withPerson(async (person) => {
    const request = authorizationRequest(discovery, client.clientId, client.redirectUri, {
      resource: mcpProduction,
    });
    await person.page.goto(request.url);

    // The sign-in page.
    expect(await heading(person)).toBe('Sign in');
    await expect(person.page.getByText('Claude <Code> & co', { exact: true }).count()).resolves.toBe(1);
    expect(await axeViolations(browser, person)).toEqual([]);
    await screenshot(person.page, 'sign-in');

    // The sign-up page.
    await person.page.getByRole('link', { name: 'Create account' }).click();
    await person.page.waitForURL(/\/sign-up$/);
    expect(await heading(person)).toBe('Create account');
    expect(await axeViolations(browser, person)).toEqual([]);
    await screenshot(person.page, 'sign-up');
    const email = newEmail();
    await fill(person, 'Email', email);
    await fill(person, 'Password', 'a long enough password');
    await press(person, 'Create account');

    // The consent page.
    await person.page.getByRole('button', { name: 'Allow', exact: true }).waitFor();
    expect(await heading(person)).toBe('Allow Claude <Code> & co to act for you?');
    const consent = (await person.page.locator('main').textContent()) ?? '';
    expect(consent).toContain(email);
    expect(consent).toContain(`use the service's MCP server (${mcpProduction})`);
    // The environments it may change: the asked address's ticked, the other not, said in words.
    expect(await person.page.getByLabel('Production', { exact: true }).isChecked()).toBe(true);
    expect(await person.page.getByLabel('Sandbox', { exact: true }).isChecked()).toBe(false);
    expect(await person.page.locator('main').innerText()).toContain(
      'It will be able to change your production environment only, not the sandbox.',
    );
    expect(consent).toContain(new URL(client.redirectUri).host);
    expect(await axeViolations(browser, person)).toEqual([]);
    await screenshot(person.page, 'consent');
    await press(person, 'Allow');

    // The answer at the client's address, and the token for the MCP server.
    const answer = await arrivalAt(person.page, client.redirectUri);
    expect(answer.get('state')).toBe(request.state);
    expect(answer.get('iss')).toBe(issuer);
    const code = answer.get('code') ?? '';
    const exchanged = await exchangeCode(discovery, client, code, request.verifier, mcpProduction);
    expect(exchanged.status).toBe(200);
    expect(exchanged.body).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: 'mcp' });
    expect(exchanged.body.refresh_token).toEqual(expect.any(String));
    const claims = await verifyAccessToken(discovery, exchanged.body.access_token, mcpProduction);
    expect(claims).toMatchObject({
      client_id: client.clientId,
      scope: 'mcp',
      sub: expect.stringMatching(/^per_/),
      environments: ['production'],
    });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(900);

    // A refresh gives a new token for the same address, and a new refresh token (public clients rotate).
    const refreshed = await refresh(
      discovery,
      client.clientId,
      exchanged.body.refresh_token ?? '',
      mcpProduction,
    );
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(exchanged.body.refresh_token);
    // Still only what the grant holds.
    expect(
      (await verifyAccessToken(discovery, refreshed.body.access_token, mcpProduction)).environments,
    ).toEqual(['production']);

    // The same client again, in the same browser: straight back with a code, no page on the way.
    const shown: string[] = [];
    person.page.on('framenavigated', (frame) => shown.push(frame.url()));
    const again = authorizationRequest(discovery, client.clientId, client.redirectUri, {
      resource: mcpProduction,
    });
    await person.page.goto(again.url);
    const second = await arrivalAt(person.page, client.redirectUri);
    expect(shown.filter((url) => url.includes('/interaction/'))).toEqual([]);
    const secondTokens = await exchangeCode(discovery, client, second.get('code') ?? '', again.verifier);
    // The resource may be left out at the token endpoint: the one granted is used.
    await verifyAccessToken(discovery, secondTokens.body.access_token, mcpProduction);

    expectOnlyOwnRequests(person.requests, issuer, client.redirectUri);
    expect(await person.violations()).toEqual([]);
  });
}, 120_000);

test('the sandbox MCP server is a resource of its own: its consent, its audience; the client revokes', async () => {
  const client = await newClient();
  await withPerson(async (person) => {
    const request = authorizationRequest(discovery, client.clientId, client.redirectUri, {
      resource: mcpSandbox,
    });
    await person.page.goto(request.url);
    await signUpFromSignIn(person, newEmail(), 'another long password');
    await expect(person.page.getByText(`MCP server (${mcpSandbox})`).count()).resolves.toBe(1);
    expect(await person.page.getByLabel('Sandbox', { exact: true }).isChecked()).toBe(true);
    expect(await person.page.getByLabel('Production', { exact: true }).isChecked()).toBe(false);
    await press(person, 'Allow');
    const answer = await arrivalAt(person.page, client.redirectUri);
    const tokens = await exchangeCode(
      discovery,
      client,
      answer.get('code') ?? '',
      request.verifier,
      mcpSandbox,
    );
    await verifyAccessToken(discovery, tokens.body.access_token, mcpSandbox);
    await expect(verifyAccessToken(discovery, tokens.body.access_token, mcpProduction)).rejects.toThrow();

    // The client lets go of its connection (RFC 7009): the refresh token no longer works.
    const revoked = await fetch(`${issuer}/token/revocation`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: client.clientId, token: tokens.body.refresh_token ?? '' }),
    });
    expect(revoked.status).toBe(200);
    const refreshed = await refresh(discovery, client.clientId, tokens.body.refresh_token ?? '', mcpSandbox);
    expect(refreshed).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });
});

/** The provider's own error page, and not a redirect: what a request that failed was answered. */
const shownHere = async (answer: Response) => ({
  status: answer.status,
  location: answer.headers.get('location'),
  type: answer.headers.get('content-type'),
  text: await answer.text(),
});

test("a resource other than the two MCP servers is refused on the provider's own page, before any sign-in", async () => {
  const client = await newClient();
  const request = authorizationRequest(discovery, client.clientId, client.redirectUri, {
    resource: `${stack.production}/mcp/`,
  });
  const answer = await shownHere(await fetch(request.url, { redirect: 'manual' }));
  expect(answer).toMatchObject({ status: 400, location: null, type: expect.stringContaining('text/html') });
  expect(answer.text).toContain('Error: invalid_target.');
});

test('a client never allowed is sent no error: prompt=none shows login_required here (no open redirector)', async () => {
  // The reproduction: a client registered with someone else's address, and a request made to fail.
  const registered = await registerClient(discovery, 'https://evil.example/cb', 'Test agent');
  const url = new URL(
    authorizationRequest(discovery, registered.client_id, 'https://evil.example/cb', {
      resource: mcpProduction,
    }).url,
  );
  url.searchParams.set('prompt', 'none');
  for (const mode of [undefined, 'fragment', 'form_post']) {
    if (mode) url.searchParams.set('response_mode', mode);
    const answer = await shownHere(await fetch(url, { redirect: 'manual' }));
    expect(answer).toMatchObject({ status: 400, location: null });
    expect(answer.text).toContain('Error: login_required.');
    expect(answer.text).not.toContain('evil.example');
  }
});

test("the service's own client still hears its errors at its own address", async () => {
  const portalCallback = `http://127.0.0.1:${stack.portBase + 6}/auth/callback`;
  const url = new URL(authorizationRequest(discovery, 'portal', portalCallback, { scope: 'openid' }).url);
  url.searchParams.set('prompt', 'none');
  const answer = await fetch(url, { redirect: 'manual' });
  expect(answer.status).toBe(303);
  const location = new URL(answer.headers.get('location') ?? '');
  expect(`${location.origin}${location.pathname}`).toBe(portalCallback);
  expect(location.searchParams.get('error')).toBe('login_required');
});

test('a client the person allowed hears its errors at its own address', async () => {
  const client = await newClient();
  await withPerson(async (person) => {
    const request = authorizationRequest(discovery, client.clientId, client.redirectUri, {
      resource: mcpProduction,
    });
    await person.page.goto(request.url);
    await signUpFromSignIn(person, newEmail(), 'a long enough password');
    await press(person, 'Allow');
    await arrivalAt(person.page, client.redirectUri);

    const failing = authorizationRequest(discovery, client.clientId, client.redirectUri, {
      resource: `${stack.production}/mcp/`,
    });
    await person.page.goto(failing.url);
    const answer = await arrivalAt(person.page, client.redirectUri);
    expect(answer.get('error')).toBe('invalid_target');
    expect(answer.get('state')).toBe(failing.state);
  });
});

test("a client may not take or imitate the name of one of the service's own", async () => {
  const register = (clientName: string) =>
    fetch(discovery.registration_endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_name: clientName,
        redirect_uris: [receiver.redirectUri],
        token_endpoint_auth_method: 'none',
      }),
    });
  for (const imitation of [
    'Developer portal',
    'DEVELOPER  PORTAL',
    'Developer-Portal (official)',
    'D\u0435veloper portal', // Cyrillic е
    'Deve1oper portaI', // digit one, capital i
    'Back office',
    'back\u00a0OFFICE',
  ]) {
    const refused = await register(imitation);
    expect({ imitation, status: refused.status }).toEqual({ imitation, status: 400 });
    expect(await refused.json()).toMatchObject({
      error: 'invalid_client_metadata',
      error_description: expect.stringContaining("one of this service's own applications"),
    });
  }
  expect((await register('Developer tools')).status).toBe(201);
});

test('a client may register https, loopback http or an app scheme to return to, and not plain http elsewhere', async () => {
  const register = (redirectUri: string, applicationType = 'web') =>
    fetch(discovery.registration_endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        redirect_uris: [redirectUri],
        application_type: applicationType,
        token_endpoint_auth_method: 'none',
      }),
    });
  for (const allowed of [
    'https://agent.example/callback',
    'http://localhost:7777/callback',
    'http://[::1]:7777/cb',
  ])
    expect((await register(allowed)).status).toBe(201);
  expect((await register('com.example.agent:/oauth/callback', 'native')).status).toBe(201);
  const refused = await register('http://agent.example/callback');
  expect(refused.status).toBe(400);
  expect(await refused.json()).toMatchObject({ error: 'invalid_redirect_uri' });
});

test("an authorization request without PKCE is refused on the provider's own page", async () => {
  const client = await newClient();
  const url = new URL(discovery.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: client.clientId,
    response_type: 'code',
    redirect_uri: client.redirectUri,
    resource: mcpProduction,
    state: 'no-pkce',
  }).toString();
  const answer = await shownHere(await fetch(url, { redirect: 'manual' }));
  expect(answer).toMatchObject({ status: 400, location: null });
  expect(answer.text).toContain('Error: invalid_request.');
  expect(answer.text).toContain('PKCE');
});

test('a code used twice is refused, and the tokens issued with it are revoked together', async () => {
  const client = await newClient();
  await withPerson(async (person) => {
    const request = authorizationRequest(discovery, client.clientId, client.redirectUri, {
      resource: mcpProduction,
    });
    await person.page.goto(request.url);
    await signUpFromSignIn(person, newEmail(), 'a long enough password');
    await press(person, 'Allow');
    const code = (await arrivalAt(person.page, client.redirectUri)).get('code') ?? '';
    const first = await exchangeCode(discovery, client, code, request.verifier, mcpProduction);
    expect(first.status).toBe(200);

    const replayed = await exchangeCode(discovery, client, code, request.verifier, mcpProduction);

    expect(replayed).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // RFC 6749 §4.1.2: a code used twice may have been stolen; what it gave is revoked with its grant.
    const refreshed = await refresh(
      discovery,
      client.clientId,
      first.body.refresh_token ?? '',
      mcpProduction,
    );
    expect(refreshed).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });
});

test("Deny, for a client the person never allowed, ends on the provider's page: the client is sent nothing", async () => {
  const client = await newClient();
  await withPerson(async (person) => {
    const request = authorizationRequest(discovery, client.clientId, client.redirectUri, {
      resource: mcpProduction,
    });
    await person.page.goto(request.url);
    await signUpFromSignIn(person, newEmail(), 'a long enough password');
    const answer = person.page.waitForResponse((response) => response.url().includes('/auth/'));
    await press(person, 'Deny');
    expect((await answer).status()).toBe(400);
    expect(await heading(person)).toBe('Sign-in could not continue');
    expect(await person.page.locator('main').textContent()).toContain('Error: access_denied.');
    expect(new URL(person.page.url()).origin).toBe(issuer);
  });
});

test('a wrong password shows the error, tied to the fields, and keeps the email', async () => {
  const client = await newClient();
  await withPerson(async (person) => {
    await person.page.goto(authorizationRequest(discovery, client.clientId, client.redirectUri).url);
    const answer = person.page.waitForResponse((response) => response.request().method() === 'POST');
    await signIn(person, 'dev@localhost.test', 'not the password');
    expect((await answer).status()).toBe(401);

    const alert = person.page.getByRole('alert');
    expect(await alert.textContent()).toBe('The email or password is wrong.');
    const alertId = await alert.getAttribute('id');
    const email = person.page.getByLabel('Email', { exact: true });
    const password = person.page.getByLabel('Password', { exact: true });
    expect(await email.inputValue()).toBe('dev@localhost.test');
    expect(await password.inputValue()).toBe('');
    for (const field of [email, password]) {
      expect(await field.getAttribute('aria-describedby')).toContain(alertId);
      expect(await field.getAttribute('aria-invalid')).toBe('true');
    }
    // The person retypes the password where the focus already is.
    expect(await password.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await axeViolations(browser, person)).toEqual([]);
    await screenshot(person.page, 'sign-in-error');
  });
});

test('a form posted into a sign-in from another origin is refused, even one of the same site', async () => {
  const client = await newClient();
  await withPerson(async (person) => {
    await person.page.goto(authorizationRequest(discovery, client.clientId, client.redirectUri).url);
    const signInAction = new URL(
      (await person.page.locator('form').getAttribute('action')) ?? '',
      person.page.url(),
    ).toString();
    // Another server on 127.0.0.1 (here the client's own loopback page): the same site as the
    // provider, so the browser sends the interaction's SameSite cookie with its form.
    const elsewhere = await person.context.newPage();
    await elsewhere.goto(client.redirectUri);
    const answer = elsewhere.waitForResponse((response) => response.url() === signInAction);
    await elsewhere.evaluate((action) => {
      const form = document.createElement('form');
      form.method = 'post';
      form.action = action;
      for (const [name, value] of [
        ['email', 'dev@localhost.test'],
        ['password', 'local-dev-password'],
      ]) {
        const input = document.createElement('input');
        input.name = name ?? '';
        input.value = value ?? '';
        form.append(input);
      }
      document.body.append(form);
      form.submit();
    }, signInAction);
    expect((await answer).status()).toBe(403);
    // The person's own sign-in is still waiting for them, not signed in by the other page.
    await person.page.reload();
    expect(await heading(person)).toBe('Sign in');
  });
});

test('sign-up says what is wrong beside the field: a short password, a taken email', async () => {
  const client = await newClient();
  await withPerson(async (person) => {
    await person.page.goto(authorizationRequest(discovery, client.clientId, client.redirectUri).url);
    await signUpFromSignIn(person, newEmail(), 'too short');
    const password = person.page.getByLabel('Password', { exact: true });
    const passwordError = person.page.locator('#password-error');
    expect(await passwordError.textContent()).toBe('Use a password of at least 12 characters.');
    expect(await password.getAttribute('aria-describedby')).toBe('password-hint password-error');

    await fill(person, 'Email', 'DEV@localhost.test');
    await fill(person, 'Password', 'a long enough password');
    await press(person, 'Create account');
    const emailError = person.page.locator('#email-error');
    expect(await emailError.textContent()).toBe(
      'An account with this email exists already. Sign in instead.',
    );
    expect(await person.page.getByLabel('Email', { exact: true }).getAttribute('aria-describedby')).toBe(
      'email-error',
    );
    expect(await axeViolations(browser, person)).toEqual([]);
  });
});

test('the local person signs in with the published local password, made once by dev-bootstrap', async () => {
  // A second run (the first was before the tests) finds the person and changes nothing.
  await devBootstrap(stack);
  const client = await newClient();
  await withPerson(async (person) => {
    const request = authorizationRequest(discovery, client.clientId, client.redirectUri, {
      resource: mcpProduction,
    });
    await person.page.goto(request.url);
    await signIn(person, 'dev@localhost.test', 'local-dev-password');
    await press(person, 'Allow');
    const answer = await arrivalAt(person.page, client.redirectUri);
    const tokens = await exchangeCode(
      discovery,
      client,
      answer.get('code') ?? '',
      request.verifier,
      mcpProduction,
    );
    expect(await verifyAccessToken(discovery, tokens.body.access_token, mcpProduction)).toMatchObject({
      sub: 'per_localdev',
    });
  });
});

test("the portal, the service's own client, signs a person in without a consent page, and out", async () => {
  const portalCallback = `http://127.0.0.1:${stack.portBase + 6}/auth/callback`;
  const secret = (await readFile(join(stack.dataDir, 'keys', 'portal-client-secret'), 'utf8')).trim();
  await withPerson(async (person) => {
    const request = authorizationRequest(discovery, 'portal', portalCallback, { scope: 'openid email' });
    await person.page.goto(request.url);
    // The test takes the code itself, as the portal's backend would, from the request that brings it (the
    // portal, which started no sign-in here, only sends the person on).
    const arrival = person.page.waitForRequest((sent) => sent.url().startsWith(`${portalCallback}?`));
    await signIn(person, 'dev@localhost.test', 'local-dev-password');
    const answer = new URL((await arrival).url()).searchParams;
    const tokens = await fetch(discovery.token_endpoint, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${Buffer.from(`portal:${secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: answer.get('code') ?? '',
        redirect_uri: portalCallback,
        code_verifier: request.verifier,
      }),
    });
    expect(tokens.status).toBe(200);
    const body = (await tokens.json()) as { id_token: string; access_token: string };
    const me = await fetch(`${issuer}/me`, { headers: { Authorization: `Bearer ${body.access_token}` } });
    expect(await me.json()).toEqual({
      sub: 'per_localdev',
      email: 'dev@localhost.test',
      email_verified: false,
    });

    // Signing out from the portal: the provider's own question, then back to the portal.
    const portalHome = `http://127.0.0.1:${stack.portBase + 6}/`;
    await person.page.goto(
      `${issuer}/session/end?${new URLSearchParams({ client_id: 'portal', post_logout_redirect_uri: portalHome })}`,
    );
    expect(await heading(person)).toBe('Sign out?');
    expect(await axeViolations(browser, person)).toEqual([]);
    // Axe's own visit asked the question again, with a new anti-forgery value: the person's page reloads.
    await person.page.reload();
    await press(person, 'Sign out');
    await person.page.waitForURL(portalHome);
    // Signed out: the next sign-in asks for the password again.
    await person.page.goto(
      authorizationRequest(discovery, 'portal', portalCallback, { scope: 'openid' }).url,
    );
    expect(await heading(person)).toBe('Sign in');
    expectOnlyOwnRequests(person.requests, issuer, portalCallback);
    expect(await person.violations()).toEqual([]);
  });
});

// Last: it spends the address's registrations, which the tests above need.
test('registration is limited per address: at most 30 at once, then 429 with when to try again', async () => {
  let registered = 0;
  let refused: Response | undefined;
  while (!refused && registered <= 30) {
    const answer = await fetch(discovery.registration_endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [receiver.redirectUri], token_endpoint_auth_method: 'none' }),
    });
    if (answer.status === 201) registered++;
    else refused = answer;
  }
  expect(registered).toBeLessThanOrEqual(30);
  expect(refused?.status).toBe(429);
  expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(await refused?.json()).toMatchObject({
    error: 'rate_limited',
    error_description: expect.stringMatching(
      /^Too many clients were registered from your network just now\./,
    ),
  });
});
