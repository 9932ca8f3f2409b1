// Browser test of the back office's Reviews list and review page (offset 8) on the real local stack, as
// the operator's lawyer uses them (decisions.md §11): a review requested through /v1 appears in the list
// by itself; the lawyer saves a draft, reloads (the draft is kept), and publishes with the keyboard only;
// then /v1, the hosted review page and the signed `lawyer_review.completed` webhook all show it, and the
// review has left the list. An integrator who signs in sees only that the back office is for staff. Axe
// finds nothing at 320 and 1280 px; screenshots of the list and the review page go to test-results/.
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { contractParts, exchange, upload } from '../support/api-client';
import {
  devBootstrap,
  makeDataDir,
  ops,
  type RunningStack,
  removeDataDir,
  startStack,
} from '../support/local-stack';
import { contractPdf } from '../support/pdfs';
import { isPublished, publication, waitForReview } from '../support/pipeline';
import { aboutReview, envelopeOf, type Receiver, startReceiver, verifies } from '../support/webhook-receiver';
import { axeViolations, launchChromium, RESULTS } from './harness';

const PASSWORD = 'local-dev-password';
const COMPLETED = 'contract-reviews.lawyer_review.completed';

let stack: RunningStack;
let dataDir: string;
let browser: Browser;
let receiver: Receiver;
let backOffice: string;
let token: string;
let webhookSecret: string;

beforeAll(async () => {
  dataDir = await makeDataDir();
  await mkdir(RESULTS, { recursive: true });
  [stack, browser, receiver] = await Promise.all([
    startStack({ dataDir, env: { RATE_LIMITS: 'off' } }),
    launchChromium(),
    startReceiver(),
  ]);
  backOffice = `http://127.0.0.1:${stack.portBase + 8}`;
  const boot = await devBootstrap(stack);
  token = await exchange(stack.sandbox, boot.keys.sandbox);
  const endpoint = await ops(
    stack,
    'webhook-endpoint-create',
    '--environment',
    'sandbox',
    '--url',
    `${receiver.origin}/hooks`,
    '--events',
    COMPLETED,
  );
  webhookSecret = endpoint.json?.secret as string;
  expect(webhookSecret).toMatch(/^whsec_/);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await stack?.stop();
  if (dataDir) await removeDataDir(dataDir);
});

const heading = (page: Page) => page.getByRole('heading', { level: 1 });

/** The page has loaded what it shows: a title, and nothing left loading. */
const shown = async (page: Page): Promise<void> => {
  await page.waitForFunction(
    () => document.querySelector('h1') !== null && document.querySelector('.loading') === null,
  );
};

/** A signed-in person's browser, from the back office's sign-in page through the identity provider's. */
const signIn = async (email: string, path: string): Promise<{ context: BrowserContext; page: Page }> => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${backOffice}${path}`);
  await heading(page).filter({ hasText: 'Sign in to the back office' }).waitFor();
  await page.getByRole('link', { name: 'Sign in', exact: true }).click();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${backOffice}${path}`);
  return { context, page };
};

