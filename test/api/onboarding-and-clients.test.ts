// Onboarding sessions, onboardings and clients, over HTTP against the local stack.
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bearer, call, exchange, expectError } from '../support/api-client';
import { devBootstrap, ops, type RunningStack } from '../support/local-stack';
import { storedEvents } from '../support/pipeline';
import { useSharedStack } from '../support/shared-stacks';
import { createTenant } from '../support/tenants';

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

let stack: RunningStack;
let production: string;
let sandbox: string;

const openSession = (body: unknown, token = production, base = stack.production) =>
  call(`${base}/v1/clients/onboardings/sessions`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const submit = async (onboardingId: string, buyers: unknown[]) => {
  const file = path.join(stack.dataDir, `buyers-${randomUUID()}.json`);
  await writeFile(file, JSON.stringify(buyers));
  return ops(stack, 'submit-onboarding', onboardingId, '--buyers', file);
};

const getJson = (url: string, token = production) => call(url, { headers: bearer(token) });

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
}, 120_000);

describe('POST /v1/clients/onboardings/sessions', () => {
  test('opens an onboarding: 200 with an onbs_ session token', async () => {
    const answer = await openSession({ reference: 'buyer-file-1' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      id: expect.stringMatching(/^onb_[A-Za-z0-9]+$/),
      reference: 'buyer-file-1',
      state: 'open',
      session_token: expect.stringMatching(/^onbs_[A-Za-z0-9]{22,}$/),
      created_at: expect.stringMatching(TIME),
    });
    expect(Object.keys(answer.body)).toEqual(['id', 'reference', 'state', 'session_token', 'created_at']);
  });

  test('a reference used before: the same onboarding with another token', async () => {
    const first = await openSession({ reference: 'repeat-me' });
    const again = await openSession({ reference: 'repeat-me' });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.created_at).toBe(first.body.created_at);
    expect(again.body.session_token).not.toBe(first.body.session_token);
  });

  test('references are per environment and per integration', async () => {
    const inProduction = await openSession({ reference: 'shared-ref' });
    const inSandbox = await openSession({ reference: 'shared-ref' }, sandbox, stack.sandbox);
    const other = await createTenant(stack, 'onb');
    const otherToken = await exchange(stack.production, other.keys.production);
    const inOther = await openSession({ reference: 'shared-ref' }, otherToken);
    expect(new Set([inProduction.body.id, inSandbox.body.id, inOther.body.id]).size).toBe(3);
  });

  test.each([
    ['no reference', {}, 'reference_required'],
    ['a null reference', { reference: null }, 'reference_required'],
    ['an empty reference', { reference: '' }, 'reference_invalid'],
    ['a reference of 201 characters', { reference: 'r'.repeat(201) }, 'reference_invalid'],
    ['a reference with a newline', { reference: 'a\nb' }, 'reference_invalid'],
    ['a numeric reference', { reference: 42 }, 'reference_invalid'],
    ['a body that is not JSON', '{reference', 'request_invalid'],
    ['an unknown field', { reference: 'x', colour: 'blue' }, 'request_invalid'],
  ])('%s: 400 %s', async (_name, body, code) => {
    expectError(await openSession(body), 400, code);
  });

  test('a reference of 200 characters, any script, is accepted', async () => {
    const reference = `${'é'.repeat(190)}日本語テスト文字列`;
    expect([...reference]).toHaveLength(199);
    expect((await openSession({ reference })).status).toBe(200);
  });
});

