// Browser test of the developer portal (offset 6) on the real local stack, as new integrators use it:
// sign up at the identity provider, create the organisation and an integration, take a sandbox key and
// exchange it at POST /v1/token, register endpoints at a local receiver, send test events and see them
// delivered, watch a failing endpoint fail every attempt and redeliver it, revoke the key (the next
// exchange is refused), and find the calls in request history with its filters. A second person sees
// none of it; nobody makes a second organisation; changes need the session's CSRF token; a connected
// MCP client is revoked; axe finds nothing on any page at 320 and 1280 px; and after a restart of the
// stack the person is still signed in, with their data, and the identity provider has kept its state: the
// client registered before, another person, their browser session and the consent they gave, the refresh
// token, and the signing key (a token issued after the restart verifies under the same key id).
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { decodeProtectedHeader } from 'jose';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { PORTAL_ROUTES } from '../../lambdas/portal/api-routes';
import { eventually } from '../support/eventually';
import { makeDataDir, ops, type RunningStack, removeDataDir, startStack } from '../support/local-stack';
import { type Receiver, startReceiver } from '../support/webhook-receiver';
import { axeViolations, launchChromium, RESULTS } from './harness';
import {
  arrivalAt,
  authorizationRequest,
  discover,
  exchangeCode,
  expectOnlyOwnRequests,
  openPersonPage,
  type PersonPage,
  type RedirectReceiver,
  refresh,
  registerClient,
  startRedirectReceiver,
  verifyAccessToken,
} from './identity-client';

// DELAY_SCALE 200000 makes the retry schedule (1 min … 24 h, 8 attempts) last under a second: the test
// reads the eight failures and the redelivery, not the pauses between them (test/api/webhooks.test.ts does).
const STACK_ENV = { DELAY_SCALE: '200000' };
/** A bound, not a speed check: on a loaded 2-core machine a start beside other files' takes more than 90 s. */
const READY_WITHIN_MS = 180_000;

let stack: RunningStack;
let dataDir: string;
let browser: Browser;
let receiver: Receiver;
let redirects: RedirectReceiver;
let portal: string;
let issuer: string;

beforeAll(async () => {
  dataDir = await makeDataDir();
  await mkdir(RESULTS, { recursive: true });
  // Each kept as it starts, and all settled before going on: one that fails (a stack slow to start on a
  // loaded machine) leaves the others for afterAll to close, not holding jest open after the file.
  const starts = await Promise.allSettled([
    startStack({ dataDir, env: STACK_ENV, readyWithinMs: READY_WITHIN_MS }).then((s) => {
      stack = s;
    }),
    launchChromium().then((b) => {
      browser = b;
    }),
    // The failing endpoint answers 500 until the test lets it succeed.
    startReceiver((request) =>
      request.path.startsWith('/fail') ? { status: 500, body: 'receiver says: database down' } : 200,
    ).then((r) => {
      receiver = r;
    }),
    startRedirectReceiver().then((r) => {
      redirects = r;
    }),
  ]);
  for (const start of starts) if (start.status === 'rejected') throw start.reason;
  portal = `http://127.0.0.1:${stack.portBase + 6}`;
  issuer = `http://127.0.0.1:${stack.portBase + 7}`;
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await redirects?.stop();
  await stack?.stop();
  if (dataDir) await removeDataDir(dataDir);
});

const PASSWORD = 'a long enough password';
const newEmail = () => `portal-${randomUUID().slice(0, 8)}@example.com`;

/** What the first person made, for the later tests. */
const first = {
  email: newEmail(),
  integrationId: '',
  key: '',
  keyId: '',
  okEndpointUrl: '',
  okEndpointId: '',
  failEndpointId: '',
};
let alice: PersonPage;

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

/** The page has loaded what it shows: a title, and nothing left loading. */
const shown = async (page: Page): Promise<void> => {
  await page.waitForFunction(
    () => document.querySelector('h1') !== null && document.querySelector('.loading') === null,
  );
};

const screenshots = async (page: Page, name: string) => {
  await page.screenshot({ path: join(RESULTS, `portal-${name}-1280.png`), fullPage: true });
};

