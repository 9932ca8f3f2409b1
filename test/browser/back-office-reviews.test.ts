// Browser test of the back office's Reviews list and review page (offset 8) on the real local stack, as
// the operator's lawyer uses them (decisions.md §11): a review requested through /v1 appears in the list
// by itself; the lawyer saves a draft, reloads (the draft is kept), meets another save since (refused,
// nothing lost, saved over it), and publishes with the keyboard only;
// then /v1, the hosted review page and the signed `lawyer_review.completed` webhook all show it, and the
// review has left the list. A draft started on version 1 shows, once version 2 arrives with a changed
// clause, what changed on that page. With more reviews due than the list's first page holds, a newly due
// one (the list's last row) is named on the first page by the queue's summary. An integrator who signs in
// sees only that the back office is for staff. Axe finds nothing at 320 and 1280 px; screenshots of the
// list and the review page go to test-results/.
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Ports } from '../../lambdas/core/ports';
import { contractParts, exchange, upload } from '../support/api-client';
import { completion, contractReview, contractVersion, scopeIn } from '../support/fixtures';
import { devBootstrap, ops, type RunningStack } from '../support/local-stack';
import { contractPdf } from '../support/pdfs';
import { isPublished, publication, waitForReview } from '../support/pipeline';
import { useSharedStack } from '../support/shared-stacks';
import { createTenant, portsOf } from '../support/tenants';
import { aboutReview, envelopeOf, type Receiver, startReceiver, verifies } from '../support/webhook-receiver';
import { BACK_OFFICE_STACK } from './back-office-stack';
import { axeViolations, launchChromium, RESULTS } from './harness';

const PASSWORD = 'local-dev-password';
/** How each clause of test/support/pdfs.ts's contract begins (its first line holds these words). */
const CLAUSE_START = [
  'The Vendor agrees to sell',
  'The Purchaser must pay',
  'Settlement is due on',
  'The Property is sold',
  'The Vendor must deliver',
  'If the Purchaser defaults',
  'Rates, taxes and owners',
  'The Purchaser may inspect',
  'This contract is subject',
  'Any notice under this',
];
const COMPLETED = 'contract-reviews.lawyer_review.completed';
/** The Reviews list's first page (frontend/back-office/app/pages/reviews.tsx `QUEUE_PAGE_SIZE`). */
const FIRST_PAGE = 50;
const HOUR = 3_600_000_000;

let stack: RunningStack;
let browser: Browser;
let receiver: Receiver;
let backOffice: string;
let token: string;
let webhookSecret: string;

useSharedStack(
  (started) => {
    stack = started;
  },
  { env: BACK_OFFICE_STACK },
);

