// A restart of the local stack keeps the identity provider's state: the client registered before, the
// person, their browser session and the consent they gave, the refresh token, and the signing key (a
// token issued after the restart verifies under the same key id).
import { decodeProtectedHeader } from 'jose';
import type { Browser } from 'playwright-core';
import { makeDataDir, type RunningStack, removeDataDir, startStack } from '../support/local-stack';
import { launchChromium } from './harness';
import {
  arrivalAt,
  authorizationRequest,
  discover,
  exchangeCode,
  openPersonPage,
  type PersonPage,
  type RedirectReceiver,
  refresh,
  registerClient,
  startRedirectReceiver,
  verifyAccessToken,
} from './identity-client';

let dataDir: string;
let stack: RunningStack | undefined;
let browser: Browser | undefined;
let receiver: RedirectReceiver | undefined;
const people: PersonPage[] = [];

beforeAll(async () => {
  dataDir = await makeDataDir();
  [browser, receiver] = await Promise.all([launchChromium(), startRedirectReceiver()]);
});

afterAll(async () => {
  for (const person of people) await person.close();
  await browser?.close();
  await receiver?.stop();
  await stack?.stop();
  await removeDataDir(dataDir);
});

/** The interaction pages the browser showed while `act` ran. */
const pagesShownDuring = async (person: PersonPage, act: () => Promise<void>): Promise<string[]> => {
  const shown: string[] = [];
  const record = (frame: { url(): string }) => shown.push(frame.url());
  person.page.on('framenavigated', record);
  try {
    await act();
  } finally {
    person.page.off('framenavigated', record);
  }
  return shown.filter((url) => url.includes('/interaction/'));
};

test('the registered client, the person, their session and consent, and refresh tokens survive a restart', async () => {
  if (!browser || !receiver) throw new Error('the browser and receiver start before the test');
  const { redirectUri } = receiver;
  stack = await startStack({ dataDir });
  const { portBase } = stack;
  const issuer = `http://127.0.0.1:${portBase + 7}`;
  const resource = `${stack.production}/mcp`;
  const before = await discover(issuer);
  const client = {
    clientId: (await registerClient(before, redirectUri, 'Kept agent')).client_id,
    redirectUri,
  };

  const person = await openPersonPage(browser);
  people.push(person);
  const first = authorizationRequest(before, client.clientId, redirectUri, { resource });
  await person.page.goto(first.url);
  await person.page.getByRole('link', { name: 'Create account' }).click();
  await person.page.getByLabel('Email', { exact: true }).fill('kept@example.com');
  await person.page.getByLabel('Password', { exact: true }).fill('a password to keep');
  await person.page.getByRole('button', { name: 'Create account' }).click();
  await person.page.getByRole('button', { name: 'Allow' }).click();
  const code = (await arrivalAt(person.page, redirectUri)).get('code') ?? '';
  const issued = await exchangeCode(before, client, code, first.verifier, resource);
  expect(issued.status).toBe(200);
  const keyId = decodeProtectedHeader(issued.body.access_token).kid;

  expect(await stack.stop()).toBe(0);
  stack = await startStack({ dataDir, portBase });
  const after = await discover(issuer);

  // The client and its refresh token: a new access token, signed with the same key.
  const refreshed = await refresh(after, client.clientId, issued.body.refresh_token ?? '', resource);
  expect(refreshed.status).toBe(200);
  await verifyAccessToken(after, refreshed.body.access_token, resource);
  expect(decodeProtectedHeader(refreshed.body.access_token).kid).toBe(keyId);

  // The session and the consent: the same browser comes straight back with a code.
  const again = authorizationRequest(after, client.clientId, redirectUri, { resource });
  let secondCode = '';
  const shownAgain = await pagesShownDuring(person, async () => {
    await person.page.goto(again.url);
    secondCode = (await arrivalAt(person.page, redirectUri)).get('code') ?? '';
  });
  expect(shownAgain).toEqual([]);
  const second = await exchangeCode(after, client, secondCode, again.verifier);
  await verifyAccessToken(after, second.body.access_token, resource);

  // The person: another browser signs in with the password, and is not asked to consent again.
  const elsewhere = await openPersonPage(browser);
  people.push(elsewhere);
  const third = authorizationRequest(after, client.clientId, redirectUri, { resource });
  let thirdCode = '';
  const shownElsewhere = await pagesShownDuring(elsewhere, async () => {
    await elsewhere.page.goto(third.url);
    await elsewhere.page.getByLabel('Email', { exact: true }).fill('kept@example.com');
    await elsewhere.page.getByLabel('Password', { exact: true }).fill('a password to keep');
    await elsewhere.page.getByRole('button', { name: 'Sign in' }).click();
    thirdCode = (await arrivalAt(elsewhere.page, redirectUri)).get('code') ?? '';
  });
  // The sign-in page only: no consent page.
  expect(shownElsewhere).toHaveLength(1);
  const tokens = await exchangeCode(after, client, thirdCode, third.verifier, resource);
  const claims = await verifyAccessToken(after, tokens.body.access_token, resource);
  expect(claims.sub).toBe((await verifyAccessToken(after, issued.body.access_token, resource)).sub);
});