/** Axe at both widths, on the page showing now, opened again (a GET) with the person's cookies. */
const expectAccessible = async (person: PersonPage, name: string) => {
  await shown(person.page);
  await screenshots(person.page, name);
  const found = await axeViolations(
    browser,
    person.page.url(),
    [320, 1280],
    await person.context.cookies(),
    shown,
  );
  expect(found).toEqual([]);
  // On a 390 px phone: the page never scrolls sideways, and every control can be brought into view
  // (a wide table's own region scrolls to it), then kept for a person to look at.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    await phone.addCookies(await person.context.cookies());
    const page = await phone.newPage();
    await page.goto(person.page.url());
    await shown(page);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBe(0);
    const outOfReach = await page.evaluate(() =>
      Array.from(
        document.querySelectorAll<HTMLElement>(
          'main button, main a[href], main input, main select, main summary',
        ),
      )
        .filter((control) => control.getClientRects().length > 0)
        .flatMap((control) => {
          control.scrollIntoView({ block: 'center', inline: 'center' });
          const box = control.getBoundingClientRect();
          return box.left >= 0 && box.right <= window.innerWidth ? [] : [control.outerHTML.slice(0, 80)];
        }),
    );
    expect(outOfReach).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(RESULTS, `portal-${name}-390.png`), fullPage: true });
  } finally {
    await phone.close();
  }
};

/** From the portal's sign-in page through the identity provider's sign-up, back to the portal. */
const signUp = async (person: PersonPage, email: string) => {
  await person.page.goto(`${portal}/`);
  expect(await heading(person.page)).toBe('Sign in to the developer portal');
  await person.page.getByRole('link', { name: 'Sign in', exact: true }).click();
  await person.page.getByRole('link', { name: 'Create account' }).click();
  await person.page.waitForURL(/\/sign-up$/);
  await person.page.getByLabel('Email', { exact: true }).fill(email);
  await person.page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await button(person.page, 'Create account').click();
  await person.page.waitForURL(`${portal}/`);
};

const createOrganisation = async (page: Page, name: string) => {
  await page.getByRole('heading', { name: 'Create your organisation' }).waitFor();
  await page.getByLabel('Organisation name').fill(name);
  await button(page, 'Create organisation').click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
};

