// Browser test of the sign-up form against the real local stack: a customer's page on its own origin
// (with the content security policy the README asks of it) loads `/onboarding.js` from the API address
// and mounts the form, which is a frame from the environment's frame address. A person fills it in, by
// label or with the keyboard alone, and what they sent is read back through the `/v1` API.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import axe from 'axe-core';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Frame,
  type FrameLocator,
  type Page,
} from 'playwright-core';
import { buildOnboardingAssets } from '../../frontend/onboarding/build';
import { bearer, call, exchange } from '../support/api-client';
import type { RunningStack } from '../support/local-stack';
import { useSharedStack } from '../support/shared-stacks';
import { createTenant } from '../support/tenants';
import {
  DESKTOP,
  launchChromiumWithoutThirdPartyCookies,
  openRecorded,
  PHONE,
  RESULTS,
  type Recorder,
} from './harness';
import { type HostPage, type HostRecord, startHostPage } from './onboarding-host';

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const FRAME_TITLE = 'Sign-up form';

interface Person {
  first: string;
  last: string;
  email: string;
  mobile: string;
  born: [day: string, month: string, year: string];
  home: { line1: string; suburb: string; state: string; postcode: string; country?: string };
}

const PEOPLE: Person[] = [
  {
    first: 'Maria',
    last: 'Rossi',
    email: 'maria.rossi@example.com',
    mobile: '0412 345 678',
    born: ['12', '4', '1985'],
    home: { line1: '4 Ferry Road', suburb: 'Fitzroy', state: 'VIC', postcode: '3065' },
  },
  {
    first: 'Luca',
    last: 'Bianchi',
    email: 'luca.bianchi@example.com',
    mobile: '+61 (0)400 000 001',
    born: ['1', '1', '1990'],
    home: { line1: '4 Ferry Road', suburb: 'Fitzroy', state: 'VIC', postcode: '3065' },
  },
  {
    first: 'Aiko',
    last: 'Tanaka',
    email: 'aiko@example.jp',
    mobile: '+81 90-1234-5678',
    born: ['29', '2', '1996'],
    home: {
      line1: '1-2-3 Shibuya',
      suburb: 'Shibuya',
      state: 'Tokyo',
      postcode: '150-0002',
      country: 'Japan',
    },
  },
  {
    first: 'Seán',
    last: 'O’Brien-Ní Dhuibhir',
    email: 'sean.obrien@example.ie',
    mobile: '+353 87 123 4567',
    born: ['31', '12', '1970'],
    home: {
      line1: '7 Quay Street',
      suburb: 'Galway',
      state: 'Connacht',
      postcode: 'H91 X2Y3',
      country: 'Ireland',
    },
  },
];

const PROPERTY = {
  line1: '12 Wharf Street',
  line2: 'Unit 3',
  suburb: 'Williamstown',
  state: 'VIC',
  postcode: '3016',
};

let stack: RunningStack;
let browser: Browser;
let accessToken: string;
let frameAddress: string;
let host: HostPage;
/** The keys of this file's own tenant: the stack is shared with other files. */
let keys: Awaited<ReturnType<typeof createTenant>>['keys'];

useSharedStack(
  (started) => {
    stack = started;
  },
  { env: { RATE_LIMITS: 'off' } },
);

beforeAll(async () => {
  frameAddress = `http://127.0.0.1:${stack.portBase + 2}`;
  const [tenant, launched] = await Promise.all([
    createTenant(stack, 'onboarding form'),
    chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
      ],
    }),
  ]);
  browser = launched;
  keys = tenant.keys;
  accessToken = await exchange(stack.production, keys.production);
  host = await startHostPage(stack.production, frameAddress);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

// --- the API, as the customer's server uses it ---

const openSession = async (base = stack.production, token = accessToken) => {
  const answer = await call(`${base}/v1/clients/onboardings/sessions`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({ reference: `browser-${randomUUID()}` }),
  });
  expect(answer.status).toBe(200);
  return answer.body as { id: string; reference: string; session_token: string };
};

const onboardingOf = async (id: string) => {
  const answer = await call(`${stack.production}/v1/clients/onboardings/${id}`, {
    headers: bearer(accessToken),
  });
  expect(answer.status).toBe(200);
  return answer.body;
};

const clientOf = async (id: string) => {
  const answer = await call(`${stack.production}/v1/clients/${id}`, { headers: bearer(accessToken) });
  expect(answer.status).toBe(200);
  return answer.body;
};

/** The clients the API names for `people`, in order, the first primary; nothing else of the answers. */
const expectClients = async (onboardingId: string, reference: string, people: Person[]) => {
  const onboarding = await onboardingOf(onboardingId);
  expect(onboarding).toMatchObject({ state: 'submitted', submitted_at: expect.stringMatching(TIME) });
  expect(onboarding.clients).toEqual(
    people.map((p, i) => ({
      id: expect.stringMatching(/^cli_[A-Za-z0-9]+$/),
      onboarding_id: onboardingId,
      reference,
      primary: i === 0,
      first_name: p.first,
      last_name: p.last,
      email: p.email,
      mobile: p.mobile,
      created_at: expect.stringMatching(TIME),
    })),
  );
  for (const client of onboarding.clients) expect(await clientOf(client.id)).toEqual(client);
  return onboarding as {
    submitted_at: string;
    clients: Array<{ id: string; email: string; mobile: string }>;
  };
};

