// The sign-up form's server side over HTTP against the local stack: the frame API on the frame address
// (who may call it: the frame's own page, with the session token, the answers bound to the browser that
// wrote them; every validation error, drafts, submissions and the clients they make, answers sealed at
// rest), the frame's files and `/onboarding.js` on both API addresses. Requests are made as the frame's
// page makes them (`Sec-Fetch-Site: same-origin`, the binding cookie of a `FrameBrowser`).
import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb';
import { localTableName } from '../../lambdas/adapters/dynamodb/table-schema';
import { ROUTES } from '../../lambdas/api/routes';
import { type Answer, bearer, call, exchange, expectError } from '../support/api-client';
import {
  BINDING_SET_COOKIE,
  type FrameBrowser,
  type FrameRequest,
  frameRequest,
  newBrowser,
} from '../support/frame-client';
import { devBootstrap, ops, type RunningStack } from '../support/local-stack';
import { useSharedStack } from '../support/shared-stacks';

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const FRAME_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors *";

let stack: RunningStack;
let production: string;
let sandbox: string;
let frame: string;

interface Session {
  id: string;
  reference: string;
  session_token: string;
}

const openSession = async (reference = `frame-${randomUUID()}`, base = 'production'): Promise<Session> => {
  const [url, token] = base === 'production' ? [stack.production, production] : [stack.sandbox, sandbox];
  const answer = await call(`${url}/v1/clients/onboardings/sessions`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({ reference }),
  });
  if (answer.status !== 200) throw new Error(`session: ${answer.status} ${answer.text}`);
  return answer.body as Session;
};

/** The browser most tests use: one person's, bound by the first form it shows. */
const theBrowser = newBrowser();

const frameCall = (
  method: string,
  route: string,
  options: Omit<FrameRequest, 'browser'> & { base?: string; browser?: FrameBrowser | null } = {},
): Promise<Answer> =>
  frameRequest(`${options.base ?? frame}${route}`, method, {
    ...options,
    browser: options.browser === undefined ? theBrowser : options.browser,
  });

const showForm = (token: string, browser?: FrameBrowser | null) =>
  frameCall('GET', '/api/form', { token, browser });
const saveDraft = (token: string, answers: unknown, browser?: FrameBrowser | null) =>
  frameCall('PUT', '/api/draft', { token, body: { answers }, browser });
const submit = (token: string, answers: unknown, browser?: FrameBrowser | null) =>
  frameCall('POST', '/api/submit', { token, body: { answers }, browser });

const getJson = (url: string, token = production) => call(url, { headers: bearer(token) });

/** A date of birth `years` years before today (UTC). */
const yearsAgo = (years: number, days = 0): string => {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() - years);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

type Json = Record<string, unknown>;