/** A call to the portal's JSON routes from the person's page: their cookie, and the CSRF token unless told. */
const portalCall = (
  page: Page,
  method: string,
  path: string,
  body?: unknown,
  withToken = true,
): Promise<{ status: number; body: { error?: { code: string } } & Record<string, unknown> }> =>
  page.evaluate(
    async ({ method, path, body, withToken }) => {
      const session = (await (await fetch('/api/session')).json()) as { csrf_token: string };
      const answer = await fetch(path, {
        method,
        headers: {
          'Content-Type': 'application/json',
          ...(withToken && { 'X-CSRF-Token': session.csrf_token }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      return { status: answer.status, body: await answer.json() };
    },
    { method, path, body, withToken },
  );

const exchange = (key: string) =>
  fetch(`${stack.sandbox}/v1/token`, { method: 'POST', headers: { Authorization: `Bearer ${key}` } });

/** The secret the page shows once. */
const shownSecret = async (page: Page): Promise<string> => {
  const secret = (await page.getByTestId('secret').textContent()) ?? '';
  await button(page, 'I have copied it').click();
  await expect(page.getByTestId('secret').count()).resolves.toBe(0);
  return secret;
};

test('a new person signs up, creates the organisation (once) and an integration, and sees its addresses', async () => {
  alice = await openPersonPage(browser);
  await alice.page.goto(`${portal}/`);
  await expectAccessible(alice, 'sign-in');
  await signUp(alice, first.email);
  await expectAccessible(alice, 'create-organisation');
  await createOrganisation(alice.page, 'Harbour Conveyancing');
  expect(await alice.page.getByTestId('sandbox-budget').textContent()).toBe(
    '0 of 3 sandbox contracts used (3 left).',
  );
  // The bar shows what is left: full while nothing is used.
  const bar = alice.page.getByRole('meter', { name: 'Sandbox budget left' });
  expect([await bar.getAttribute('aria-valuenow'), await bar.getAttribute('aria-valuemax')]).toEqual([
    '3',
    '3',
  ]);
  expect(await bar.locator('.bar-fill').evaluate((fill) => (fill as HTMLElement).style.width)).toBe('100%');
  await expect(alice.page.getByText(`Signed in as ${first.email}`).count()).resolves.toBe(1);
  await expectAccessible(alice, 'overview');

  // No second organisation, whatever the page offers.
  const second = await portalCall(alice.page, 'POST', '/api/organisation', { name: 'Another' });
  expect(second.status).toBe(409);
  expect(second.body.error?.code).toBe('organisation_exists');

  await alice.page.getByRole('link', { name: 'Integrations', exact: true }).click();
  expect(await heading(alice.page)).toBe('Integrations');
  await alice.page.getByText('You have no integration yet.', { exact: false }).waitFor();
  await alice.page.getByLabel('Integration name').fill('Settlement app');
  await button(alice.page, 'Create integration').click();
  await alice.page.getByRole('cell', { name: 'Settlement app', exact: true }).waitFor();
  await expectAccessible(alice, 'integrations');

  await alice.page.getByRole('link', { name: 'Settlement app in the sandbox' }).click();
  await alice.page.getByTestId('base-url').waitFor();
  first.integrationId = /\/sandbox\/integrations\/(int_[A-Za-z0-9]+)$/.exec(alice.page.url())?.[1] ?? '';
  expect(first.integrationId).not.toBe('');
  expect(await heading(alice.page)).toBe('Settlement app — Sandbox');
  expect(await alice.page.locator('.environment').textContent()).toContain('Environment: Sandbox');
  expect(await alice.page.getByTestId('base-url').textContent()).toBe(stack.sandbox);
  expect(await alice.page.getByTestId('frame-url').textContent()).toBe(stack.frame.sandbox);
  await expectAccessible(alice, 'integration');

  // The same integration in production, in words and addresses.
  await alice.page.getByRole('link', { name: 'Switch to production' }).click();
  await alice.page.waitForURL(`${portal}/production/integrations/${first.integrationId}`);
  await alice.page.getByTestId('base-url').waitFor();
  expect(await alice.page.locator('.environment').textContent()).toContain('Environment: Production');
  expect(await alice.page.getByTestId('base-url').textContent()).toBe(stack.production);
  expect(await alice.page.getByTestId('frame-url').textContent()).toBe(stack.frame.production);
}, 180_000);

test('a sandbox key, shown once, is exchanged at POST /v1/token and listed with its last use', async () => {
  const { page } = alice;
  await page.goto(`${portal}/sandbox/integrations/${first.integrationId}/api-keys`);
  await shown(page);
  await page.getByText('No sandbox key yet.', { exact: false }).waitFor();
  await page.getByLabel('Key name (optional)').fill('Build server');
  await button(page, 'Create key').click();
  await page.getByTestId('secret').waitFor();
  first.key = await shownSecret(page);
  expect(first.key).toMatch(/^svc_test_/);

  const answer = await exchange(first.key);
  expect(answer.status).toBe(200);
  const { access_token: token } = (await answer.json()) as { access_token: string };
  // Calls for the history: one found, one not.
  expect(
    (await fetch(`${stack.sandbox}/v1/clients`, { headers: { Authorization: `Bearer ${token}` } })).status,
  ).toBe(200);
  const missing = await fetch(`${stack.sandbox}/v1/contract-reviews/crv_doesnotexist`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(missing.status).toBe(404);

  await page.reload();
  const row = page.getByRole('row', { name: /Build server/ });
  await row.waitFor();
  expect(await row.textContent()).not.toContain('Never');
  expect(await row.textContent()).toContain(first.key.slice(0, 13));
  await expectAccessible(alice, 'api-keys');
}, 120_000);

test("a new key comes with a first call, ready to run, at its environment's address", async () => {
  // In production, so that the sandbox's request history below holds only the calls it counts.
  const { page } = alice;
  await page.goto(`${portal}/production/integrations/${first.integrationId}/api-keys`);
  await shown(page);
  await button(page, 'Create key').click();
  const shownCall = page.getByTestId('first-call');
  await shownCall.waitFor();
  const script = (await shownCall.textContent()) ?? '';
  const key = (await page.getByTestId('secret').textContent()) ?? '';
  expect(key).toMatch(/^svc_live_/);
  expect(script).toContain(`'${stack.production}/v1/token'`);
  expect(script).toContain(key);
  // Pasted into a shell as it is: the token, then the (empty) list it opens.
  const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script]);
  expect(JSON.parse(stdout)).toEqual({ data: [], has_more: false });
  await shownSecret(page);
  await expect(shownCall.count()).resolves.toBe(0);

  // On a 390 px phone: the key says it is active, the page does not scroll sideways, the table says
  // it does, and its Revoke button is reachable there.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    await phone.addCookies(await alice.context.cookies());
    const small = await phone.newPage();
    await small.goto(page.url());
    await shown(small);
    const row = small.getByRole('row', { name: /svc_live_/ });
    await row.waitFor();
    expect(await row.locator('.state').textContent()).toBe('Active');
    await small.getByTestId('scroll-cue').waitFor();
    const revoke = row.getByRole('button', { name: 'Revoke', exact: true });
    await revoke.scrollIntoViewIfNeeded();
    const box = await revoke.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    expect(
      await small.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBe(0);
    await small.screenshot({ path: join(RESULTS, 'portal-api-keys-390.png'), fullPage: true });
  } finally {
    await phone.close();
  }
}, 120_000);

test('an endpoint at a local receiver: registered with its secret shown once, a test event delivered and signed', async () => {
  const { page } = alice;
  await page.goto(`${portal}/sandbox/integrations/${first.integrationId}/webhook-endpoints`);
  await shown(page);
  await page.getByText('No endpoint yet.', { exact: false }).waitFor();
  first.okEndpointUrl = `${receiver.origin}/ok`;
  await page.getByLabel('Endpoint address').fill(first.okEndpointUrl);
  // Select all ticks every event and unticks them all; one chosen leaves it neither (indeterminate).
  const selectAll = page.getByRole('checkbox', { name: 'Select all' });
  const events = page.getByRole('group', { name: 'Events to receive' }).getByRole('checkbox');
  const ticked = () => events.evaluateAll((boxes) => boxes.map((box) => (box as HTMLInputElement).checked));
  await selectAll.check();
  expect(new Set(await ticked())).toEqual(new Set([true]));
  await selectAll.uncheck();
  expect(new Set(await ticked())).toEqual(new Set([false]));
  await page.getByRole('checkbox', { name: /^contract-reviews\.publication\.published / }).check();
  expect(await selectAll.evaluate((box) => (box as HTMLInputElement).indeterminate)).toBe(true);
  await button(page, 'Register endpoint').click();
  await page.getByTestId('secret').waitFor();
  const secret = await shownSecret(page);
  expect(secret).toMatch(/^whsec_/);
  await expectAccessible(alice, 'webhook-endpoints');

  await page.getByRole('link', { name: first.okEndpointUrl }).click();
  await page.getByTestId('endpoint-state').waitFor();
  first.okEndpointId = /webhook-endpoints\/(whe_[A-Za-z0-9]+)$/.exec(page.url())?.[1] ?? '';
  await page.getByText('Nothing delivered to this endpoint yet.', { exact: false }).waitFor();
  await button(page, 'Send test event').click();
  const delivery = page.getByTestId('delivery').first();
  await delivery.getByText('test · Delivered').waitFor({ timeout: 60_000 });
  expect(await delivery.getByRole('cell', { name: 'HTTP 200' }).count()).toBe(1);

  const [received] = await receiver.waitFor(1, (request) => request.path === '/ok');
  const verified = new Webhook(secret).verify(received!.body, received!.headers) as { type: string };
  expect(verified.type).toBe('test');
  await expectAccessible(alice, 'endpoint');
}, 120_000);

test('a failing endpoint fails every attempt, then a redelivery after the receiver recovers is delivered', async () => {
  const { page } = alice;
  await page.goto(`${portal}/sandbox/integrations/${first.integrationId}/webhook-endpoints`);
  await shown(page);
  await page.getByLabel('Endpoint address').fill(`${receiver.origin}/fail`);
  await page.getByRole('checkbox', { name: /^contract-reviews\.publication\.published / }).check();
  await button(page, 'Register endpoint').click();
  await page.getByTestId('secret').waitFor();
  await shownSecret(page);
  await page.getByRole('link', { name: `${receiver.origin}/fail` }).click();
  await page.getByTestId('endpoint-state').waitFor();
  first.failEndpointId = /webhook-endpoints\/(whe_[A-Za-z0-9]+)$/.exec(page.url())?.[1] ?? '';

  await button(page, 'Send test event').click();
  const delivery = page.getByTestId('delivery').first();
  // Eight attempts, each answered 500: failed. The page looks again on its own while it is under way.
  await delivery.getByText('test · Failed').waitFor({ timeout: 90_000 });
  expect(await delivery.getByRole('cell', { name: 'HTTP 500' }).count()).toBe(8);
  // What was sent (the signed envelope) and what the receiver answered, as recorded.
  await delivery.getByText('Payload (what every attempt sends)').click();
  const payload = JSON.parse((await delivery.locator('details.body pre').first().textContent()) ?? '');
  expect(payload).toMatchObject({ type: 'test', test: true, data: expect.any(Object) });
  const firstAnswer = delivery.getByRole('row').nth(1);
  await firstAnswer.getByText('Body', { exact: true }).click();
  expect(await firstAnswer.locator('pre').textContent()).toBe('receiver says: database down');
  await screenshots(page, 'endpoint-failed');

  receiver.setPolicy(() => 200);
  await delivery.getByRole('button', { name: /^Redeliver msg_/ }).click();
  await delivery.getByText('test · Delivered').waitFor({ timeout: 60_000 });
  const rows = await delivery.getByRole('row').allTextContents();
  // The header, eight failures of round 1, and round 2's success.
  expect(rows).toHaveLength(10);
  expect(rows[9]).toMatch(/^21.*HTTP 200/);

  // Disabled, no test event; a new secret shown once; deleted after the question.
  await button(page, 'Disable').click();
  await expect(page.getByTestId('endpoint-state').getByText('Disabled').waitFor()).resolves.toBeUndefined();
  expect(await button(page, 'Send test event').isDisabled()).toBe(true);
  const refused = await portalCall(
    page,
    'POST',
    `/api/sandbox/webhook-endpoints/${first.failEndpointId}/test-event`,
  );
  expect(refused.status).toBe(409);
  expect(refused.body.error?.code).toBe('endpoint_disabled');
  await button(page, 'Enable').click();
  await page.getByTestId('endpoint-state').getByText('Enabled').waitFor();
  await button(page, 'Rotate secret').click();
  await page.getByTestId('secret').waitFor();
  expect(await shownSecret(page)).toMatch(/^whsec_/);
  await button(page, 'Delete endpoint').click();
  await button(page, 'Cancel').click();
  expect(page.url()).toContain(first.failEndpointId);
  await button(page, 'Delete endpoint').click();
  await button(page, 'Delete').click();
  await page.waitForURL(`${portal}/sandbox/integrations/${first.integrationId}/webhook-endpoints`);
  await page.getByRole('link', { name: first.okEndpointUrl }).waitFor();
  expect(await page.getByRole('link', { name: `${receiver.origin}/fail` }).count()).toBe(0);
}, 180_000);

test('a revoked key is refused at the next exchange', async () => {
  const { page } = alice;
  await page.goto(`${portal}/sandbox/integrations/${first.integrationId}/api-keys`);
  const row = page.getByRole('row', { name: /Build server/ });
  await row.waitFor();
  const region = page.getByRole('region', { name: 'API keys', exact: true });
  const width = () => region.evaluate((element) => element.scrollWidth);
  const before = await width();
  // The question is a modal dialog over the page: the table keeps its width, Cancel has the focus,
  // and Escape closes it with nothing done, focus back on Revoke.
  const revoke = row.getByRole('button', { name: 'Revoke', exact: true });
  await revoke.click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  expect(await width()).toBe(before);
  expect(
    await dialog.getByRole('button', { name: 'Cancel' }).evaluate((b) => b === document.activeElement),
  ).toBe(true);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  expect(await revoke.evaluate((b) => b === document.activeElement)).toBe(true);
  expect(await row.locator('.state').textContent()).toBe('Active');
  await revoke.click();
  await dialog.getByRole('button', { name: 'Revoke key' }).click();
  await row.getByText(/^Revoked /).waitFor();
  const answer = await exchange(first.key);
  expect(answer.status).toBe(401);
  expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('api_key_invalid');
}, 60_000);

test('request history: the calls with an accepted credential, filtered and paged', async () => {
  // More calls than a page holds (20), with a second key.
  const { page } = alice;
  const created = await portalCall(
    page,
    'POST',
    `/api/sandbox/integrations/${first.integrationId}/api-keys`,
    {
      name: 'History',
    },
  );
  expect(created.status).toBe(201);
  const token = ((await (await exchange(created.body.key as string)).json()) as { access_token: string })
    .access_token;
  for (let call = 0; call < 21; call++)
    expect(
      (
        await fetch(`${stack.sandbox}/v1/contract-reviews?limit=1`, {
          headers: { Authorization: `Bearer ${token}` },
        })
      ).status,
    ).toBe(200);
  // 2 exchanges, /v1/clients, the 404 and 21 lists: 25 recorded (the refused exchange is not).
  await eventually(
    async () =>
      (
        await ops(
          stack,
          'request-history',
          '--environment',
          'sandbox',
          '--integration',
          first.integrationId,
          '--limit',
          '100',
        )
      ).json as { data: unknown[] } | undefined,
    (history) => history?.data.length === 25,
    { what: '25 recorded calls' },
  );

  await page.goto(`${portal}/sandbox/integrations/${first.integrationId}/requests`);
  await shown(page);
  const rows = page.getByTestId('request');
  await expect(rows.count()).resolves.toBe(20);
  await button(page, 'Older requests').click();
  await eventually(
    () => rows.count(),
    (count) => count === 5,
    { what: 'the second page' },
  );
  await expectAccessible(alice, 'requests');

  // Applying filters shows the new page once it has loaded (the old one stays meanwhile): polled.
  const filter = async (fill: () => Promise<unknown>) => {
    await button(page, 'Clear filters').click();
    await fill();
    await button(page, 'Apply filters').click();
    await shown(page);
    return rows.allTextContents();
  };
  const notFound = await eventually(
    () => filter(() => page.getByLabel('Status', { exact: true }).fill('4xx')),
    (found) => found.length === 1,
  );
  expect(notFound[0]).toContain('/v1/contract-reviews/crv_doesnotexist');
  expect(notFound[0]).toContain('404');
  // A 404 reads as a warning at a glance; its detail says what it means and which id to quote.
  expect(await rows.first().locator('.state').getAttribute('class')).toContain('state-warn');
  await rows
    .first()
    .getByRole('button', { name: /^Details of rqs_/ })
    .click();
  const detail = page.getByTestId('request-detail');
  await detail.waitFor();
  expect(await detail.textContent()).toContain(
    'Nothing of this integration at this address or with this id.',
  );
  await page.keyboard.press('Escape');
  await detail.waitFor({ state: 'detached' });
  // The filters' controls stand on one line at 1280 px.
  const bottoms = await Promise.all(
    ['Status', 'Method', 'Path starts with', 'Time'].map(async (label) => {
      const box = await page.getByLabel(label, { exact: true }).boundingBox();
      return box ? Math.round(box.y + box.height) : -1;
    }),
  );
  expect(new Set(bottoms).size).toBe(1);
  const posts = await eventually(
    () => filter(() => page.getByLabel('Method', { exact: true }).selectOption('POST')),
    (found) => found.length === 2,
  );
  expect(posts.every((text) => text.includes('/v1/token'))).toBe(true);
  const clients = await eventually(
    () => filter(() => page.getByLabel('Path starts with').fill('/v1/clients')),
    (found) => found.length === 1,
  );
  expect(clients[0]).toContain('200');
  // The last hour holds them all (a first page); a window that ended before they were made holds none.
  await eventually(
    () => filter(() => page.getByLabel('Time', { exact: true }).selectOption('hour')),
    (found) => found.length === 20,
  );
  await eventually(
    () =>
      filter(async () => {
        await page.getByLabel('Time', { exact: true }).selectOption('between');
        await page.getByLabel('From', { exact: true }).fill('2026-01-01T00:00:00');
        await page.getByLabel('To', { exact: true }).fill('2026-01-02T00:00:00');
      }),
    (found) => found.length === 0,
  );
  await expect(page.getByText('No call matches these filters.', { exact: false }).count()).resolves.toBe(1);
}, 180_000);

test('changes need the session and its CSRF token, from the portal itself', async () => {
  const path = `/api/sandbox/integrations/${first.integrationId}/api-keys`;
  const withoutToken = await portalCall(alice.page, 'POST', path, { name: 'x' }, false);
  expect(withoutToken.status).toBe(403);
  expect(withoutToken.body.error?.code).toBe('csrf_invalid');
  // Every route that changes anything, and signing out, refuses a request without the token.
  const changes = PORTAL_ROUTES.filter((route) => route.method !== 'GET').map((route) => ({
    method: route.method,
    path: route.path
      .replace(/:environment\{[^/]+\}/, 'sandbox')
      .replaceAll(/:\w+\{[^/]+\}/g, first.integrationId),
  }));
  expect(changes.length).toBeGreaterThan(10);
  for (const change of [...changes, { method: 'POST', path: '/api/sign-out' }]) {
    const refused = await portalCall(alice.page, change.method, change.path, {}, false);
    expect([change.path, refused.status, refused.body.error?.code]).toEqual([
      change.path,
      403,
      'csrf_invalid',
    ]);
  }
  const cookie = (await alice.context.cookies(portal)).map((c) => `${c.name}=${c.value}`).join('; ');
  const session = (await (await fetch(`${portal}/api/session`, { headers: { cookie } })).json()) as {
    csrf_token: string;
  };
  const otherSite = await fetch(`${portal}${path}`, {
    method: 'POST',
    headers: {
      cookie,
      origin: 'http://evil.example',
      'x-csrf-token': session.csrf_token,
      'content-type': 'application/json',
    },
    body: '{}',
  });
  expect(otherSite.status).toBe(403);
  const signedOut = await fetch(`${portal}${path}`);
  expect(signedOut.status).toBe(401);
  expect(((await signedOut.json()) as { error: { code: string } }).error.code).toBe(
    'authentication_required',
  );
  // The session cookie is HttpOnly and SameSite; no token of the identity provider is in the browser.
  // (Cookies are not kept apart by port: the identity provider's, on the same host, are left out.)
  const cookies = (await alice.context.cookies(portal)).filter((c) => c.name.startsWith('portal'));
  expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite])).toEqual([['portal_session', true, 'Lax']]);
  expect(await alice.page.evaluate(() => document.cookie)).toBe('');
}, 60_000);