// --- the page ---

const form = (page: Page): FrameLocator => page.frameLocator(`iframe[title="${FRAME_TITLE}"]`);

/** The frame as a Frame (for evaluate), once it is there. */
const frameOf = async (page: Page): Promise<Frame> => {
  const element = await page.waitForSelector(`iframe[title="${FRAME_TITLE}"]`);
  const frame = await element.contentFrame();
  if (!frame) throw new Error('the iframe has no frame');
  return frame;
};

const record = (page: Page): Promise<HostRecord> =>
  page.evaluate(() => (window as unknown as { host: HostRecord }).host);

/** Waits for the step whose heading (after its "Step n of m" caption) is `title`. */
const onStep = async (f: FrameLocator, title: string | RegExp) => {
  const name = typeof title === 'string' ? new RegExp(`${escapeRegExp(title)}$`) : title;
  await f.getByRole('heading', { level: 1, name }).waitFor();
};
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The draft holding `text` is stored and the frame knows it: the save's response arrived and the frame
 * says so. Reloading before the frame has read the response would (rightly) send the draft again with
 * `keepalive` as the page goes, and that request is cut off by the reload.
 */
const savedDraft = async (page: Page, f: FrameLocator, text: string, type: () => Promise<void>) => {
  const saved = page.waitForResponse(
    (r) =>
      r.url() === `${frameAddress}/api/draft` &&
      r.request().method() === 'PUT' &&
      (r.request().postData() ?? '').includes(text),
  );
  await type();
  expect((await saved).status()).toBe(204);
  await f.locator('.save-status', { hasText: /^Your answers are saved\.$/ }).waitFor();
};

const next = async (f: FrameLocator, title: string | RegExp) => {
  await f.getByRole('button', { name: 'Continue' }).click();
  await onStep(f, title);
};

type StepHook = (name: string) => Promise<void>;

/** Fills every step by label, from "how many buyers" to the review; `atStep` runs on each step first. */
const fillForm = async (f: FrameLocator, people: Person[], atStep: StepHook = async () => {}) => {
  await onStep(f, 'Buyers');
  await atStep('buyers');
  await f.getByLabel(people.length === 1 ? '1 buyer' : `${people.length} buyers`, { exact: true }).check();
  for (const [i, p] of people.entries()) {
    await next(f, `Buyer ${i + 1}: name and contact details`);
    await atStep(`buyer-${i + 1}-contact`);
    await f.getByLabel('First name').fill(p.first);
    await f.getByLabel('Last name').fill(p.last);
    await f.getByLabel('Email').fill(p.email);
    await f.getByLabel('Mobile').fill(p.mobile);
    await next(f, `Buyer ${i + 1}: date of birth and home address`);
    await atStep(`buyer-${i + 1}-home`);
    await f.getByLabel('Day').fill(p.born[0]);
    await f.getByLabel('Month').fill(p.born[1]);
    await f.getByLabel('Year').fill(p.born[2]);
    await f.getByLabel('Address line 1').fill(p.home.line1);
    await f.getByLabel('Suburb or town').fill(p.home.suburb);
    await f.getByLabel('State or region').fill(p.home.state);
    await f.getByLabel('Postcode').fill(p.home.postcode);
    if (p.home.country) await f.getByLabel('Country').fill(p.home.country);
  }
  await next(f, 'The property');
  await atStep('property');
  await f.getByLabel('Address line 1').fill(PROPERTY.line1);
  await f.getByLabel('Address line 2').fill(PROPERTY.line2);
  await f.getByLabel('Suburb or town').fill(PROPERTY.suburb);
  await f.getByLabel('State or territory').selectOption(PROPERTY.state);
  await f.getByLabel('Postcode').fill(PROPERTY.postcode);
  await next(f, 'Paying for the property');
  await atStep('payment');
  await f.getByLabel('Partly my own money, partly a loan').check();
  await f.getByLabel('Lender').fill('Harbour Bank');
  await f.getByLabel('Yes', { exact: true }).check();
  await next(f, 'Privacy and terms');
  await atStep('consents');
  await f.getByLabel('I agree to the privacy policy').check();
  await f.getByLabel('I agree to the terms').check();
  await next(f, 'Check your answers');
  await atStep('review');
};

const waitForSubmitted = (page: Page, count: number) =>
  page.waitForFunction((n) => (window as unknown as { host: HostRecord }).host.submitted >= n, count);

const typeOf = (message: { data: string }): string => (JSON.parse(message.data) as { type: string }).type;

/**
 * `onSubmitted` ran once and only once for the submission just made. Messages from one frame arrive in
 * the order it posts them, so once a message the frame posts later has arrived (the resize when the
 * person goes back to their answers), any second `submitted` posted before it would have arrived too.
 */
const expectSubmittedOnce = async (page: Page, f: FrameLocator) => {
  const before = (await record(page)).messages.length;
  await f.getByRole('button', { name: 'Change my details' }).click();
  await onStep(f, 'Check your answers');
  await page.waitForFunction(
    (from) =>
      (window as unknown as { host: HostRecord }).host.messages
        .slice(from)
        .some((m) => (JSON.parse(m.data) as { type: string }).type === 'resize'),
    before,
  );
  const seen = await record(page);
  expect(seen.messages.filter((m) => typeOf(m) === 'submitted')).toHaveLength(1);
  expect(seen.submitted).toBe(1);
};