/** Every item of the production table in DynamoDB Local, as stored. */
const scanTable = async (): Promise<Json[]> => {
  const doc = createDocumentClient(`http://127.0.0.1:${stack.portBase + 10}`);
  const items: Json[] = [];
  let start: Json | undefined;
  try {
    do {
      const page = await doc.send(
        new ScanCommand({ TableName: localTableName('production'), ExclusiveStartKey: start }),
      );
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
  } finally {
    doc.destroy();
  }
  return items;
};

const buyer = (overrides: Json = {}): Json => ({
  first_name: 'Maria',
  last_name: 'Rossi',
  email: 'maria@example.com',
  mobile: '+61 (400) 000-001',
  date_of_birth: '1988-07-31',
  address: {
    line1: '12 Acacia Street',
    suburb: 'Carlton',
    state: 'VIC',
    postcode: '3053',
    country: 'Australia',
  },
  ...overrides,
});

const answers = (overrides: Json = {}): Json => ({
  buyers: [buyer()],
  property: { address: { line1: '3 High Street', suburb: 'Kew', state: 'VIC', postcode: '3101' } },
  payment: { method: 'cash_and_loan', lender: 'Example Bank', loan_preapproved: true },
  consents: { privacy: true, terms: true },
  ...overrides,
});

/** `answers()` with one value changed (`undefined`: left out), at a dotted path. */
const changed = (at: string, value: unknown): Json => {
  const copy = structuredClone(answers()) as Json;
  const keys = at.split('.');
  const last = keys.pop() as string;
  let target: Record<string, unknown> = copy;
  for (const key of keys) target = target[key] as Record<string, unknown>;
  if (value === undefined) delete target[last];
  else target[last] = value;
  return copy;
};

const expectFields = (answer: Answer, fields: Array<{ path: string; message: RegExp }>) => {
  expectError(answer, 422, 'answers_invalid');
  expect(answer.body.error.fields).toEqual(
    fields.map(({ path, message }) => ({ path, message: expect.stringMatching(message) })),
  );
};

useSharedStack(
  (started) => {
    stack = started;
  },
  { env: { RATE_LIMITS: 'off' } },
);

beforeAll(async () => {
  const keys = (await devBootstrap(stack)).keys;
  production = await exchange(stack.production, keys.production);
  sandbox = await exchange(stack.sandbox, keys.sandbox);
  frame = stack.frame.production;
  // The browser most tests use shows a form first, as the frame does, and so holds its binding.
  expect((await showForm((await openSession()).session_token)).status).toBe(200);
  expect(theBrowser.cookie).toBeDefined();
}, 120_000);

describe('the session token is the credential of the frame API', () => {
  const ROUTES_OF_FRAME = [
    ['GET', '/api/form'],
    ['PUT', '/api/draft'],
    ['POST', '/api/submit'],
  ] as const;

  test.each(ROUTES_OF_FRAME)('%s %s without Authorization: 401 session_invalid', async (method, route) => {
    const answer = await frameCall(method, route, { body: method === 'GET' ? undefined : { answers: {} } });
    expectError(answer, 401, 'session_invalid');
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });

  test.each(ROUTES_OF_FRAME)(
    '%s %s with a credential that is no session token: 401 session_invalid',
    async (method, route) => {
      const body = method === 'GET' ? undefined : { answers: answers() };
      for (const authorization of [
        'Basic dXNlcjpwYXNz',
        'Bearer',
        'Bearer onbs_short',
        `Bearer onbs_${'A'.repeat(32)}`, // well formed, never issued
        `Bearer onbs_${'!'.repeat(32)}`,
        `Bearer ${production}`, // a /v1 access token
        `Bearer ${sandbox}`,
      ]) {
        const answer = await frameCall(method, route, { body, headers: { authorization } });
        expectError(answer, 401, 'session_invalid');
      }
    },
  );

  test('an API key is not a session token either', async () => {
    const keys = (await devBootstrap(stack)).keys;
    expectError(await showForm(keys.production), 401, 'session_invalid');
  });

  test('a sandbox session token is unknown on the production frame, and the other way round', async () => {
    const inSandbox = await openSession(undefined, 'sandbox');
    const inProduction = await openSession();
    expectError(await showForm(inSandbox.session_token), 401, 'session_invalid');
    expect(
      (await frameCall('GET', '/api/form', { token: inSandbox.session_token, base: stack.frame.sandbox }))
        .status,
    ).toBe(200);
    expectError(
      await frameCall('GET', '/api/form', { token: inProduction.session_token, base: stack.frame.sandbox }),
      401,
      'session_invalid',
    );
  });

  test('a session token calls no /v1 endpoint: 401 on every route but the public document', async () => {
    const session = await openSession();
    for (const environment of ['production', 'sandbox'] as const) {
      for (const route of ROUTES.filter((r) => !r.public)) {
        const url = `${stack[environment]}${route.path.replace('{id}', session.id)}`;
        const answer = await call(url, {
          method: route.method,
          headers: { ...bearer(session.session_token), 'content-type': 'application/json' },
          body: route.method === 'GET' ? undefined : JSON.stringify({ reference: 'x' }),
        });
        // POST /v1/token takes API keys only; every other endpoint access tokens only.
        expectError(answer, 401, route.name === 'token' ? 'api_key_invalid' : 'token_invalid');
      }
    }
  });
});

describe("the session token alone reads and changes no one's answers; only the frame calls the API", () => {
  const ROUTES_OF_FRAME = [
    ['GET', '/api/form'],
    ['PUT', '/api/draft'],
    ['POST', '/api/submit'],
  ] as const;
  const bodyOf = (method: string) => (method === 'GET' ? undefined : { answers: answers() });

  test('a token without the browser that wrote the answers gets an empty form and cannot overwrite them', async () => {
    const session = await openSession();
    const person = newBrowser();
    expect((await showForm(session.session_token, person)).body.answers).toBeNull();
    const draft = { buyers: [buyer({ date_of_birth: '1979-02-03' })], note: 'typed by the person' };
    expect((await saveDraft(session.session_token, draft, person)).status).toBe(204);

    // The token alone (curl with the frame's headers copied): an empty form, and a new binding for it.
    const alone = await showForm(session.session_token, null);
    expect(alone.status).toBe(200);
    expect(alone.body).toEqual({ state: 'open', submitted_at: null, answers: null });
    expect(alone.text).not.toContain('1979-02-03');
    expect(alone.headers.get('set-cookie')).toMatch(BINDING_SET_COOKIE);
    // It cannot plant a draft without a binding, nor change the person's with one of its own.
    expectError(await saveDraft(session.session_token, { planted: true }, null), 403, 'draft_not_kept');
    const intruder = newBrowser();
    expect((await showForm(session.session_token, intruder)).body.answers).toBeNull();
    expect((await saveDraft(session.session_token, { planted: true }, intruder)).status).toBe(204);
    expect((await showForm(session.session_token, person)).body.answers).toEqual(draft);
    expect((await showForm(session.session_token, intruder)).body.answers).toEqual({ planted: true });
    // A well-formed binding never given reads nothing either.
    const forged = { cookie: `onboarding_browser=onbb_${'A'.repeat(32)}` };
    expect((await showForm(session.session_token, forged)).body.answers).toBeNull();
    expect((await showForm(session.session_token, forged)).headers.get('set-cookie')).toBeNull();

    // The person submits: the form shows them their answers; the token alone still sees nothing.
    const sent = answers({ buyers: [buyer({ date_of_birth: '1979-02-03' })] });
    expect((await submit(session.session_token, sent, person)).status).toBe(200);
    expect((await showForm(session.session_token, person)).body.answers).toEqual(sent);
    const after = await showForm(session.session_token, null);
    expect(after.body).toEqual({
      state: 'submitted',
      submitted_at: expect.stringMatching(TIME),
      answers: null,
    });
    // The other browser keeps its own draft, and never sees the submission.
    expect((await showForm(session.session_token, intruder)).body.answers).toEqual({ planted: true });
  });

  test('a submission from a new browser replaces the latest submission, and only it sees those answers', async () => {
    const session = await openSession();
    const first = newBrowser();
    const second = newBrowser();
    await showForm(session.session_token, first);
    const firstAnswers = answers();
    expect((await submit(session.session_token, firstAnswers, first)).status).toBe(200);
    // The second browser: an empty form; it submits again (the form may be submitted more than once).
    expect((await showForm(session.session_token, second)).body.answers).toBeNull();
    const secondAnswers = answers({ buyers: [buyer({ first_name: 'Giulia', email: 'giulia@example.com' })] });
    expect((await submit(session.session_token, secondAnswers, second)).status).toBe(200);

    expect((await showForm(session.session_token, second)).body.answers).toEqual(secondAnswers);
    // The first browser's submission is no longer the latest: it sees an empty form, not the other's answers.
    expect((await showForm(session.session_token, first)).body.answers).toBeNull();
    const onboarding = await getJson(`${stack.production}/v1/clients/onboardings/${session.id}`);
    expect(onboarding.body.clients.map((c: Json) => c.first_name)).toEqual(['Giulia']);

    // A browser that took no cookie submits too; its answers are then kept for no browser.
    const noCookie = await submit(session.session_token, firstAnswers, null);
    expect(noCookie.status).toBe(200);
    expect(noCookie.headers.get('set-cookie')).toMatch(BINDING_SET_COOKIE);
    expect((await showForm(session.session_token, second)).body.answers).toBeNull();
  });

  test.each(ROUTES_OF_FRAME)(
    '%s %s from anything but the frame: 403 origin_not_allowed, whatever token and cookie it carries',
    async (method, route) => {
      const session = await openSession();
      for (const headers of [
        { 'sec-fetch-site': '' }, // curl: no Sec-Fetch-Site, no Origin
        { 'sec-fetch-site': 'cross-site', origin: 'https://customer.example' },
        { 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:1' },
        { 'sec-fetch-site': 'none' },
        { 'sec-fetch-site': 'cross-site', origin: frame }, // a browser's word wins over an Origin
        { origin: 'https://customer.example' },
        { origin: 'null' },
      ]) {
        const sent = Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== ''));
        const answer = await call(`${frame}${route}`, {
          method,
          headers: {
            ...sent,
            ...bearer(session.session_token),
            cookie: theBrowser.cookie ?? '',
            'content-type': 'application/json',
          },
          body: method === 'GET' ? undefined : JSON.stringify(bodyOf(method)),
        });
        expectError(answer, 403, 'origin_not_allowed');
        expect(answer.body.error.message).toMatch(/frame/);
        expect(answer.headers.get('service-request-id')).toMatch(/^rqs_/);
        expect(answer.headers.get('set-cookie')).toBeNull();
      }
      // Nothing was written.
      const onboarding = await getJson(`${stack.production}/v1/clients/onboardings/${session.id}`);
      expect(onboarding.body).toMatchObject({ state: 'open', submitted_at: null });
      expect((await showForm(session.session_token)).body.answers).toBeNull();
    },
  );

  test("a browser that sends no Sec-Fetch-Site is the frame when its Origin is the frame's own", async () => {
    const session = await openSession();
    const answer = await frameCall('PUT', '/api/draft', {
      token: session.session_token,
      body: { answers: { step: 1 } },
      headers: { 'sec-fetch-site': '', origin: frame },
    });
    expect(answer.status).toBe(204);
    expect((await showForm(session.session_token)).body.answers).toEqual({ step: 1 });
  });

  test('the binding is given once, on the first answer to a browser without one, and never in a body', async () => {
    const session = await openSession();
    const browser = newBrowser();
    const first = await showForm(session.session_token, browser);
    const given = BINDING_SET_COOKIE.exec(first.headers.get('set-cookie') ?? '')?.[1] as string;
    expect(given).toMatch(/^onbb_/);
    expect(first.text).not.toContain(given);
    const again = await showForm(session.session_token, browser);
    expect(again.headers.get('set-cookie')).toBeNull();
    const draft = await saveDraft(session.session_token, { step: 2 }, browser);
    expect(draft.headers.get('set-cookie')).toBeNull();
  });
});