test('pages carry the strict policy; unknown routes and methods are answered; a sign-in returns only here', async () => {
  const page = await fetch(`${portal}/integrations`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-security-policy')).toBe(
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
  expect(page.headers.get('x-frame-options')).toBe('DENY');
  expect(await page.text()).not.toMatch(/<script>|<style>| style=/);
  const cookie = (await alice.context.cookies(portal)).map((c) => `${c.name}=${c.value}`).join('; ');
  const unknown = await fetch(`${portal}/api/nothing-here`, { headers: { cookie } });
  expect([unknown.status, ((await unknown.json()) as { error: { code: string } }).error.code]).toEqual([
    404,
    'not_found',
  ]);
  const wrongMethod = await fetch(`${portal}/api/integrations`, { method: 'PUT', headers: { cookie } });
  expect(wrongMethod.status).toBe(403); // a change without its CSRF token is refused before anything else
  const session = (await (await fetch(`${portal}/api/session`, { headers: { cookie } })).json()) as {
    csrf_token: string;
  };
  const put = await fetch(`${portal}/api/integrations`, {
    method: 'PUT',
    headers: { cookie, 'x-csrf-token': session.csrf_token },
  });
  expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, POST']);
  // Signed in at the identity provider already: straight back, to the portal's own home, not elsewhere.
  await alice.page.goto(`${portal}/auth/sign-in?return_to=//evil.example/x`);
  await alice.page.waitForURL(`${portal}/`);
  await alice.page.getByRole('heading', { name: 'Overview' }).waitFor();
}, 60_000);

test('a second person sees none of the first person’s data', async () => {
  const bob = await openPersonPage(browser);
  try {
    await signUp(bob, newEmail());
    await createOrganisation(bob.page, 'Other Agency');
    await bob.page.goto(`${portal}/integrations`);
    await bob.page.getByText('You have no integration yet.', { exact: false }).waitFor();
    await bob.page.goto(`${portal}/sandbox/integrations/${first.integrationId}`);
    await bob.page.getByText('No integration with that id exists here.').waitFor();
    for (const [method, path] of [
      ['GET', `/api/sandbox/integrations/${first.integrationId}/api-keys`],
      ['GET', `/api/sandbox/integrations/${first.integrationId}/webhook-endpoints`],
      ['GET', `/api/sandbox/integrations/${first.integrationId}/requests`],
      ['GET', `/api/sandbox/webhook-endpoints/${first.okEndpointId}`],
      ['GET', `/api/sandbox/webhook-endpoints/${first.okEndpointId}/messages`],
      ['POST', `/api/sandbox/webhook-endpoints/${first.okEndpointId}/test-event`],
      ['DELETE', `/api/sandbox/webhook-endpoints/${first.okEndpointId}`],
    ] as const) {
      const answer = await portalCall(bob.page, method, path);
      expect([path, answer.status, answer.body.error?.code]).toEqual([path, 404, 'not_found']);
    }
    const overview = await portalCall(bob.page, 'GET', '/api/organisation');
    expect(overview.body).toMatchObject({ organisation: { name: 'Other Agency' }, integrations: [] });
    // Signing out: the portal's session goes, then the identity provider's question, then back here.
    const cookie = (await bob.context.cookies(portal))
      .filter((c) => c.name.startsWith('portal'))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
    await button(bob.page, 'Sign out').click();
    await bob.page.getByRole('heading', { name: 'Sign out?' }).waitFor();
    await button(bob.page, 'Sign out').click();
    await bob.page.waitForURL(`${portal}/`);
    expect(await heading(bob.page)).toBe('Sign in to the developer portal');
    const after = await fetch(`${portal}/api/organisation`, { headers: { cookie } });
    expect(after.status).toBe(401);
    expectOnlyOwnRequests(bob.requests, portal, issuer);
  } finally {
    await bob.close();
  }
}, 120_000);

test('a connected MCP client is listed and revoked: it can no longer refresh its tokens', async () => {
  const discovery = await discover(issuer);
  const client = await registerClient(discovery, redirects.redirectUri, 'Test agent');
  const { page } = alice;
  const request = authorizationRequest(discovery, client.client_id, redirects.redirectUri, {
    resource: `${stack.sandbox}/mcp`,
  });
  await page.goto(request.url);
  await button(page, 'Allow').click();
  const answer = await arrivalAt(page, redirects.redirectUri);
  const tokens = await exchangeCode(
    discovery,
    { clientId: client.client_id, redirectUri: redirects.redirectUri },
    answer.get('code') ?? '',
    request.verifier,
    `${stack.sandbox}/mcp`,
  );
  expect(tokens.status).toBe(200);

  await page.goto(`${portal}/mcp-clients`);
  const row = page.getByRole('row', { name: new RegExp(client.client_id) });
  await row.waitFor();
  expect(await row.textContent()).toContain('Test agent');
  await expectAccessible(alice, 'mcp-clients');
  await row.getByRole('button', { name: 'Revoke', exact: true }).click();
  await row.getByRole('button', { name: 'Revoke access' }).click();
  await page.getByText('No MCP client is connected.', { exact: false }).waitFor();
  const refreshed = await refresh(
    discovery,
    client.client_id,
    tokens.body.refresh_token ?? '',
    `${stack.sandbox}/mcp`,
  );
  expect(refreshed.status).toBe(400);
  expect(refreshed.body.error).toBe('invalid_grant');
}, 120_000);

test('an unknown page says where to go', async () => {
  await alice.page.goto(`${portal}/no/such/page`);
  expect(await heading(alice.page)).toBe('Page not found');
  await expectAccessible(alice, 'not-found');
}, 60_000);

/** The identity provider's interaction pages the browser showed while `act` ran. */
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

// The one restart of this file's stack serves two checks, each of a stack's start: the portal's and the
// identity provider's state across it.
test('after a restart of the stack the person is still signed in, with their data; the identity provider keeps its client, person, session, consent, refresh token and signing key', async () => {
  // Before: a client registered, a person who signed up and allowed it, and the tokens it was issued.
  const { redirectUri } = redirects;
  const resource = `${stack.production}/mcp`;
  const before = await discover(issuer);
  const client = {
    clientId: (await registerClient(before, redirectUri, 'Kept agent')).client_id,
    redirectUri,
  };
  const kept = { email: `kept-${randomUUID().slice(0, 8)}@example.com`, password: 'a password to keep' };
  const person = await openPersonPage(browser);
  const elsewhere = await openPersonPage(browser);
  try {
    const asked = authorizationRequest(before, client.clientId, redirectUri, { resource });
    await person.page.goto(asked.url);
    await person.page.getByRole('link', { name: 'Create account' }).click();
    await person.page.getByLabel('Email', { exact: true }).fill(kept.email);
    await person.page.getByLabel('Password', { exact: true }).fill(kept.password);
    await person.page.getByRole('button', { name: 'Create account' }).click();
    await person.page.getByRole('button', { name: 'Allow' }).click();
    const code = (await arrivalAt(person.page, redirectUri)).get('code') ?? '';
    const issued = await exchangeCode(before, client, code, asked.verifier, resource);
    expect(issued.status).toBe(200);
    const keyId = decodeProtectedHeader(issued.body.access_token).kid;

    expect(await stack.stop()).toBe(0);
    stack = await startStack({
      dataDir,
      portBase: stack.portBase,
      env: STACK_ENV,
      readyWithinMs: READY_WITHIN_MS,
    });

    // The portal: still signed in, with the endpoint and the revoked key.
    const { page } = alice;
    await page.goto(`${portal}/sandbox/integrations/${first.integrationId}/webhook-endpoints`);
    await page.getByRole('link', { name: first.okEndpointUrl }).waitFor();
    await expect(page.getByText(`Signed in as ${first.email}`).count()).resolves.toBe(1);
    await page.goto(`${portal}/sandbox/integrations/${first.integrationId}/api-keys`);
    await page
      .getByRole('row', { name: /Build server/ })
      .getByText(/^Revoked /)
      .waitFor();
    expect(await alice.violations()).toEqual([]);
    expectOnlyOwnRequests(alice.requests, portal, issuer, redirects.redirectUri);
    await alice.close();

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
    const third = authorizationRequest(after, client.clientId, redirectUri, { resource });
    let thirdCode = '';
    const shownElsewhere = await pagesShownDuring(elsewhere, async () => {
      await elsewhere.page.goto(third.url);
      await elsewhere.page.getByLabel('Email', { exact: true }).fill(kept.email);
      await elsewhere.page.getByLabel('Password', { exact: true }).fill(kept.password);
      await elsewhere.page.getByRole('button', { name: 'Sign in' }).click();
      thirdCode = (await arrivalAt(elsewhere.page, redirectUri)).get('code') ?? '';
    });
    // The sign-in page only: no consent page.
    expect(shownElsewhere).toHaveLength(1);
    const tokens = await exchangeCode(after, client, thirdCode, third.verifier, resource);
    const claims = await verifyAccessToken(after, tokens.body.access_token, resource);
    expect(claims.sub).toBe((await verifyAccessToken(after, issued.body.access_token, resource)).sub);
  } finally {
    await person.close();
    await elsewhere.close();
  }
}, 300_000);