/** A context whose pages are recorded (harness.ts) and torn down after `use`. */
const withContext = async (
  options: BrowserContextOptions,
  use: (context: BrowserContext) => Promise<void>,
  inBrowser: Browser = browser,
) => {
  const context = await inBrowser.newContext(options);
  try {
    await use(context);
  } finally {
    await context.close();
  }
};

/** Only the page, the API address (the loader) and the frame address were asked for; nothing failed. */
const expectOnlyServiceRequests = async (page: Page, seen: Recorder, pageOrigin = host.origin) => {
  const allowed = new Set([pageOrigin, stack.production, frameAddress]);
  expect(seen.requests.filter((url) => !allowed.has(new URL(url).origin))).toEqual([]);
  expect(seen.failed.filter((url) => !url.endsWith('/favicon.ico'))).toEqual([]);
  expect(seen.consoleErrors).toEqual([]);
  for (const frame of page.frames())
    expect(await frame.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual(
      [],
    );
};

/** Every message the page got from the frame: only ready, resize and submitted, and no answers. */
const expectOnlyFrameSignals = async (page: Page, people: Person[]) => {
  const { messages } = await record(page);
  expect(messages.length).toBeGreaterThan(0);
  for (const message of messages) {
    expect(message.origin).toBe(frameAddress);
    const data = JSON.parse(message.data);
    if (data.type === 'resize') expect(Object.keys(data).sort()).toEqual(['height', 'type']);
    else expect(data).toEqual({ type: expect.stringMatching(/^(ready|submitted)$/) });
    for (const p of people) expect(message.data).not.toContain(p.email);
  }
};

const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: join(RESULTS, `onboarding-${name}.png`), fullPage: true });