describe('every validation error of the frame API', () => {
  let token: string;
  let onboardingId: string;

  beforeAll(async () => {
    const session = await openSession();
    token = session.session_token;
    onboardingId = session.id;
  });

  const tooLong = (n: number) => 'x'.repeat(n + 1);

  test.each(
    (
      [
        ['no buyers field', changed('buyers', undefined), 'buyers', /at least one buyer/],
        ['no buyers', changed('buyers', []), 'buyers', /at least one buyer/],
        [
          'five buyers',
          changed(
            'buyers',
            [1, 2, 3, 4, 5].map((n) => buyer({ email: `b${n}@example.com` })),
          ),
          'buyers',
          /at most 4 buyers/,
        ],
        ['buyers not a list', changed('buyers', { 0: buyer() }), 'buyers', /at least one buyer/],
        ['a buyer that is not an object', changed('buyers', ['Maria']), 'buyers.0', /buyer's details/],
        [
          'no first name',
          changed('buyers.0.first_name', undefined),
          'buyers.0.first_name',
          /Enter the first name/,
        ],
        [
          'a blank first name',
          changed('buyers.0.first_name', '   '),
          'buyers.0.first_name',
          /Enter the first name/,
        ],
        [
          'a first name of 101 characters',
          changed('buyers.0.first_name', tooLong(100)),
          'buyers.0.first_name',
          /at most 100/,
        ],
        [
          'a numeric last name',
          changed('buyers.0.last_name', 7),
          'buyers.0.last_name',
          /Enter the last name/,
        ],
        [
          'a last name of 101 characters',
          changed('buyers.0.last_name', tooLong(100)),
          'buyers.0.last_name',
          /at most 100/,
        ],
        ['no email', changed('buyers.0.email', undefined), 'buyers.0.email', /email address/],
        [
          'an email without a domain',
          changed('buyers.0.email', 'maria@'),
          'buyers.0.email',
          /whole email address/,
        ],
        [
          'an email of 255 characters',
          changed('buyers.0.email', `${'m'.repeat(243)}@example.com`),
          'buyers.0.email',
          /at most 254/,
        ],
        ['no mobile', changed('buyers.0.mobile', undefined), 'buyers.0.mobile', /Enter a mobile number/],
        [
          'a mobile with letters',
          changed('buyers.0.mobile', '0400 abc 001'),
          'buyers.0.mobile',
          /digits, spaces, \+, \( \) and -/,
        ],
        ['a mobile of 5 digits', changed('buyers.0.mobile', '12-345'), 'buyers.0.mobile', /6 to 15 digits/],
        [
          'a mobile of 16 digits',
          changed('buyers.0.mobile', '1234 5678 9012 3456'),
          'buyers.0.mobile',
          /6 to 15 digits/,
        ],
        [
          'a mobile of 31 characters',
          changed('buyers.0.mobile', `0400 ${' '.repeat(20)}000 001`),
          'buyers.0.mobile',
          /at most 30/,
        ],
        [
          'no date of birth',
          changed('buyers.0.date_of_birth', undefined),
          'buyers.0.date_of_birth',
          /YYYY-MM-DD/,
        ],
        [
          'a date of birth as 31/07/1988',
          changed('buyers.0.date_of_birth', '31/07/1988'),
          'buyers.0.date_of_birth',
          /YYYY-MM-DD/,
        ],
        [
          '29 February of a common year',
          changed('buyers.0.date_of_birth', '1987-02-29'),
          'buyers.0.date_of_birth',
          /exists on the calendar/,
        ],
        [
          'month 13',
          changed('buyers.0.date_of_birth', '1987-13-01'),
          'buyers.0.date_of_birth',
          /exists on the calendar/,
        ],
        [
          'a date of birth next year',
          changed('buyers.0.date_of_birth', yearsAgo(-1)),
          'buyers.0.date_of_birth',
          /in the past/,
        ],
        [
          'a buyer 18 tomorrow',
          changed('buyers.0.date_of_birth', yearsAgo(18, 2)),
          'buyers.0.date_of_birth',
          /18 or older/,
        ],
        [
          'a buyer born in 1850',
          changed('buyers.0.date_of_birth', '1850-01-01'),
          'buyers.0.date_of_birth',
          /more than 130 years/,
        ],
        [
          'no residential address',
          changed('buyers.0.address', undefined),
          'buyers.0.address',
          /residential address/,
        ],
        [
          'a blank street address',
          changed('buyers.0.address.line1', ''),
          'buyers.0.address.line1',
          /street address/,
        ],
        [
          'a second line of 201 characters',
          changed('buyers.0.address.line2', tooLong(200)),
          'buyers.0.address.line2',
          /at most 200/,
        ],
        [
          'no suburb',
          changed('buyers.0.address.suburb', undefined),
          'buyers.0.address.suburb',
          /suburb or town/,
        ],
        ['no state', changed('buyers.0.address.state', ' '), 'buyers.0.address.state', /state or region/],
        [
          'a postcode with #',
          changed('buyers.0.address.postcode', '30#53'),
          'buyers.0.address.postcode',
          /letters, digits/,
        ],
        [
          'a postcode of 11 characters',
          changed('buyers.0.address.postcode', '12345678901'),
          'buyers.0.address.postcode',
          /at most 10/,
        ],
        ['no country', changed('buyers.0.address.country', undefined), 'buyers.0.address.country', /country/],
        [
          'an unknown buyer field',
          changed('buyers.0.nickname', 'Mia'),
          'buyers.0.nickname',
          /`nickname` is not a field/,
        ],
        ['no property', changed('property', undefined), 'property', /property's address/],
        [
          'no property address',
          changed('property.address', undefined),
          'property.address',
          /property's address/,
        ],
        [
          'no property postcode',
          changed('property.address.postcode', undefined),
          'property.address.postcode',
          /postcode/,
        ],
        [
          'a country on the property',
          changed('property.address.country', 'Australia'),
          'property.address.country',
          /not a field/,
        ],
        ['no payment', changed('payment', undefined), 'payment', /paid for/],
        [
          'payment by barter',
          changed('payment.method', 'barter'),
          'payment.method',
          /cash, a loan, or cash and a loan/,
        ],
        [
          'a lender of 201 characters',
          changed('payment.lender', tooLong(200)),
          'payment.lender',
          /at most 200/,
        ],
        [
          'pre-approval as text',
          changed('payment.loan_preapproved', 'yes'),
          'payment.loan_preapproved',
          /yes or no/,
        ],
        ['no consents', changed('consents', undefined), 'consents', /privacy policy and the terms/],
        ['privacy refused', changed('consents.privacy', false), 'consents.privacy', /privacy policy/],
        ['terms as "true"', changed('consents.terms', 'true'), 'consents.terms', /terms/],
        ['an unknown top-level field', changed('colour', 'blue'), 'colour', /`colour` is not a field/],
        ['answers that are a list', [answers()], '', /as an object/],
        ['null answers', null, '', /as an object/],
      ] satisfies Array<[string, unknown, string, RegExp]>
    ).map(([name, body, field, message]): [string, string, unknown, RegExp] => [name, field, body, message]),
  )('%s: 422 naming %s', async (_name, field, body, message) => {
    expectFields(await submit(token, body), [{ path: field, message }]);
  });

  test('the same email twice, in another case and with spaces: the later buyer is named', async () => {
    const twice = answers({
      buyers: [buyer(), buyer({ first_name: 'Luca', email: '  MARIA@Example.com ' })],
    });
    expectFields(await submit(token, twice), [
      { path: 'buyers.1.email', message: /own email address; buyer 1/ },
    ]);
  });

  test('several faults: every field named, once, in the form order', async () => {
    const many = answers({
      buyers: [
        buyer({ first_name: '', mobile: 'call me' }),
        buyer({ email: 'maria@example.com', date_of_birth: '2999-01-01' }),
      ],
      consents: { privacy: true, terms: false },
    });
    expectFields(await submit(token, many), [
      { path: 'buyers.0.first_name', message: /first name/ },
      { path: 'buyers.0.mobile', message: /digits/ },
      { path: 'buyers.1.date_of_birth', message: /past/ },
      { path: 'buyers.1.email', message: /own email address/ },
      { path: 'consents.terms', message: /terms/ },
    ]);
    // Nothing was recorded.
    const onboarding = await getJson(`${stack.production}/v1/clients/onboardings/${onboardingId}`);
    expect(onboarding.body).toMatchObject({ state: 'open', submitted_at: null, clients: [] });
  });

  test.each([
    ['PUT', '/api/draft'],
    ['POST', '/api/submit'],
  ])('%s %s with a body that is not { answers }: 400 request_invalid', async (method, route) => {
    for (const body of ['{"answers": ', 'answers', '[]', '"answers"', '{}', '{"answers": {}, "extra": 1}']) {
      expectError(await frameCall(method, route, { token, body }), 400, 'request_invalid');
    }
  });

  test('a draft must be an object', async () => {
    for (const draft of [[], 'text', 3, null]) {
      expectError(await saveDraft(token, draft), 400, 'request_invalid');
    }
  });

  test.each([
    ['PUT', '/api/draft'],
    ['POST', '/api/submit'],
  ])('%s %s over 64 KiB: 413 answers_too_large', async (method, route) => {
    const body = JSON.stringify({ answers: { notes: 'n'.repeat(64 * 1024) } });
    expectError(await frameCall(method, route, { token, body }), 413, 'answers_too_large');
  });

  test('a draft of exactly 64 KiB is kept', async () => {
    const frameOf = (fill: string) => JSON.stringify({ answers: { notes: fill } });
    const body = frameOf('n'.repeat(64 * 1024 - frameOf('').length));
    expect(Buffer.byteLength(body)).toBe(64 * 1024);
    const answer = await frameCall('PUT', '/api/draft', { token, body });
    expect(answer.status).toBe(204);
  });

  test.each([
    ['POST', '/api/form', 'GET'],
    ['DELETE', '/api/draft', 'PUT'],
    ['GET', '/api/draft', 'PUT'],
    ['GET', '/api/submit', 'POST'],
    ['PUT', '/api/submit', 'POST'],
  ])('%s %s: 405 method_not_allowed, Allow: %s', async (method, route, allowed) => {
    const answer = await frameCall(method, route, { token });
    expectError(answer, 405, 'method_not_allowed');
    expect(answer.headers.get('allow')).toBe(allowed);
  });

  test.each([['/api/nothing'], ['/api'], ['/api/form/extra'], ['/api/v1/clients']])(
    'GET %s: 404 not_found',
    async (route) => {
      expectError(await frameCall('GET', route, { token }), 404, 'not_found');
    },
  );
});

describe('drafts', () => {
  test('a new session shows an open form with no answers, not to be cached', async () => {
    const session = await openSession();
    const answer = await showForm(session.session_token);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ state: 'open', submitted_at: null, answers: null });
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('service-request-id')).toMatch(/^rqs_/);
  });

  test('a draft of any shape round-trips; the next replaces it; other sessions of the onboarding see it', async () => {
    const reference = `draft-${randomUUID()}`;
    const session = await openSession(reference);
    const draft = {
      buyers: [{ first_name: 'Ma', date_of_birth: '1988--' }],
      step: 3,
      nested: { x: [1, null] },
    };
    const saved = await saveDraft(session.session_token, draft);
    expect(saved.status).toBe(204);
    expect(saved.text).toBe('');
    expect((await showForm(session.session_token)).body).toEqual({
      state: 'open',
      submitted_at: null,
      answers: draft,
    });

    const next = { buyers: [{ first_name: 'Maria' }] };
    expect((await saveDraft(session.session_token, next)).status).toBe(204);
    expect((await showForm(session.session_token)).body.answers).toEqual(next);

    // The same reference again: the same onboarding, another token, the same form.
    const again = await openSession(reference);
    expect(again.id).toBe(session.id);
    expect((await showForm(again.session_token)).body.answers).toEqual(next);
  });

  test("a session token reads and writes only its own onboarding's form", async () => {
    const mine = await openSession();
    const theirs = await openSession();
    await saveDraft(mine.session_token, { secret: 'mine only' });
    expect((await showForm(theirs.session_token)).body.answers).toBeNull();
    await saveDraft(theirs.session_token, { secret: 'theirs' });
    expect((await showForm(mine.session_token)).body.answers).toEqual({ secret: 'mine only' });

    expect((await submit(theirs.session_token, answers())).status).toBe(200);
    const untouched = await getJson(`${stack.production}/v1/clients/onboardings/${mine.id}`);
    expect(untouched.body).toMatchObject({ state: 'open', submitted_at: null, clients: [] });
    expect((await showForm(mine.session_token)).body).toEqual({
      state: 'open',
      submitted_at: null,
      answers: { secret: 'mine only' },
    });
  });
});