/** Axe at 320 and 1280 px on the page showing now, and no sideways scroll at 320 px; a screenshot. */
const expectAccessible = async (context: BrowserContext, page: Page, name: string) => {
  await shown(page);
  await page.screenshot({ path: join(RESULTS, `back-office-${name}-1280.png`), fullPage: true });
  expect(await axeViolations(browser, page.url(), [320, 1280], await context.cookies(), shown)).toEqual([]);
  const phone = await browser.newContext({ viewport: { width: 320, height: 640 } });
  try {
    await phone.addCookies(await context.cookies());
    const small = await phone.newPage();
    await small.goto(page.url());
    await shown(small);
    expect(
      await small.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBe(0);
    await small.screenshot({ path: join(RESULTS, `back-office-${name}-320.png`), fullPage: true });
  } finally {
    await phone.close();
  }
};

/** Presses Tab until `target` has the focus (at most `limit` times): the page is usable by keyboard alone. */
const tabTo = async (page: Page, target: string, backwards = false, limit = 120): Promise<void> => {
  for (let presses = 0; presses < limit; presses += 1) {
    if (await page.locator(target).evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${target} never took the focus in ${limit} presses of Tab`);
};

test('an integrator who signs in sees only that the back office is for the staff', async () => {
  const { context, page } = await signIn('dev@localhost.test', '/sandbox/reviews');
  try {
    await expect(heading(page).textContent()).resolves.toBe('Back office');
    await page.getByText("The back office is for the operator's staff.").waitFor();
    expect(await page.getByRole('navigation').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Reviews' }).count()).toBe(0);
    await expectAccessible(context, page, 'staff-only');
  } finally {
    await context.close();
  }
}, 180_000);

test('a lawyer sees a due review appear, saves a draft, reloads, and publishes it with the keyboard', async () => {
  const { context, page } = await signIn('lawyer@localhost.test', '/sandbox/reviews');
  try {
    await heading(page).filter({ hasText: 'Reviews' }).waitFor();
    await page.getByTestId('environment').filter({ hasText: 'Sandbox' }).waitFor();
    // The lawyer sees only the sections of the role lawyer.
    expect(
      await page.getByRole('navigation', { name: 'Back office' }).getByRole('link').allTextContents(),
    ).toEqual(['Reviews']);

    const reference = `back-office-${randomUUID().slice(0, 8)}`;
    const sent = await upload(
      `${stack.sandbox}/v1/contract-reviews`,
      token,
      contractParts(await contractPdf(2), {
        external_reference: reference,
        product: 'legal_information',
        review: 'lawyer',
      }),
    );
    expect(sent.status).toBe(202);
    const id = sent.body.id as string;

    // The list, left open, shows the review once it is due: no reload, no click.
    const row = page.locator(`tr[data-review="${id}"]`);
    await row.waitFor({ timeout: 120_000 });
    expect(await row.getByRole('cell').first().textContent()).toBe(reference);
    await expectAccessible(context, page, 'reviews');

    await row.getByRole('link', { name: id }).click();
    await heading(page)
      .filter({ hasText: `Review of ${id}` })
      .waitFor();
    const field = page.getByLabel('Review', { exact: true });
    // Until a draft is saved, the field holds the analysis as drafted.
    await expect(field.inputValue()).resolves.toContain('#');
    await page.locator('#page-1 img').waitFor();
    await expectAccessible(context, page, 'review');

    // Keyboard only from here: Tab to the field, write, Tab to Save draft.
    const text = `## Checked by the lawyer\n\nThe deposit terms on page 1 are usual. <b>raw</b> ${reference}\n`;
    await tabTo(page, '#review-text');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(text);
    await tabTo(page, 'button:text-is("Save draft")');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Draft saved' }).waitFor();

    await page.reload();
    await heading(page)
      .filter({ hasText: `Review of ${id}` })
      .waitFor();
    await expect(field.inputValue()).resolves.toBe(text);
    await page.getByText('Last saved by lawyer@localhost.test').waitFor();

    await tabTo(page, 'button:text-is("Publish")');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // Cancel has the focus (the safe choice); the confirmation is one step back.
    await tabTo(page, 'dialog button:text-is("Publish review")', true, 5);
    await page.keyboard.press('Enter');
    await page.getByText('The review was published').waitFor({ timeout: 60_000 });

    // /v1 shows it completed and its review page live; the page holds the text (raw HTML as text).
    const done = await waitForReview(
      stack.sandbox,
      token,
      id,
      (review) => review.lawyer_review.state === 'completed' && isPublished('review')(review),
      90_000,
    );
    const url = publication(done, 'review')?.url as string;
    const hosted = await (await fetch(url)).text();
    expect(hosted).toContain('Checked by the lawyer');
    expect(hosted).toContain('&lt;b&gt;raw&lt;/b&gt;');
    // The review page shows the state and the link, once the publication is live.
    await page.getByRole('link', { name: url }).waitFor({ timeout: 60_000 });

    // The signed webhook.
    const [hook] = await receiver.waitFor(
      1,
      (request) => aboutReview(request) === id && envelopeOf(request).type === COMPLETED,
      60_000,
    );
    expect(hook && verifies(hook, webhookSecret)).toBe(true);

    // And the review has left the list.
    await page.goto(`${backOffice}/sandbox/reviews`);
    await heading(page).filter({ hasText: 'Reviews' }).waitFor();
    await shown(page);
    await expect(page.locator(`tr[data-review="${id}"]`).count()).resolves.toBe(0);
  } finally {
    await context.close();
  }
}, 420_000);