describe('the sign-up form on a customer’s page', () => {
  test('one buyer at 1280 px, filled in by label: onSubmitted once, the client read back through the API', async () => {
    const session = await openSession();
    await withContext(DESKTOP, async (context) => {
      const { page, seen } = await openRecorded(context, host.url(session.session_token));
      const f = form(page);
      await fillForm(f, PEOPLE.slice(0, 1), async (step) => {
        if (step === 'buyer-1-home') await screenshot(page, '1280-step');
      });
      // The review shows what was typed, each step with a way back to it.
      expect(await f.locator('.answers dd').allInnerTexts()).toEqual([
        '1',
        'Maria Rossi',
        'maria.rossi@example.com',
        '0412 345 678',
        '12 April 1985',
        '4 Ferry Road\nFitzroy VIC 3065\nAustralia',
        '12 Wharf Street\nUnit 3\nWilliamstown VIC 3016',
        'Partly my own money, partly a loan',
        'Harbour Bank',
        'Yes',
        'Agreed',
        'Agreed',
      ]);
      await screenshot(page, '1280-review');
      await f.getByRole('button', { name: 'Send my details' }).click();
      await onStep(f, 'Thank you, your details have been sent');
      await waitForSubmitted(page, 1);
      await screenshot(page, '1280-sent');
      await expectSubmittedOnce(page, f);
      expect((await record(page)).errors).toEqual([]);

      await expectClients(session.id, session.reference, PEOPLE.slice(0, 1));
      await expectOnlyServiceRequests(page, seen);
      await expectOnlyFrameSignals(page, PEOPLE.slice(0, 1));
      // The frame is as tall as its content: nothing scrolls inside it.
      const frame = await frameOf(page);
      const heights = async () => ({
        content: Math.ceil(
          await frame.evaluate(() => document.documentElement.getBoundingClientRect().height),
        ),
        frame: await page.evaluate(
          () => document.querySelector('iframe')?.getBoundingClientRect().height ?? 0,
        ),
      });
      // The frame's last resize has been applied once the iframe is as tall as the frame's content.
      await page.waitForFunction((title) => {
        const iframe = document.querySelector(`iframe[title="${title}"]`) as HTMLIFrameElement | null;
        const last = (window as unknown as { host: HostRecord }).host.messages
          .map((m) => JSON.parse(m.data) as { type: string; height?: number })
          .filter((m) => m.type === 'resize')
          .at(-1);
        return iframe !== null && last !== undefined && iframe.getBoundingClientRect().height === last.height;
      }, FRAME_TITLE);
      const sizes = await heights();
      expect(sizes.frame).toBe(sizes.content);
      expect(sizes.content).toBeGreaterThan(200);
      // Still once, after everything since.
      expect((await record(page)).submitted).toBe(1);
    });
  }, 120_000);

  test('four buyers at 320 px: no sideways scrolling, four clients in order, the first primary', async () => {
    const session = await openSession();
    await withContext(PHONE, async (context) => {
      const { page, seen } = await openRecorded(context, host.url(session.session_token));
      const f = form(page);
      const frame = await frameOf(page);
      await fillForm(f, PEOPLE, async (step) => {
        const sideways = await frame.evaluate(
          () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
        );
        expect({ step, sideways }).toEqual({ step, sideways: false });
        if (step === 'buyer-3-home') await screenshot(page, '320-step');
      });
      const host320 = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }));
      expect(host320.scroll).toBeLessThanOrEqual(host320.client);
      await screenshot(page, '320-review');
      await f.getByRole('button', { name: 'Send my details' }).click();
      await onStep(f, 'Thank you, your details have been sent');
      await waitForSubmitted(page, 1);
      await screenshot(page, '320-sent');
      expect((await record(page)).submitted).toBe(1);
      await expectClients(session.id, session.reference, PEOPLE);
      await expectOnlyServiceRequests(page, seen);
      await expectOnlyFrameSignals(page, PEOPLE);
    });
  }, 180_000);

  test('the customer’s page cannot read the frame, and unmount takes it away', async () => {
    const session = await openSession();
    await withContext(DESKTOP, async (context) => {
      const page = await context.newPage();
      await page.goto(host.url(session.session_token));
      const f = form(page);
      await onStep(f, 'Buyers');
      await f.getByLabel('2 buyers').check();
      await next(f, 'Buyer 1: name and contact details');
      await f.getByLabel('First name').fill('Secret');
      const reads = await page.evaluate(() => {
        const frame = document.querySelector('iframe') as HTMLIFrameElement;
        const attempt = (read: () => unknown) => {
          try {
            return `read: ${String(read())}`;
          } catch (error) {
            return (error as Error).name;
          }
        };
        return {
          contentDocument: frame.contentDocument === null,
          document: attempt(() => frame.contentWindow?.document),
          location: attempt(() => frame.contentWindow?.location.href),
          src: frame.src,
        };
      });
      expect(reads).toEqual({
        contentDocument: true,
        document: 'SecurityError',
        location: 'SecurityError',
        src: expect.stringMatching(new RegExp(`^${escapeRegExp(frameAddress)}/\\?v=[0-9a-f]+$`)),
      });
      // No token in the frame's address.
      expect(reads.src).not.toContain(session.session_token);

      await page.evaluate(() => (window as unknown as { handle: { unmount(): void } }).handle.unmount());
      expect(await page.locator('iframe').count()).toBe(0);
    });
  });

  test('keyboard only: every step completed with Tab, typing, Space and Enter', async () => {
    const session = await openSession();
    await withContext(DESKTOP, async (context) => {
      const page = await context.newPage();
      await page.goto(host.url(session.session_token));
      const f = form(page);
      const frame = await frameOf(page);
      await onStep(f, 'Buyers');
      const focused = () =>
        frame.evaluate(() => {
          const a = document.activeElement as HTMLInputElement | null;
          return a ? `${a.tagName.toLowerCase()}#${a.id}${a.type === 'radio' ? `=${a.value}` : ''}` : '';
        });
      const key = (k: string) => page.keyboard.press(k);
      const type = async (text: string) => {
        await page.keyboard.type(text);
        await key('Tab');
      };
      // Into the frame: its first control is the first choice of how many buyers.
      await key('Tab');
      expect(await focused()).toBe('input#f-buyers=1');
      await key('Space');
      await key('Tab');
      expect(await focused()).toBe('button#');
      await key('Enter');
      await onStep(f, 'Buyer 1: name and contact details');
      // Focus is on the step's heading; the next Tab is its first field.
      await key('Tab');
      expect(await focused()).toBe('input#f-buyers-0-first_name');
      await type('Ada');
      await type('Lovelace');
      await type('ada@example.com');
      await page.keyboard.type('0400 111 222');
      await key('Enter');
      await onStep(f, 'Buyer 1: date of birth and home address');
      await key('Tab');
      expect(await focused()).toBe('input#f-buyers-0-date_of_birth');
      for (const text of ['10', '12', '1980', '5 Analytical Way', '', 'Carlton', 'VIC']) await type(text);
      await page.keyboard.type('3053');
      await key('Enter');
      await onStep(f, 'The property');
      await key('Tab');
      for (const text of ['12 Wharf Street', '', 'Williamstown']) await type(text);
      // A closed list picks by typed letters.
      await page.keyboard.type('Vic');
      await key('Tab');
      await page.keyboard.type('3016');
      await key('Enter');
      await onStep(f, 'Paying for the property');
      await key('Tab');
      expect(await focused()).toBe('input#f-payment-method=cash');
      await key('Space');
      await key('Tab');
      await key('Enter');
      await onStep(f, 'Privacy and terms');
      await key('Tab');
      expect(await focused()).toBe('input#f-consents-privacy');
      await key('Space');
      await key('Tab');
      await key('Space');
      await key('Tab');
      await key('Enter');
      await onStep(f, 'Check your answers');
      // Past each step's Change button to the send button.
      const label = () => frame.evaluate(() => document.activeElement?.textContent ?? '');
      for (let i = 0; i < 15 && (await label()) !== 'Send my details'; i += 1) await key('Tab');
      expect(await frame.evaluate(() => document.activeElement?.textContent)).toBe('Send my details');
      await key('Enter');
      await onStep(f, 'Thank you, your details have been sent');
      await waitForSubmitted(page, 1);
      const onboarding = await onboardingOf(session.id);
      expect(onboarding.clients).toEqual([
        expect.objectContaining({
          first_name: 'Ada',
          last_name: 'Lovelace',
          email: 'ada@example.com',
          mobile: '0400 111 222',
          primary: true,
        }),
      ]);
    });
  }, 120_000);

  test('inline messages say what to fix, tied to their fields; focus goes to the first', async () => {
    const session = await openSession();
    await withContext(DESKTOP, async (context) => {
      const page = await context.newPage();
      await page.goto(host.url(session.session_token));
      const f = form(page);
      const frame = await frameOf(page);
      await onStep(f, 'Buyers');
      await f.getByRole('button', { name: 'Continue' }).click();
      await f.getByText('Choose how many people are buying the property.').first().waitFor();
      expect(await frame.evaluate(() => document.activeElement?.id)).toBe('f-buyers');
      await f.getByLabel('1 buyer').check();
      await next(f, 'Buyer 1: name and contact details');
      await f.getByLabel('Email').fill('not-an-email');
      await f.getByRole('button', { name: 'Continue' }).click();
      await f.getByText('There are 4 problems').waitFor();
      // Each field with a problem: invalid, described by its message; focus on the first of them.
      const described = await frame.evaluate(() =>
        Array.from(document.querySelectorAll('input')).map((input) => ({
          id: input.id,
          invalid: input.getAttribute('aria-invalid'),
          description: (input.getAttribute('aria-describedby') ?? '')
            .split(' ')
            .filter(Boolean)
            .map((id) => document.getElementById(id)?.textContent)
            .join(' | '),
        })),
      );
      expect(described).toEqual([
        { id: 'f-buyers-0-first_name', invalid: 'true', description: 'Error: Enter the first name.' },
        { id: 'f-buyers-0-last_name', invalid: 'true', description: 'Error: Enter the last name.' },
        {
          id: 'f-buyers-0-email',
          invalid: 'true',
          description: 'Error: Enter a whole email address, like name@example.com.',
        },
        {
          id: 'f-buyers-0-mobile',
          invalid: 'true',
          description: 'For example, 0412 345 678 or +61 412 345 678 | Error: Enter a mobile number.',
        },
      ]);
      expect(await frame.evaluate(() => document.activeElement?.id)).toBe('f-buyers-0-first_name');
      // Fixing a field takes its message away as it is typed.
      await f.getByLabel('First name').fill('Grace');
      expect(await f.getByLabel('First name').getAttribute('aria-invalid')).toBeNull();
      await f.getByText('There are 3 problems').waitFor();
      // A summary link goes to its field.
      await f.getByRole('link', { name: 'Enter the last name.' }).click();
      expect(await frame.evaluate(() => document.activeElement?.id)).toBe('f-buyers-0-last_name');
    });
  });

  test('a reload keeps what was typed: the draft is saved against the session', async () => {
    const session = await openSession();
    await withContext(DESKTOP, async (context) => {
      const page = await context.newPage();
      await page.goto(host.url(session.session_token));
      const f = form(page);
      await onStep(f, 'Buyers');
      await f.getByLabel('2 buyers').check();
      await next(f, 'Buyer 1: name and contact details');
      await f.getByLabel('First name').fill('Maria');
      await f.getByLabel('Last name').fill('Rossi');
      await savedDraft(page, f, 'maria@example.com', () => f.getByLabel('Email').fill('maria@example.com'));
      await page.reload();
      // Back on the first step with something to fill in, with what was typed.
      await onStep(f, 'Buyer 1: name and contact details');
      expect(await f.getByLabel('First name').inputValue()).toBe('Maria');
      expect(await f.getByLabel('Last name').inputValue()).toBe('Rossi');
      expect(await f.getByLabel('Email').inputValue()).toBe('maria@example.com');
      expect(await f.getByLabel('Mobile').inputValue()).toBe('');
      expect(await f.getByText('Step 2 of 9').count()).toBe(1);
      await f.getByRole('button', { name: 'Back' }).click();
      await onStep(f, 'Buyers');
      expect(await f.getByLabel('2 buyers').isChecked()).toBe(true);
      // Nothing was submitted.
      expect((await onboardingOf(session.id)).state).toBe('open');
    });
  });

  test('sent again to correct details: the same client ids, submitted_at advances, onSubmitted again', async () => {
    const session = await openSession();
    const people = PEOPLE.slice(0, 2);
    let first: Awaited<ReturnType<typeof expectClients>> | undefined;
    await withContext(DESKTOP, async (context) => {
      const sent = await context.newPage();
      await sent.goto(host.url(session.session_token));
      await fillForm(form(sent), people);
      await form(sent).getByRole('button', { name: 'Send my details' }).click();
      await waitForSubmitted(sent, 1);
      first = await expectClients(session.id, session.reference, people);
      await sent.close();
      // Another visit from the same browser: the form says it was sent, and offers to correct it.
      const page = await context.newPage();
      await page.goto(host.url(session.session_token));
      const f = form(page);
      await onStep(f, 'Thank you, your details have been sent');
      await f.getByRole('button', { name: 'Change my details' }).click();
      await onStep(f, 'Check your answers');
      await f.getByRole('button', { name: 'Change Buyer 2: name and contact details' }).click();
      await onStep(f, 'Buyer 2: name and contact details');
      expect(await f.getByLabel('Email').inputValue()).toBe(people[1]!.email);
      await f.getByLabel('Mobile').fill('0499 999 999');
      await next(f, 'Check your answers');
      await f.getByRole('button', { name: 'Send again' }).click();
      await onStep(f, 'Thank you, your details have been sent');
      await waitForSubmitted(page, 1);
      const corrected = [people[0]!, { ...people[1]!, mobile: '0499 999 999' }];
      const again = await expectClients(session.id, session.reference, corrected);
      expect(again.clients.map((c) => c.id)).toEqual(first?.clients.map((c) => c.id));
      expect(again.submitted_at > (first?.submitted_at ?? '')).toBe(true);
    });
  }, 120_000);

  test('problems the service names when sent land on their step and field; a failed send says to try again', async () => {
    const session = await openSession();
    await withContext(DESKTOP, async (context) => {
      const page = await context.newPage();
      await page.goto(host.url(session.session_token));
      const f = form(page);
      const frame = await frameOf(page);
      await fillForm(f, PEOPLE.slice(0, 1));
      // The service refuses what the form let through (its rules changed since the form was loaded):
      // both fields the first time, only the property's postcode the next.
      const refusals = [
        [
          { path: 'buyers.0.mobile', message: 'Enter a mobile number of 6 to 15 digits.' },
          { path: 'property.address.postcode', message: 'Write the postcode with digits only.' },
        ],
        [{ path: 'property.address.postcode', message: 'Write the postcode with digits only.' }],
      ];
      await page.route(`${frameAddress}/api/submit`, (route) => {
        const fields = refusals.shift() ?? [];
        return route.fulfill({
          status: 422,
          contentType: 'application/json; charset=utf-8',
          body: JSON.stringify({
            error: { code: 'answers_invalid', message: `${fields.length} fields need fixing.`, fields },
          }),
        });
      });
      await f.getByRole('button', { name: 'Send my details' }).click();
      await onStep(f, 'Buyer 1: name and contact details');
      await f.getByText('There is a problem').waitFor();
      expect(await frame.evaluate(() => document.activeElement?.id)).toBe('f-buyers-0-mobile');
      expect(await f.locator('#f-buyers-0-mobile-error').textContent()).toBe(
        'Error: Enter a mobile number of 6 to 15 digits.',
      );
      // Going on returns to the review, and the next send names the next step's problem.
      await next(f, 'Check your answers');
      await f.getByRole('button', { name: 'Send my details' }).click();
      await onStep(f, 'The property');
      expect(await frame.evaluate(() => document.activeElement?.id)).toBe('f-property-address-postcode');

      // The service cannot be reached: the review says so, and nothing is reported to the page.
      await page.unroute(`${frameAddress}/api/submit`);
      await page.route(`${frameAddress}/api/submit`, (route) => route.abort());
      await next(f, 'Check your answers');
      await f.getByRole('button', { name: 'Send my details' }).click();
      await f
        .getByText('Your details could not be sent just now. Check your connection and try again.')
        .first()
        .waitFor();
      expect((await record(page)).submitted).toBe(0);
      await page.unroute(`${frameAddress}/api/submit`);
      await f.getByRole('button', { name: 'Send my details' }).click();
      await onStep(f, 'Thank you, your details have been sent');
      await waitForSubmitted(page, 1);
      expect(await record(page)).toMatchObject({ submitted: 1, errors: [] });
    });
  });

  test('a token the service does not know, or no token at all: onError, nothing submitted', async () => {
    await withContext(DESKTOP, async (context) => {
      const page = await context.newPage();
      await page.goto(host.url(`onbs_${'x'.repeat(32)}`));
      await page.waitForFunction(() => (window as unknown as { host: HostRecord }).host.errors.length > 0);
      expect(await record(page)).toMatchObject({
        submitted: 0,
        errors: ['The sign-up session token is unknown or malformed (session_invalid).'],
      });
      await onStep(form(page), 'This form cannot be opened');

      // Not a session token: the loader refuses it without drawing the frame.
      await page.goto(host.url('svc_live_not_a_session_token'));
      await page.waitForFunction(() => (window as unknown as { host: HostRecord }).host.errors.length > 0);
      expect((await record(page)).errors).toEqual([
        'Service.onboarding.mount: sessionToken must be the session_token of an onboarding session (onbs_…).',
      ]);
      expect(await page.locator('iframe').count()).toBe(0);

      // Bad arguments without onError throw; with it, onError hears of them.
      const refusals = await page.evaluate(() => {
        type Mount = (options: unknown) => { unmount(): void };
        const mount = (window as unknown as { Service: { onboarding: { mount: Mount } } }).Service.onboarding
          .mount;
        const container = document.createElement('div');
        const tryMount = (options: unknown) => {
          try {
            mount(options);
            return 'no error';
          } catch (error) {
            return `${(error as Error).name}: ${(error as Error).message}`;
          }
        };
        return [
          tryMount({ container: '#signup', sessionToken: 'onbs_abc', onSubmitted: () => {} }),
          tryMount({ container, sessionToken: 42, onSubmitted: () => {} }),
          tryMount({ container, sessionToken: 'onbs_abc' }),
          tryMount(undefined),
        ];
      });
      expect(refusals).toEqual([
        'TypeError: Service.onboarding.mount: container must be an element of the page.',
        'TypeError: Service.onboarding.mount: sessionToken must be the session_token of an onboarding session (onbs_…).',
        'TypeError: Service.onboarding.mount: onSubmitted must be a function.',
        'TypeError: Service.onboarding.mount: container must be an element of the page.',
      ]);
    });
  });

  test('a frame that never says ready: onError after 15 s', async () => {
    const session = await openSession();
    await withContext(DESKTOP, async (context) => {
      const page = await context.newPage();
      await page.clock.install();
      // Paused, so that only runFor moves the page's time: an installed clock otherwise also runs with
      // the wall clock, and a slow load on a busy machine would count towards the 15 s.
      await page.clock.pauseAt(new Date(Date.now() + 1_000));
      await page.route(`${frameAddress}/**`, (route) => route.abort());
      await page.goto(host.url(session.session_token));
      await page.clock.runFor(14_000);
      expect((await record(page)).errors).toEqual([]);
      await page.clock.runFor(1_500);
      expect((await record(page)).errors).toEqual(['The sign-up form did not load within 15 seconds.']);
    });
  });

  test('the sandbox’s loader mounts the sandbox’s frame, for a sandbox session', async () => {
    const sandboxToken = await exchange(stack.sandbox, keys.sandbox);
    const sandboxFrame = `http://127.0.0.1:${stack.portBase + 3}`;
    const sandboxHost = await startHostPage(stack.sandbox, sandboxFrame);
    try {
      const session = await openSession(stack.sandbox, sandboxToken);
      await withContext(DESKTOP, async (context) => {
        const page = await context.newPage();
        await page.goto(sandboxHost.url(session.session_token));
        await onStep(form(page), 'Buyers');
        expect(await page.locator('iframe').getAttribute('src')).toMatch(
          new RegExp(`^${escapeRegExp(sandboxFrame)}/`),
        );
        // A production page cannot use a sandbox session: the production frame does not know it.
        await page.goto(host.url(session.session_token));
        await page.waitForFunction(() => (window as unknown as { host: HostRecord }).host.errors.length > 0);
      });
    } finally {
      await sandboxHost.stop();
    }
  });

  test('axe finds no accessibility violations on any step, with and without messages', async () => {
    const session = await openSession();
    // Axe goes in as a script, which the frame's CSP rightly refuses: this context bypasses it.
    await withContext({ ...DESKTOP, bypassCSP: true }, async (context) => {
      const page = await context.newPage();
      await page.goto(host.url(session.session_token));
      const f = form(page);
      const frame = await frameOf(page);
      const found: Array<{ step: string; width: number; id: string; nodes: string[] }> = [];
      const check = async (step: string) => {
        for (const width of [1280, 320]) {
          await page.setViewportSize({ width, height: 800 });
          if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(axe.source);
          const results = await frame.evaluate(() =>
            (window as unknown as { axe: typeof axe }).axe.run(document, {
              runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
            }),
          );
          // Axe ran over the step (it passed rules), and found nothing wrong.
          expect(results.passes.length).toBeGreaterThan(10);
          for (const v of results.violations)
            found.push({ step, width, id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 3) });
        }
        await page.setViewportSize({ width: 1280, height: 800 });
      };
      const steps: string[] = [];
      const checked: string[] = [];
      await fillForm(f, PEOPLE.slice(0, 2), async (step) => {
        steps.push(step);
        await check(step);
        checked.push(step);
        // The same step with every message showing: Continue on the empty step stays on it, with its
        // summary of what to fix.
        if (step !== 'review') {
          const before = await f.locator('h1').innerText();
          await f.getByRole('button', { name: 'Continue' }).click();
          await f.locator('.summary:not([hidden])').waitFor();
          expect(await f.locator('h1').innerText()).toBe(before);
          await check(`${step} with messages`);
          checked.push(`${step} with messages`);
        }
      });
      expect(steps).toEqual([
        'buyers',
        'buyer-1-contact',
        'buyer-1-home',
        'buyer-2-contact',
        'buyer-2-home',
        'property',
        'payment',
        'consents',
        'review',
      ]);
      // Every step was checked, and every step but the review again with its messages.
      expect(checked).toEqual(
        steps.flatMap((step) => (step === 'review' ? [step] : [step, `${step} with messages`])),
      );
      await f.getByRole('button', { name: 'Send my details' }).click();
      await onStep(f, 'Thank you, your details have been sent');
      await check('sent');
      expect(found).toEqual([]);
    });
  }, 180_000);
});