describe('submissions', () => {
  test('a submission moves the onboarding and makes its clients, first buyer primary, mobile as typed', async () => {
    const session = await openSession();
    const submitted = answers({
      buyers: [
        buyer({ first_name: '  Maria ', mobile: ' +61 (400) 000-001 ' }),
        buyer({
          first_name: 'Luca',
          email: 'luca@example.com',
          mobile: '0400-000-002',
          date_of_birth: yearsAgo(18),
        }),
      ],
    });
    const answer = await submit(session.session_token, submitted);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ state: 'submitted', submitted_at: expect.stringMatching(TIME) });
    expect(answer.headers.get('cache-control')).toBe('no-store');

    const onboarding = await getJson(`${stack.production}/v1/clients/onboardings/${session.id}`);
    expect(onboarding.body).toMatchObject({
      id: session.id,
      state: 'submitted',
      submitted_at: answer.body.submitted_at,
      accepted_at: null,
    });
    const [maria, luca] = onboarding.body.clients;
    expect(maria).toEqual({
      id: expect.stringMatching(/^cli_/),
      onboarding_id: session.id,
      reference: session.reference,
      primary: true,
      first_name: 'Maria',
      last_name: 'Rossi',
      email: 'maria@example.com',
      mobile: '+61 (400) 000-001',
      created_at: expect.stringMatching(TIME),
    });
    expect(luca).toMatchObject({ primary: false, first_name: 'Luca', mobile: '0400-000-002' });
    // Nothing beyond the client's fields is shown by the API.
    expect(Object.keys(maria).sort()).toEqual([
      'created_at',
      'email',
      'first_name',
      'id',
      'last_name',
      'mobile',
      'onboarding_id',
      'primary',
      'reference',
    ]);
    const listed = await getJson(`${stack.production}/v1/clients?onboarding_id=${session.id}`);
    expect(listed.body.data.map((c: { id: string }) => c.id).sort()).toEqual([maria.id, luca.id].sort());
    expect((await getJson(`${stack.production}/v1/clients/${luca.id}`)).body).toEqual(luca);

    // One clients.submitted per buyer, recorded (whether or not fanned out yet).
    const events = (await scanTable())
      .filter((item) => item.type === 'event' && JSON.parse(item.data as string).onboarding_id === session.id)
      .map((item) => [item.event_type, JSON.parse(item.data as string).client_id]);
    expect(events.sort()).toEqual(
      [
        ['clients.submitted', maria.id],
        ['clients.submitted', luca.id],
      ].sort(),
    );

    // The form shows the answers as recorded (trimmed), for correcting.
    const form = await showForm(session.session_token);
    expect(form.body).toEqual({
      state: 'submitted',
      submitted_at: answer.body.submitted_at,
      answers: answers({
        buyers: [
          buyer({ mobile: '+61 (400) 000-001' }),
          buyer({
            first_name: 'Luca',
            email: 'luca@example.com',
            mobile: '0400-000-002',
            date_of_birth: yearsAgo(18),
          }),
        ],
      }),
    });
  });

  test('resubmission keeps client ids for the same emails, any case, and moves accepted back to submitted', async () => {
    const session = await openSession();
    const first = await submit(
      session.session_token,
      answers({ buyers: [buyer(), buyer({ first_name: 'Luca', email: 'luca@example.com' })] }),
    );
    expect(first.status).toBe(200);
    const before = (await getJson(`${stack.production}/v1/clients/onboardings/${session.id}`)).body;
    const ids = Object.fromEntries(before.clients.map((c: { email: string; id: string }) => [c.email, c.id]));

    expect((await ops(stack, 'accept-onboarding', session.id)).code).toBe(0);
    // A draft of corrections, then the corrected submission: Luca first now, both emails in other cases.
    await saveDraft(session.session_token, { buyers: [{ first_name: 'Luca' }] });
    expect((await showForm(session.session_token)).body).toMatchObject({
      state: 'accepted',
      answers: { buyers: [{ first_name: 'Luca' }] },
    });
    const again = await submit(
      session.session_token,
      answers({
        buyers: [
          buyer({ first_name: 'Luca', email: 'LUCA@example.com' }),
          buyer({ first_name: 'Maria', email: 'Maria@Example.COM', mobile: '0400 999 999' }),
        ],
      }),
    );
    expect(again.status).toBe(200);
    expect(again.body.submitted_at > first.body.submitted_at).toBe(true);
    const after = (await getJson(`${stack.production}/v1/clients/onboardings/${session.id}`)).body;
    expect(after).toMatchObject({ state: 'submitted', submitted_at: again.body.submitted_at });
    expect(after.accepted_at).toEqual(expect.stringMatching(TIME));
    expect(after.clients.map((c: Json) => [c.id, c.primary, c.email, c.mobile])).toEqual([
      [ids['luca@example.com'], true, 'LUCA@example.com', '+61 (400) 000-001'],
      [ids['maria@example.com'], false, 'Maria@Example.COM', '0400 999 999'],
    ]);
    // The draft went with the submission.
    const form = (await showForm(session.session_token)).body;
    expect(form.state).toBe('submitted');
    expect((form.answers as { buyers: Json[] }).buyers[0]).toMatchObject({ email: 'LUCA@example.com' });
  });

  test('the answers are kept sealed: no answer is in the table as text', async () => {
    const marker = `Quokka${randomUUID().replaceAll('-', '')}`;
    const session = await openSession();
    await saveDraft(session.session_token, { note: `${marker}-draft` });
    const submitted = await submit(
      session.session_token,
      answers({
        buyers: [buyer({ address: { ...(buyer().address as Json), line1: `1 ${marker} Lane` } })],
        payment: { method: 'loan', lender: `${marker} Bank` },
      }),
    );
    expect(submitted.status).toBe(200);
    // And a draft after the submission, kept beside the submitted answers.
    await saveDraft(session.session_token, { note: `${marker}-second-draft` });
    expect((await showForm(session.session_token)).body.answers).toEqual({ note: `${marker}-second-draft` });

    const items = await scanTable();
    expect(JSON.stringify(items)).not.toContain(marker);
    const kept = items
      .filter((item) => item.pk === `ONBANSWERS#${session.id}`)
      .sort((x, y) => String(x.sk).localeCompare(String(y.sk)));
    expect(kept).toEqual([
      expect.objectContaining({
        sk: expect.stringMatching(/^DRAFT#/),
        draft: expect.stringMatching(/^v1\./),
      }),
      expect.objectContaining({ sk: 'ONBANSWERS', submitted: expect.stringMatching(/^v1\./) }),
    ]);
    // The browser's binding is kept as a hash only: no cookie value is in the table.
    const binding = (theBrowser.cookie ?? '').split('=')[1] as string;
    expect(binding).toMatch(/^onbb_/);
    expect(JSON.stringify(items)).not.toContain(binding);

    const keyFile = path.join(stack.dataDir, 'keys', 'production-answers.key');
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    expect(Buffer.from((await readFile(keyFile, 'utf8')).trim(), 'base64')).toHaveLength(32);
  });
});

