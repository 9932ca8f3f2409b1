// Browser test of the back office's operators' and admins' pages (decisions.md §11) on the real local
// stack, signed in at the identity provider as dev-bootstrap's staff: the operator accepts a production
// sign-up (the API then shows it accepted), withdraws a publication with a reason (its hosted page is
// gone and the audit log shows the reason), sets an organisation's sandbox budget, and adds and removes a
// staff member; the sandbox's Sign-ups page says they are accepted automatically; the lawyer sees no
// operator links and gets the 403 message at their addresses; axe finds nothing on any of these pages at
// 1280 and 320 px, and none is wider than a phone.
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { bearer, call, contractParts, exchange, upload } from '../support/api-client';
import { eventually } from '../support/eventually';
import { type Bootstrap, devBootstrap, ops, type RunningStack } from '../support/local-stack';
import { contractPdf } from '../support/pdfs';
import { useSharedStack } from '../support/shared-stacks';
import { BACK_OFFICE_STACK } from './back-office-stack';
import { axeViolations, documentWidths, launchChromium } from './harness';

const PASSWORD = 'local-dev-password';
const OPERATOR = 'operator@localhost.test';
const LAWYER = 'lawyer@localhost.test';

let stack: RunningStack;
let browser: Browser;
let boot: Bootstrap;
let token: string;
let backOffice: string;
/** The operator's signed-in browser, shared by the tests (one sign-in). */
let operator: { context: BrowserContext; page: Page };

useSharedStack(
  (started) => {
    stack = started;
  },
  { env: BACK_OFFICE_STACK },
);

beforeAll(async () => {
  backOffice = `http://127.0.0.1:${stack.portBase + 8}`;
  [browser, boot] = await Promise.all([launchChromium(), devBootstrap(stack)]);
  token = await exchange(stack.production, boot.keys.production);
  operator = await signIn(OPERATOR);
  // A bound, not a speed check: on a loaded machine this sign-in (scrypt) may wait beside the reviews file's.
}, 240_000);

afterAll(async () => {
  await browser?.close();
});

/** A person of the staff signed in through the identity provider's pages, as they would. */
const signIn = async (email: string) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${backOffice}/`);
  await page.getByRole('link', { name: 'Sign in', exact: true }).click();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('navigation', { name: 'Back office' }).waitFor();
  return { context, page };
};

const heading = (page: Page) => page.getByRole('heading', { level: 1 });

/** A production sign-up, opened through the API and submitted as the form would: its id and reference. */
const submittedSignUp = async () => {
  const reference = `house-${randomUUID().slice(0, 8)}`;
  const session = await call(`${stack.production}/v1/clients/onboardings/sessions`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({ reference }),
  });
  expect(session.status).toBe(200);
  const file = join(stack.dataDir, `buyers-${randomUUID()}.json`);
  await writeFile(
    file,
    JSON.stringify([{ first_name: 'Grace', last_name: 'Hopper', email: `grace-${reference}@example.com` }]),
  );
  const submitted = await ops(stack, 'submit-onboarding', session.body.id, '--buyers', file);
  expect(submitted.code).toBe(0);
  return { id: session.body.id as string, reference };
};

/** A production contract whose viewer is live: its id, external reference and page's address. */
const publishedContract = async () => {
  const reference = `sale-${randomUUID().slice(0, 8)}`;
  const sent = await upload(
    `${stack.production}/v1/contract-reviews`,
    token,
    contractParts(await contractPdf(2), { external_reference: reference, product: 'contract_viewer' }),
  );
  expect(sent.status).toBe(202);
  const id = sent.body.id as string;
  const live = await eventually(
    async () =>
      (await call(`${stack.production}/v1/contract-reviews/${id}`, { headers: bearer(token) })).body,
    (review) => review.publications?.[0]?.state === 'published',
    { what: `${id}'s viewer published` },
  );
  return { id, reference, url: live.publications[0].url as string };
};