describe('onboardings and their clients', () => {
  test('GET an open onboarding: every field present, clients empty, times null', async () => {
    const session = await openSession({ reference: `open-${randomUUID()}` });
    const answer = await getJson(`${stack.production}/v1/clients/onboardings/${session.body.id}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      id: session.body.id,
      reference: session.body.reference,
      state: 'open',
      clients: [],
      created_at: session.body.created_at,
      submitted_at: null,
      accepted_at: null,
    });
  });

  test('a submission makes one client per buyer, primary first; a resubmission keeps ids by email', async () => {
    const reference = `family-${randomUUID()}`;
    const session = await openSession({ reference });
    const submitted = await submit(session.body.id, [
      { first_name: 'Maria', last_name: 'Rossi', email: 'maria@example.com', mobile: '+61 400 000 001' },
      { first_name: 'Luca', last_name: 'Rossi', email: 'luca@example.com' },
    ]);
    expect(submitted.code).toBe(0);
    const onboarding = await getJson(`${stack.production}/v1/clients/onboardings/${session.body.id}`);
    expect(onboarding.body).toMatchObject({
      state: 'submitted',
      submitted_at: expect.stringMatching(TIME),
      accepted_at: null,
    });
    const [maria, luca] = onboarding.body.clients;
    expect(maria).toEqual({
      id: expect.stringMatching(/^cli_[A-Za-z0-9]+$/),
      onboarding_id: session.body.id,
      reference,
      primary: true,
      first_name: 'Maria',
      last_name: 'Rossi',
      email: 'maria@example.com',
      mobile: '+61 400 000 001',
      created_at: expect.stringMatching(TIME),
    });
    expect(luca).toMatchObject({ primary: false, mobile: null });
    expect((await getJson(`${stack.production}/v1/clients/${maria.id}`)).body).toEqual(maria);

    const accepted = await ops(stack, 'accept-onboarding', session.body.id);
    expect(accepted.json).toMatchObject({ state: 'accepted', accepted_at: expect.stringMatching(TIME) });

    // Luca again with his email in capitals, Maria left out: Luca keeps his id and becomes primary.
    expect(
      (
        await submit(session.body.id, [
          { first_name: 'Luca', last_name: 'Rossi', email: ' LUCA@example.com ' },
        ])
      ).code,
    ).toBe(0);
    const again = await getJson(`${stack.production}/v1/clients/onboardings/${session.body.id}`);
    expect(again.body.state).toBe('submitted');
    expect(again.body.submitted_at > onboarding.body.submitted_at).toBe(true);
    expect(again.body.clients.map((c: { id: string; primary: boolean }) => [c.id, c.primary])).toEqual([
      [luca.id, true],
    ]);
    expect((await getJson(`${stack.production}/v1/clients/${maria.id}`)).status).toBe(200);
  });

  test('a submission and an acceptance record one client event per buyer', async () => {
    const session = await openSession({ reference: `events-${randomUUID()}` });
    const submitted = await submit(session.body.id, [
      { first_name: 'Ivy', last_name: 'Ng', email: 'ivy@example.com' },
      { first_name: 'Oli', last_name: 'Ng', email: 'oli@example.com' },
    ]);
    expect((await ops(stack, 'accept-onboarding', session.body.id)).code).toBe(0);
    const clients = (submitted.json as { clients: Array<{ id: string; email: string; primary: boolean }> })
      .clients;
    const mine = (await storedEvents(stack, 'production'))
      .map((event) => ({ type: event.type, data: JSON.parse(event.data) }))
      .filter((event) => event.data.onboarding_id === session.body.id);
    const expected = (type: string) =>
      clients.map((c) => ({
        type,
        data: {
          client_id: c.id,
          onboarding_id: session.body.id,
          reference: session.body.reference,
          primary: c.primary,
          first_name: expect.any(String),
          last_name: 'Ng',
          email: c.email,
        },
      }));
    // Events of one instant have no order among themselves.
    const byTypeAndClient = (a: { type: string; data: { client_id: string } }, b: typeof a) =>
      `${a.type}${a.data.client_id}`.localeCompare(`${b.type}${b.data.client_id}`);
    const sortedExpectation = [...expected('clients.submitted'), ...expected('clients.accepted')].sort(
      byTypeAndClient,
    );
    expect(mine.sort(byTypeAndClient)).toEqual(sortedExpectation);
  });

  test('an onboarding or client of another environment or integration: 404 not_found', async () => {
    const session = await openSession({ reference: `iso-${randomUUID()}` });
    const submitted = await submit(session.body.id, [
      { first_name: 'Ana', last_name: 'Silva', email: 'ana@example.com' },
    ]);
    const clientId = (submitted.json as { clients: Array<{ id: string }> }).clients[0]?.id as string;
    const other = await createTenant(stack, 'iso');
    const otherToken = await exchange(stack.production, other.keys.production);
    for (const [url, token] of [
      [`${stack.sandbox}/v1/clients/onboardings/${session.body.id}`, sandbox],
      [`${stack.production}/v1/clients/onboardings/${session.body.id}`, otherToken],
      [`${stack.sandbox}/v1/clients/${clientId}`, sandbox],
      [`${stack.production}/v1/clients/${clientId}`, otherToken],
      [`${stack.production}/v1/clients/onboardings/onb_nothere`, production],
      [`${stack.production}/v1/clients/cli_nothere`, production],
    ] as const) {
      expectError(await getJson(url, token), 404, 'not_found');
    }
  });

  test('accepting an onboarding that was never submitted is refused', async () => {
    const session = await openSession({ reference: `never-${randomUUID()}` });
    const answer = await ops(stack, 'accept-onboarding', session.body.id);
    expect(answer.code).not.toBe(0);
    expect(answer.stderr).toMatch(/not been submitted/);
  });
});

describe('GET /v1/clients', () => {
  let token: string;
  let family: { id: string; reference: string; clients: string[] };
  let allIds: string[];

  beforeAll(async () => {
    const tenant = await createTenant(stack, 'clients');
    token = await exchange(stack.production, tenant.keys.production);
    allIds = [];
    for (let i = 0; i < 3; i++) {
      const reference = `household-${i}`;
      const session = await openSession({ reference }, token);
      const submitted = await submit(session.body.id, [
        { first_name: `First${i}`, last_name: 'Buyer', email: `first${i}@example.com` },
        { first_name: `Second${i}`, last_name: 'Buyer', email: `second${i}@example.com` },
      ]);
      const clients = (submitted.json as { clients: Array<{ id: string }> }).clients.map((c) => c.id);
      allIds.push(...clients);
      family = { id: session.body.id, reference, clients };
    }
  });

  test('newest first over all pages, never repeating or skipping', async () => {
    const seen: string[] = [];
    let url = `${stack.production}/v1/clients?limit=4`;
    for (;;) {
      const page = await getJson(url, token);
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((c: { id: string }) => c.id));
      if (!page.body.has_more) break;
      url = `${stack.production}/v1/clients?limit=4&starting_after=${seen.at(-1)}`;
    }
    expect(new Set(seen).size).toBe(6);
    expect(seen.sort()).toEqual([...allIds].sort());
    const all = await getJson(`${stack.production}/v1/clients`, token);
    const times = all.body.data.map((c: { created_at: string }) => c.created_at);
    expect(times).toEqual([...times].sort().reverse());
  });

  test('onboarding_id or reference selects one sign-up', async () => {
    for (const query of [
      `onboarding_id=${family.id}`,
      `reference=${family.reference}`,
      `onboarding_id=${family.id}&reference=${family.reference}`,
    ]) {
      const answer = await getJson(`${stack.production}/v1/clients?${query}`, token);
      expect(answer.body.data.map((c: { id: string }) => c.id).sort()).toEqual([...family.clients].sort());
      expect(answer.body.has_more).toBe(false);
    }
  });

  test('filters that match nothing: 200 with an empty page', async () => {
    for (const query of [
      'reference=nobody',
      'onboarding_id=onb_nobody',
      `onboarding_id=${family.id}&reference=household-0`,
    ]) {
      const answer = await getJson(`${stack.production}/v1/clients?${query}`, token);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ data: [], has_more: false });
    }
  });

  test.each([
    ['limit=0', 'limit_invalid'],
    ['limit=101', 'limit_invalid'],
    ['limit=-1', 'limit_invalid'],
    ['limit=2.5', 'limit_invalid'],
    ['onboarding_id=xyz', 'filter_invalid'],
    [`reference=${'r'.repeat(201)}`, 'filter_invalid'],
    ['starting_after=cli_nothere', 'starting_after_invalid'],
    ['page=2', 'parameter_unknown'],
  ])('?%s: 400 %s', async (query, code) => {
    expectError(await getJson(`${stack.production}/v1/clients?${query}`, token), 400, code);
  });

  test("starting_after must be in the list: another sign-up's client is refused under a filter", async () => {
    const outsider = allIds.find((id) => !family.clients.includes(id)) as string;
    expectError(
      await getJson(
        `${stack.production}/v1/clients?onboarding_id=${family.id}&starting_after=${outsider}`,
        token,
      ),
      400,
      'starting_after_invalid',
    );
    expectError(
      await getJson(`${stack.production}/v1/clients?starting_after=${outsider}`, production),
      400,
      'starting_after_invalid',
    );
  });
});