describe('the frame and the loader', () => {
  test('the frame page and its files, under the frame policy; assets cached for good', async () => {
    for (const base of [stack.frame.production, stack.frame.sandbox]) {
      const page = await fetch(`${base}/?v=1`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toBe(FRAME_CSP);
      expect(page.headers.get('x-frame-options')).toBeNull();
      expect(page.headers.get('cache-control')).toBe('no-cache');
      const html = await page.text();
      const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1] as string);
      expect(assets.length).toBeGreaterThan(0);
      for (const asset of assets) {
        const file = await fetch(`${base}${asset}`);
        expect(file.status).toBe(200);
        expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        expect(file.headers.get('content-security-policy')).toBe(FRAME_CSP);
        await file.arrayBuffer();
      }
      const revalidated = await fetch(`${base}/`, {
        headers: { 'if-none-match': page.headers.get('etag') ?? '' },
      });
      expect(revalidated.status).toBe(304);
      const missing = await fetch(`${base}/assets/nothing.js`);
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-security-policy')).toBe(FRAME_CSP);
      await missing.arrayBuffer();
      const posted = await fetch(`${base}/`, { method: 'POST', body: 'x' });
      expect(posted.status).toBe(405);
      await posted.arrayBuffer();
    }
  });

  test('/onboarding.js on both API addresses, naming its own frame address, cacheable for 5 minutes', async () => {
    const bodies: string[] = [];
    for (const [api, frameOrigin] of [
      [stack.production, stack.frame.production],
      [stack.sandbox, stack.frame.sandbox],
    ] as const) {
      const loader = await fetch(`${api}/onboarding.js`);
      expect(loader.status).toBe(200);
      expect(loader.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(loader.headers.get('cache-control')).toBe('public, max-age=300');
      const etag = loader.headers.get('etag');
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const text = await loader.text();
      expect(text).toContain(frameOrigin);
      expect(text).not.toContain('__FRAME_ORIGIN__');
      bodies.push(text);
      const again = await fetch(`${api}/onboarding.js`, { headers: { 'if-none-match': etag ?? '' } });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
      const head = await fetch(`${api}/onboarding.js`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('etag')).toBe(etag);
    }
    expect(bodies[0]).not.toBe(bodies[1]);
  });
});