test('an operator accepts a production sign-up, confirmed; the API then shows it accepted', async () => {
  const signUp = await submittedSignUp();
  const { page } = operator;
  await page.goto(`${backOffice}/production/sign-ups`);
  const row = page.getByRole('row').filter({ hasText: signUp.id });
  await row.waitFor();
  expect(await row.textContent()).toContain('Grace Hopper');
  expect(await row.textContent()).toContain(signUp.reference);

  await row.getByRole('link', { name: signUp.id }).click();
  await page.getByRole('heading', { name: `Sign-up ${signUp.id}` }).waitFor();
  await page.getByRole('button', { name: 'Accept', exact: true }).click();
  const dialog = page.getByRole('dialog');
  // Cancel first: nothing is accepted.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
  const read = async () =>
    (await call(`${stack.production}/v1/clients/onboardings/${signUp.id}`, { headers: bearer(token) })).body;
  expect((await read()).state).toBe('submitted');

  await page.getByRole('button', { name: 'Accept', exact: true }).click();
  await dialog.getByRole('button', { name: 'Accept sign-up' }).click();
  await page.getByRole('status').filter({ hasText: 'Sign-up accepted' }).waitFor();
  expect((await read()).state).toBe('accepted');
  expect(await page.getByRole('button', { name: 'Accept', exact: true }).count()).toBe(0);

  // It leaves the list of those waiting.
  await page.getByRole('link', { name: 'Back to the sign-ups' }).click();
  await heading(page).filter({ hasText: 'Sign-ups' }).waitFor();
  await page.getByText('Production sign-ups waiting to be accepted').waitFor();
  await eventually(
    async () => page.getByRole('row').filter({ hasText: signUp.id }).count(),
    (count) => count === 0,
    { what: 'the accepted sign-up gone from the list' },
  );

  // The sandbox has nothing to accept, and says why.
  await page.goto(`${backOffice}/sandbox/sign-ups`);
  await page.getByText('Sandbox sign-ups are accepted automatically').waitFor();
});