beforeAll(async () => {
  await mkdir(RESULTS, { recursive: true });
  // Each kept as it starts, and all settled before going on: one that fails leaves the others for afterAll
  // to close, not running on after the test file.
  const starts = await Promise.allSettled([
    launchChromium().then((b) => {
      browser = b;
    }),
    startReceiver().then((r) => {
      receiver = r;
    }),
  ]);
  for (const start of starts) if (start.status === 'rejected') throw start.reason;
  backOffice = `http://127.0.0.1:${stack.portBase + 8}`;
  // dev-bootstrap's staff sign in; the contracts come from this file's own organisation.
  const [, tenant] = await Promise.all([devBootstrap(stack), createTenant(stack, 'back office reviews')]);
  token = await exchange(stack.sandbox, tenant.keys.sandbox);
  // The file sends more sandbox contracts than the default budget of 3 allows.
  await ops(stack, 'set-budget', tenant.organisationId, '20');
  const endpoint = await ops(
    stack,
    'webhook-endpoint-create',
    '--environment',
    'sandbox',
    '--integration',
    tenant.integrationId,
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
});

/** A two-page sandbox contract sent for a lawyer's review under `reference`; its id once accepted (202). */
const sendForReview = async (reference: string): Promise<string> => {
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
  return sent.body.id as string;
};

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
  // The password check (scrypt) and the redirects back take long on a loaded machine: a bounded wait.
  await page.getByRole('button', { name: 'Sign in', exact: true }).click({ timeout: 120_000 });
  await page.waitForURL(`${backOffice}${path}`, { timeout: 120_000 });
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
    const id = await sendForReview(reference);

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

    // Another lawyer saves since this page read the draft (here through the API, as their page would): a
    // save from this page is refused and says so, the text stays in the field, and saving it over theirs works.
    const otherSave = await page.evaluate(async (reviewId) => {
      const session = (await (await fetch('/api/session')).json()) as { csrf_token: string };
      const read = (await (await fetch(`/api/sandbox/reviews/${reviewId}`)).json()) as {
        draft: { revision: number };
      };
      const answer = await fetch(`/api/sandbox/reviews/${reviewId}/draft`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': session.csrf_token },
        body: JSON.stringify({ text: 'Another lawyer’s text', based_on_revision: read.draft.revision }),
      });
      return answer.status;
    }, id);
    expect(otherSave).toBe(200);
    await field.focus();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('Checked twice.');
    await tabTo(page, 'button:text-is("Save draft")');
    await page.keyboard.press('Enter');
    await page.getByTestId('conflict').filter({ hasText: 'Your text is still in the field' }).waitFor();
    await expect(field.inputValue()).resolves.toBe(`${text}Checked twice.`);
    await page.getByRole('button', { name: 'Save mine over theirs' }).click();
    await page.getByRole('status').filter({ hasText: 'Draft saved' }).waitFor();
    expect(await page.getByTestId('conflict').count()).toBe(0);

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
    expect(hosted).toContain('Checked twice.');
    // It names the lawyer who published it (dev-bootstrap's lawyer has a name; ops has none: pipeline.test.ts).
    expect(hosted).toContain('<p class="review-meta">Reviewed by Local Lawyer on <time');
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