describe('with third-party cookies blocked, on a page of another site than the frame', () => {
  let blocking: Browser;
  let crossSite: HostPage;

  beforeAll(async () => {
    [blocking, crossSite] = await Promise.all([
      launchChromiumWithoutThirdPartyCookies(),
      startHostPage(stack.production, frameAddress, 'localhost'),
    ]);
  }, 60_000);

  afterAll(async () => {
    await blocking?.close();
    await crossSite?.stop();
  });

  /** The frame is a third party here, and its storage access is what a blocked third party has. */
  const expectThirdParty = async (page: Page) => {
    expect(new URL(page.url()).hostname).toBe('localhost');
    expect(await (await frameOf(page)).evaluate(() => document.hasStorageAccess())).toBe(false);
  };

  test('four buyers at 320 px: sent, onSubmitted once, the clients read back; a reload keeps the draft', async () => {
    const session = await openSession();
    await withContext(
      PHONE,
      async (context) => {
        const { page, seen } = await openRecorded(context, crossSite.url(session.session_token));
        await expectThirdParty(page);
        const f = form(page);
        await onStep(f, 'Buyers');
        await f.getByLabel('4 buyers').check();
        await next(f, 'Buyer 1: name and contact details');
        await savedDraft(page, f, 'Maria', () => f.getByLabel('First name').fill('Maria'));
        // The partitioned binding cookie is kept: a reload shows the draft.
        await page.reload();
        await onStep(f, 'Buyer 1: name and contact details');
        expect(await f.getByLabel('First name').inputValue()).toBe('Maria');
        await f.getByRole('button', { name: 'Back' }).click();

        const frame = await frameOf(page);
        await fillForm(f, PEOPLE, async (step) => {
          const sideways = await frame.evaluate(
            () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
          );
          expect({ step, sideways }).toEqual({ step, sideways: false });
        });
        await screenshot(page, '320-third-party-review');
        await f.getByRole('button', { name: 'Send my details' }).click();
        await onStep(f, 'Thank you, your details have been sent');
        await waitForSubmitted(page, 1);
        await expectSubmittedOnce(page, f);
        await expectClients(session.id, session.reference, PEOPLE);
        await expectOnlyServiceRequests(page, seen, crossSite.origin);
        await expectOnlyFrameSignals(page, PEOPLE);
        // Neither the page nor the frame's own script can read the binding.
        for (const each of page.frames())
          expect(await each.evaluate(() => document.cookie)).not.toContain('onbb_');
      },
      blocking,
    );
  }, 180_000);

  test('a browser that refuses the cookie fills and sends the form in one sitting; its drafts are refused', async () => {
    const session = await openSession();
    await withContext(
      PHONE,
      async (context) => {
        // The frame's cookie is gone before each of its API requests leaves (as where the browser refuses
        // every cookie of a frame): the service never sees a binding from this browser.
        await context.route(`${frameAddress}/api/**`, async (route) => {
          await context.clearCookies();
          await route.continue();
        });
        const { page } = await openRecorded(context, crossSite.url(session.session_token));
        await expectThirdParty(page);
        const f = form(page);
        await onStep(f, 'Buyers');
        await f.getByLabel('1 buyer', { exact: true }).check();
        const refused = page.waitForResponse((r) => r.url() === `${frameAddress}/api/draft`);
        await next(f, 'Buyer 1: name and contact details');
        expect((await refused).status()).toBe(403);
        // The form says so, and stops trying.
        await f.getByText('This browser does not keep unsent answers').waitFor();
        await f.getByRole('button', { name: 'Back' }).click();

        await fillForm(f, PEOPLE.slice(0, 1));
        await f.getByRole('button', { name: 'Send my details' }).click();
        await onStep(f, 'Thank you, your details have been sent');
        await waitForSubmitted(page, 1);
        await expectClients(session.id, session.reference, PEOPLE.slice(0, 1));
        expect((await record(page)).errors).toEqual([]);
      },
      blocking,
    );
  }, 180_000);

  test('another browser with the same token gets an empty form, not the first browser’s draft', async () => {
    const session = await openSession();
    await withContext(
      DESKTOP,
      async (context) => {
        const page = await context.newPage();
        await page.goto(crossSite.url(session.session_token));
        const f = form(page);
        await onStep(f, 'Buyers');
        await f.getByLabel('2 buyers').check();
        await next(f, 'Buyer 1: name and contact details');
        await savedDraft(page, f, 'Secret', () => f.getByLabel('First name').fill('Secret'));
      },
      blocking,
    );
    await withContext(
      DESKTOP,
      async (context) => {
        const page = await context.newPage();
        await page.goto(crossSite.url(session.session_token));
        const f = form(page);
        await onStep(f, 'Buyers');
        expect(await f.getByLabel('2 buyers').isChecked()).toBe(false);
      },
      blocking,
    );
  }, 120_000);
});