test('an operator finds a contract, withdraws its publication with a reason; the page is gone, the audit log says why', async () => {
  const contract = await publishedContract();
  expect((await fetch(contract.url)).status).toBe(200);
  const { page } = operator;
  await page.goto(`${backOffice}/production/contracts`);
  await page.getByLabel('Search', { exact: true }).fill(contract.reference);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.waitForURL(`${backOffice}/production/contracts?q=${contract.reference}`);
  await page.getByRole('link', { name: contract.id }).waitFor();
  // Another search, then Back and Forward: each address shows its own search again (field and results).
  const other = `no-such-contract-${contract.reference}`;
  await page.getByLabel('Search', { exact: true }).fill(other);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.waitForURL(`${backOffice}/production/contracts?q=${other}`);
  await page.getByText('No contract review', { exact: false }).waitFor();
  await page.goBack();
  await page.waitForURL(`${backOffice}/production/contracts?q=${contract.reference}`);
  await page.getByRole('link', { name: contract.id }).waitFor();
  await expect(page.getByLabel('Search', { exact: true }).inputValue()).resolves.toBe(contract.reference);
  await page.goForward();
  await page.waitForURL(`${backOffice}/production/contracts?q=${other}`);
  await page.getByText('No contract review', { exact: false }).waitFor();
  await expect(page.getByLabel('Search', { exact: true }).inputValue()).resolves.toBe(other);
  await page.goBack();
  await page.getByRole('link', { name: contract.id }).click();
  await page.getByRole('heading', { name: `Contract review ${contract.id}` }).waitFor();
  const publication = page.locator('tr[data-channel="contract_viewer"]');
  expect(await publication.getByRole('link').getAttribute('href')).toBe(contract.url);
  expect(await page.getByRole('region', { name: 'Versions' }).textContent()).toContain('2');

  await publication.getByRole('button', { name: 'Withdraw', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Reason').fill('Sent for the wrong buyer');
  await dialog.getByRole('button', { name: 'Withdraw publication' }).click();
  await page.getByRole('status').filter({ hasText: 'withdrawn' }).waitFor();
  await publication.getByText('withdrawn').waitFor();
  expect((await fetch(contract.url)).status).toBe(410);

  await page
    .getByRole('navigation', { name: 'Back office' })
    .getByRole('link', { name: 'Audit log' })
    .click();
  await heading(page).filter({ hasText: 'Audit log' }).waitFor();
  await page.getByLabel('Action').selectOption({ label: 'Publication withdrawn' });
  await page.getByLabel('Staff member').fill(OPERATOR);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  const entry = page.getByRole('row').filter({ hasText: contract.id });
  await entry.waitFor();
  const text = await entry.textContent();
  expect(text).toContain(OPERATOR);
  expect(text).toContain('Publication withdrawn');
  expect(text).toContain('Reason: Sent for the wrong buyer');
});

test('an operator sets an organisation’s sandbox budget; the page and the audit log keep it', async () => {
  const { page } = operator;
  await page.goto(`${backOffice}/production/organisations`);
  const row = page.locator(`tr[data-organisation="${boot.organisation_id}"]`);
  await row.waitFor();
  await row.getByLabel('Sandbox budget', { exact: true }).fill('25');
  await row.getByRole('button', { name: 'Save' }).click();
  await row.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
  expect(await row.getByTestId('budget-used').textContent()).toMatch(/of 25 used/);

  // What the backend keeps: the same after a reload, in either environment's page.
  await page.goto(`${backOffice}/sandbox/organisations`);
  await row.waitFor();
  expect(await row.getByTestId('budget-used').textContent()).toMatch(/of 25 used/);
  const log = await ops(
    stack,
    'audit-log',
    '--environment',
    'sandbox',
    '--action',
    'budget.set',
    // The other back office file sets its own organisation's budget with the operator tool meanwhile.
    '--staff',
    OPERATOR,
    '--limit',
    '1',
  );
  expect((log.json as { data: unknown[] }).data[0]).toMatchObject({
    staff: OPERATOR,
    target: boot.organisation_id,
    details: { total: 25 },
  });

  // A total that is no whole number is refused in words, and nothing is sent.
  await row.getByLabel('Sandbox budget', { exact: true }).fill('lots');
  await row.getByRole('button', { name: 'Save' }).click();
  await row.getByRole('alert').filter({ hasText: 'whole number' }).waitFor();
});

test('an admin adds a staff member with roles and removes them, each confirmed', async () => {
  const email = `new-${randomUUID().slice(0, 8)}@example.com`;
  const { page } = operator;
  await page.goto(`${backOffice}/staff`);
  await heading(page).filter({ hasText: 'Staff' }).waitFor();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('checkbox', { name: /^Lawyer/ }).check();
  await page.getByRole('button', { name: 'Add staff member' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Add', exact: true }).click();
  const row = page.getByRole('row').filter({ hasText: email });
  await row.waitFor();
  expect(await row.textContent()).toContain('Lawyer');

  await row.getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove staff member' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `${email} is no longer staff` })
    .waitFor();
  // The list is read again after the removal: the row goes once the new answer is shown.
  await row.waitFor({ state: 'detached' });
  const staff = await ops(stack, 'staff-list');
  expect(JSON.stringify(staff.json)).not.toContain(email);
});

test('the lawyer sees no operator links, and the operators’ addresses answer the 403 message', async () => {
  const lawyer = await signIn(LAWYER);
  try {
    const { page } = lawyer;
    const links = await page
      .getByRole('navigation', { name: 'Back office' })
      .getByRole('link')
      .allTextContents();
    expect(links).toEqual(['Reviews']);
    for (const path of [
      '/production/sign-ups',
      '/production/contracts',
      '/production/organisations',
      '/production/audit-log',
      '/staff',
    ]) {
      await page.goto(`${backOffice}${path}`);
      await page.getByRole('alert').filter({ hasText: '403: your roles do not allow this page' }).waitFor();
    }
    const api = await page.evaluate(async () => (await fetch('/api/production/organisations')).status);
    expect(api).toBe(403);
  } finally {
    await lawyer.context.close();
  }
});

describe('axe finds nothing at 1280 and 320 px, and no page is wider than a phone', () => {
  const made = { signUp: '', contract: '', reference: '' };
  beforeAll(async () => {
    const [signUp, contract] = await Promise.all([submittedSignUp(), publishedContract()]);
    Object.assign(made, { signUp: signUp.id, contract: contract.id, reference: contract.reference });
  }, 120_000);

  const ready = async (page: Page) => {
    await heading(page).waitFor();
    await eventually(
      async () => page.locator('.loading').count(),
      (count) => count === 0,
      { what: 'the page loaded' },
    );
  };

  test.each([
    ['Sign-ups', () => '/production/sign-ups'],
    ['a sign-up', () => `/production/sign-ups/${made.signUp}`],
    ['the sandbox’s Sign-ups', () => '/sandbox/sign-ups'],
    ['Contracts', () => '/production/contracts'],
    ['a search', () => `/production/contracts?q=${made.reference}`],
    ['a contract', () => `/production/contracts/${made.contract}`],
    ['Organisations', () => '/production/organisations'],
    ['Audit log', () => '/production/audit-log'],
    ['Staff', () => '/staff'],
  ])('%s', async (_, pathOf) => {
    const url = `${backOffice}${pathOf()}`;
    const cookies = await operator.context.cookies();
    expect(await axeViolations(browser, url, [1280, 320], cookies, ready)).toEqual([]);
    const phone = await browser.newContext({ viewport: { width: 320, height: 640 } });
    try {
      await phone.addCookies(cookies);
      const page = await phone.newPage();
      await page.goto(url);
      await ready(page);
      const { scrollWidth, clientWidth } = await documentWidths(page);
      // What sticks out past the phone's edge (outside a table's own scrolling region), to say why.
      const wide = await page.evaluate(() =>
        Array.from(document.querySelectorAll('body *'))
          .filter((element) => !element.closest('.table-region'))
          .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
          .map((element) => element.outerHTML.slice(0, 100)),
      );
      expect({ scrollWidth, wide }).toEqual({ scrollWidth: clientWidth, wide: [] });
    } finally {
      await phone.close();
    }
  });
});