test('a draft started on version 1 shows what changed in version 2, on the page it changed', async () => {
  const id = await sendForReview(`back-office-changed-${randomUUID().slice(0, 8)}`);
  const due = (version: number) => (review: Record<string, unknown>) =>
    review.version === version && (review.lawyer_review as { state: string }).state === 'requested';
  await waitForReview(stack.sandbox, token, id, due(1), 120_000);

  const { context, page } = await signIn('lawyer@localhost.test', `/sandbox/reviews/${id}`);
  try {
    await heading(page)
      .filter({ hasText: `Review of ${id}` })
      .waitFor();
    const field = page.getByLabel('Review', { exact: true });
    const save = async () => {
      await page.getByRole('button', { name: 'Save draft', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Draft saved' }).waitFor();
    };
    await field.fill('Started on version 1.');
    await save();
    // Nothing changed yet: no comparison is offered.
    expect(await page.getByRole('region', { name: /What changed/ }).count()).toBe(0);

    // The second clause on page 2 of version 1, as the back office reads the page's text.
    const contract = await page.evaluate(
      async (reviewId) =>
        (await (await fetch(`/api/sandbox/reviews/${reviewId}/contract`)).json()) as {
          pages: Array<{ text: string }>;
        },
      id,
    );
    const onPage2 = [...(contract.pages[1]?.text ?? '').matchAll(/Clause (\d+)\./g)].map((match) =>
      Number(match[1]),
    );
    const clause = onPage2[1] as number;
    expect(clause).toBeGreaterThan(0);
    const changed = await upload(
      `${stack.sandbox}/v1/contract-reviews/${id}/versions`,
      token,
      contractParts(
        await contractPdf(2, (n, text) => (n === clause ? `Amended by the vendor: ${text}` : text)),
        { based_on_version: 1 },
      ),
    );
    expect(changed.status).toBe(202);
    await waitForReview(stack.sandbox, token, id, due(2), 120_000);

    await page.reload();
    const changes = page.getByRole('region', { name: 'What changed since version 1' });
    await changes.getByText('The draft was started on version 1; the contract is now version 2.').waitFor();
    await changes.getByText('1 page unchanged (page 1)').waitFor();
    const page2 = changes.locator('[data-page-change="changed"]');
    expect(await page2.count()).toBe(1);
    await expect(page2.getByRole('heading').textContent()).resolves.toBe('Page 2: changed');
    await expect(page2.locator('ins').first().textContent()).resolves.toContain(
      `Amended by the vendor: ${CLAUSE_START[(clause - 1) % CLAUSE_START.length]}`,
    );
    await expect(page2.locator('del').first().textContent()).resolves.toContain(
      CLAUSE_START[(clause - 1) % CLAUSE_START.length],
    );
    // The heading links to the page in the contract beside it.
    await page2.getByRole('link', { name: 'Page 2' }).click();
    await page.waitForURL(/#page-2$/);
    await expectAccessible(context, page, 'review-changes');

    // A later save keeps the version the draft was started on: the changes stay shown after a reload.
    await field.fill('Started on version 1, checked against version 2.');
    await save();
    await page.reload();
    await changes.getByText('The draft was started on version 1; the contract is now version 2.').waitFor();
  } finally {
    await context.close();
  }
}, 420_000);

let sandbox: Promise<Ports> | undefined;
/** The stack's sandbox ports, as its API uses them (made once: each making opens new clients). */
const sandboxPorts = (): Promise<Ports> => {
  sandbox ??= portsOf(stack).then((ports) => ports.sandbox);
  return sandbox;
};

/**
 * A sandbox review due since `requestedAt`, written through the contract review store as the API writes a
 * first send (the pipeline would take minutes each here): its id.
 */
const seedDueReview = async (requestedAt: number, externalReference?: string): Promise<string> => {
  const ports = await sandboxPorts();
  const review = contractReview(scopeIn('sandbox'), requestedAt, {
    ...(externalReference !== undefined && { externalReference }),
    lawyerReview: { state: 'requested', requestedAt, completedAt: null },
  });
  const key = `seed-${randomUUID()}`;
  await ports.idempotency.claim(review.scope, key, `fp-${key}`);
  await ports.contractReviews.create({
    review,
    version: contractVersion(review, 1, review.createdAt),
    idempotency: completion(review.scope, key, `fp-${key}`),
  });
  return review.id;
};

/** `count` sandbox reviews due since an hour ago: they fill the list's first pages. */
const seedDueReviews = async (count: number): Promise<void> => {
  const requestedAt = (await sandboxPorts()).clock.now() - HOUR;
  for (let n = 0; n < count; n += 1) await seedDueReview(requestedAt + n);
};

test('with more reviews due than the first page holds, a newly due one is named on the first page', async () => {
  // One more than the first page holds, whatever else is due (this test may run alone).
  await seedDueReviews(FIRST_PAGE + 1);
  const { context, page } = await signIn('lawyer@localhost.test', '/sandbox/reviews');
  try {
    await heading(page).filter({ hasText: 'Reviews' }).waitFor();
    // The first page is full: the rest is below `Load more`.
    await page.getByRole('button', { name: 'Load more' }).waitFor({ timeout: 60_000 });
    expect(await page.locator('tr[data-review]').count()).toBe(FIRST_PAGE);

    // A review becomes due while the page is open, as the pipeline's last step leaves it (that the
    // pipeline makes a sent contract due, and the list shows it, is the second test's): seeded, not sent.
    const reference = `back-office-long-${randomUUID().slice(0, 8)}`;
    const id = await seedDueReview((await sandboxPorts()).clock.now(), reference);

    // The page, left open on its first page, names the new review once it is due: in the summary's live
    // region, linked, though its row is not on this page.
    const summary = page.getByTestId('queue-summary');
    const announced = summary.getByRole('status');
    await announced.getByRole('link', { name: id }).waitFor({ timeout: 120_000 });
    await expect(announced.textContent()).resolves.toMatch(
      new RegExp(`^\\d+ reviews due; the newest is ${id} \\(${reference}\\), the last of the list\\.$`),
    );
    const due = Number((await announced.textContent())?.match(/^(\d+)/)?.[1]);
    expect(due).toBeGreaterThan(FIRST_PAGE);
    expect(await page.locator(`tr[data-review="${id}"]`).count()).toBe(0);
    await summary.getByText(/^Newest requested \d+ (second|minute)s? ago\.$/).waitFor();
    await expectAccessible(context, page, 'reviews-long-queue');

    // Its link opens the review.
    await announced.getByRole('link', { name: id }).click();
    await heading(page)
      .filter({ hasText: `Review of ${id}` })
      .waitFor();
  } finally {
    await context.close();
  }
}, 420_000);