describe('the built files', () => {
  test('the frame page has no inline script or style and names content-hashed assets; the loader is small', async () => {
    const { frame, loader } = await buildOnboardingAssets();
    expect(frame.map((f) => [f.path, f.contentType])).toEqual([
      ['index.html', 'text/html; charset=utf-8'],
      [expect.stringMatching(/^assets\/form-[A-Z0-9]{8}\.js$/), 'text/javascript; charset=utf-8'],
      [expect.stringMatching(/^assets\/form-[A-Z0-9]{8}\.css$/), 'text/css; charset=utf-8'],
    ]);
    const html = new TextDecoder().decode(frame[0]?.body);
    const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((m) => m[1])).toEqual(['']);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    for (const asset of frame.slice(1)) expect(html).toContain(`"/${asset.path}"`);
    // The form with the part of zod its answers schema uses (imported by name), not all of zod's 450 KB.
    expect(frame[1]?.body.length).toBeLessThan(150_000);

    const text = new TextDecoder().decode(loader.body);
    expect(text.split('__FRAME_ORIGIN__')).toHaveLength(2);
    expect(loader.version).toMatch(/^[0-9a-f]{16}$/);
    expect(loader.body.length).toBeLessThan(4_096);
    expect(gzipSync(loader.body).length).toBeLessThan(1_500);
    // Built twice, the same bytes: the versions are content hashes.
    const again = await buildOnboardingAssets();
    expect(again.loader.version).toBe(loader.version);
    expect(again.frame.map((f) => f.path)).toEqual(frame.map((f) => f.path));
  });
});
