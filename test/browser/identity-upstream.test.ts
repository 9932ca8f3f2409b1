// Browser test of the identity provider with an upstream sign-in (deployed: Amazon Cognito), without AWS:
// a second oidc-provider on loopback stands in for the user pool (its development sign-in pages take any
// login, which becomes the verified email it asserts). The portal's sign-in (lambdas/portal/sign-in.ts)
// starts at the service's provider, which sends the person upstream instead of showing its password
// pages; headless Chromium signs in there and comes back through `/interaction/upstream-callback`; the
// portal gets a code, and the person (made on first sign-in, the same one after) is in the identity table
// of DynamoDB Local. A callback without the browser's checks cookie is refused.
import { randomUUID } from 'node:crypto';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import type { Browser } from 'playwright-core';
import { composeDirectory } from '../../lambdas/adapters/compose';
import { DynamoDbAttemptDelays } from '../../lambdas/adapters/dynamodb/attempt-delays';
import {
  DynamoDbClientGrants,
  oidcProviderStorage,
} from '../../lambdas/adapters/dynamodb/oidc-provider-storage';
import { DynamoDbRateLimiter } from '../../lambdas/adapters/dynamodb/rate-limiter';
import { randomIds } from '../../lambdas/adapters/random-ids';
import { systemClock } from '../../lambdas/adapters/system-clock';
import type { PeopleServices } from '../../lambdas/core/people/accounts';
import { UPSTREAM_CALLBACK_PATH } from '../../lambdas/core/settings';
import { identityProviderListener } from '../../lambdas/identity-provider/listener';
import {
  PORTAL_CLIENT_ID,
  portalClient,
  portalRedirectUri,
} from '../../lambdas/identity-provider/portal-client';
import { createIdentityProvider } from '../../lambdas/identity-provider/provider';
import { newSigningJwks } from '../../lambdas/identity-provider/signing-keys';
import { PortalSignIn } from '../../lambdas/portal/sign-in';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { launchChromium } from './harness';
import { type RedirectReceiver, startRedirectReceiver } from './identity-client';

const db = useTestDynamoDb();

/** A loopback server whose listener is set once its address (an issuer) is known. */
const startServer = async () => {
  let listener: RequestListener = (_request, response) => response.end();
  const server: Server = createServer((request, response) => listener(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    serve: (next: RequestListener) => {
      listener = next;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};

const UPSTREAM_CLIENT = { clientId: 'service-identity-provider', clientSecret: randomUUID() };
const PORTAL_SECRET = randomUUID();

let browser: Browser;
let receiver: RedirectReceiver;
let upstreamServer: Awaited<ReturnType<typeof startServer>>;
let providerServer: Awaited<ReturnType<typeof startServer>>;
let people: PeopleServices['people'];
let portalOrigin: string;

beforeAll(async () => {
  [browser, receiver, upstreamServer, providerServer] = await Promise.all([
    launchChromium(),
    startRedirectReceiver(),
    startServer(),
    startServer(),
  ]);
  portalOrigin = new URL(receiver.redirectUri).origin;

  // The stand-in for the Cognito user pool: any login signs in, and is the verified email it asserts.
  const upstream = new Provider(upstreamServer.origin, {
    clients: [
      {
        client_id: UPSTREAM_CLIENT.clientId,
        client_secret: UPSTREAM_CLIENT.clientSecret,
        redirect_uris: [`${providerServer.origin}${UPSTREAM_CALLBACK_PATH}`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    // As Cognito: the email claims in the ID token itself, not only at userinfo.
    conformIdTokenClaims: false,
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, email: sub, email_verified: true }),
    }),
    features: { devInteractions: { enabled: true } },
  });
  upstreamServer.serve(upstream.callback());

  const table = await db.freshTable();
  const clock = systemClock();
  people = composeDirectory(db.doc, table).people;
  const peopleServices: PeopleServices = {
    people,
    ids: randomIds(),
    clock,
    rateLimiter: new DynamoDbRateLimiter(db.doc, table, clock),
    attemptDelays: new DynamoDbAttemptDelays(db.doc, table, clock),
    rateLimits: true,
  };
  const settings = {
    issuer: providerServer.origin,
    mcpResources: [],
    portal: portalClient(portalOrigin, PORTAL_SECRET),
    signingKeys: JSON.parse(newSigningJwks()).keys,
    cookieKeys: [randomUUID()],
    behindProxy: false,
    upstream: { issuer: upstreamServer.origin, ...UPSTREAM_CLIENT },
  };
  const services = {
    storage: oidcProviderStorage(db.doc, table, clock),
    grants: new DynamoDbClientGrants(db.doc, table, clock),
    people: peopleServices,
  };
  providerServer.serve(
    identityProviderListener(createIdentityProvider(settings, services), peopleServices, settings),
  );
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([receiver?.stop(), upstreamServer?.stop(), providerServer?.stop()]);
});

/** The portal signs `login` in, in a new browser context; answers who the provider says signed in. */
const signInUpstream = async (login: string) => {
  const portal = new PortalSignIn({
    issuer: providerServer.origin,
    clientId: PORTAL_CLIENT_ID,
    clientSecret: PORTAL_SECRET,
    redirectUri: portalRedirectUri(portalOrigin),
    postLogoutRedirectUri: `${portalOrigin}/`,
  });
  const started = await portal.start();
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    // Loopback only: the stand-in's development pages name a web font nobody may fetch here.
    await page.route(
      (url) => url.hostname !== '127.0.0.1',
      (route) => route.abort(),
    );
    const visited: string[] = [];
    // Every address the page was taken to, redirects included.
    page.on('request', (request) => {
      if (request.isNavigationRequest()) visited.push(request.url());
    });
    await page.goto(started.url);
    // The provider's sign-in step sent the person upstream: its login page, not the password pages.
    expect(page.url().startsWith(`${upstreamServer.origin}/`)).toBe(true);
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any password at all');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${portalRedirectUri(portalOrigin)}?`));
    expect(visited.some((url) => url.startsWith(`${providerServer.origin}${UPSTREAM_CALLBACK_PATH}?`))).toBe(
      true,
    );
    expect(visited.some((url) => /\/interaction\/[^/]+\/sign-(in|up)/.test(url))).toBe(false);
    return await portal.finish(new URL(page.url()), started);
  } finally {
    await context.close();
  }
};

test('a person signs in through the upstream and gets a session with the provider, as the person of that email', async () => {
  const email = `upstream-${randomUUID().slice(0, 8)}@example.com`;
  const first = await signInUpstream(email);
  expect(first.email).toBe(email);
  const person = await people.findByEmail(email);
  expect(person?.id).toBe(first.personId);
  // The same person on the next sign-in (a new browser): the email is who they are.
  const again = await signInUpstream(email);
  expect(again.personId).toBe(first.personId);
}, 120_000);

test('a callback without the checks cookie of the browser that started the sign-in is refused', async () => {
  const answer = await fetch(
    `${providerServer.origin}${UPSTREAM_CALLBACK_PATH}?code=forged&state=someone.else`,
    {
      redirect: 'manual',
    },
  );
  expect(answer.status).toBe(400);
  expect(await answer.text()).toContain('This sign-in has expired');
});
