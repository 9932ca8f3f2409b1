// Acceptance of sign-ups over HTTP against the real local stack (decisions.md §7): a sandbox sign-up is
// accepted automatically a minute after each submission (DELAY_SCALE 60 makes it a second here), once,
// even across a restart; a production one waits for the operator.
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bearer, call, exchange } from '../support/api-client';
import { eventually } from '../support/eventually';
import {
  devBootstrap,
  ops,
  type RunningStack,
  removeDataDir,
  startOps,
  startStack,
} from '../support/local-stack';
import { storedEvents } from '../support/pipeline';
import { submitDirectly } from '../support/tenants';
import { startReceiver, verifyEach } from '../support/webhook-receiver';

let stack: RunningStack;
let tokens: { sandbox: string; production: string };

const start = async (dataDir?: string, portBase?: number) => {
  stack = await startStack({ dataDir, portBase, env: { RATE_LIMITS: 'off', DELAY_SCALE: '60' } });
  const keys = (await devBootstrap(stack)).keys;
  tokens = {
    sandbox: await exchange(stack.sandbox, keys.sandbox),
    production: await exchange(stack.production, keys.production),
  };
};

beforeAll(() => start(), 120_000);

afterAll(async () => {
  await stack?.stop();
  await removeDataDir(stack.dataDir);
});

type Environment = 'sandbox' | 'production';

const open = async (environment: Environment) => {
  const answer = await call(`${stack[environment]}/v1/clients/onboardings/sessions`, {
    method: 'POST',
    headers: { ...bearer(tokens[environment]), 'content-type': 'application/json' },
    body: JSON.stringify({ reference: `accept-${randomUUID()}` }),
  });
  expect(answer.status).toBe(200);
  return answer.body.id as string;
};

const submit = async (id: string, emails: string[]) => {
  const file = path.join(stack.dataDir, `buyers-${randomUUID()}.json`);
  await writeFile(
    file,
    JSON.stringify(emails.map((email) => ({ first_name: 'Sam', last_name: 'Lee', email }))),
  );
  const submitted = await ops(stack, 'submit-onboarding', id, '--buyers', file);
  expect(submitted.code).toBe(0);
  return submitted.json as { submitted_at: string; clients: Array<{ id: string }> };
};

const read = async (environment: Environment, id: string) =>
  (await call(`${stack[environment]}/v1/clients/onboardings/${id}`, { headers: bearer(tokens[environment]) }))
    .body;

const acceptedEvents = async (environment: Environment, id: string) =>
  (await storedEvents(stack, environment)).filter(
    (event) => event.type === 'clients.accepted' && JSON.parse(event.data).onboarding_id === id,
  );

test('a sandbox sign-up is accepted a minute after it was submitted, once, with one clients.accepted per buyer', async () => {
  const sandboxId = await open('sandbox');
  const productionId = await open('production');
  const submitted = await submit(sandboxId, ['a@example.com', 'b@example.com']);
  await submit(productionId, ['c@example.com']);

  await eventually(
    () => read('sandbox', sandboxId),
    (onboarding) => onboarding.state === 'accepted',
  );
  const accepted = await read('sandbox', sandboxId);
  // A minute (a second here) after the submission, not before.
  expect(Date.parse(accepted.accepted_at) - Date.parse(submitted.submitted_at)).toBeGreaterThanOrEqual(1000);
  const events = await acceptedEvents('sandbox', sandboxId);
  expect(events.map((e) => JSON.parse(e.data).client_id).sort()).toEqual(
    submitted.clients.map((c) => c.id).sort(),
  );

  // Production waits for the operator, however long the sandbox one took.
  expect((await read('production', productionId)).state).toBe('submitted');
  expect(await acceptedEvents('production', productionId)).toEqual([]);
  expect((await ops(stack, 'accept-onboarding', productionId)).code).toBe(0);
  expect((await read('production', productionId)).state).toBe('accepted');

  // Accepting either again is refused and changes nothing: no new time, no second clients.accepted.
  for (const [environment, id] of [
    ['sandbox', sandboxId],
    ['production', productionId],
  ] as const) {
    const before = await read(environment, id);
    const eventsBefore = await acceptedEvents(environment, id);
    const again = await ops(stack, 'accept-onboarding', id);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^ops: onb_\w+ was accepted already, at \d{4}-/);
    expect(await read(environment, id)).toEqual(before);
    expect(await acceptedEvents(environment, id)).toEqual(eventsBefore);
  }
});

test('submitted again before the minute is up: the latest submission is the one accepted, once', async () => {
  const id = await open('sandbox');
  // Both through the core, moments apart (the operator tool takes longer than the scaled minute).
  const buyer = (email: string) => ({ firstName: 'Sam', lastName: 'Lee', email, mobile: null });
  await submitDirectly(stack, 'sandbox', id, [buyer('d@example.com')]);
  const resubmitted = await submitDirectly(stack, 'sandbox', id, [
    buyer('d@example.com'),
    buyer('e@example.com'),
  ]);
  const second = {
    submitted_at: (await read('sandbox', id)).submitted_at as string,
    clients: resubmitted.clientIds.map((clientId) => ({ id: clientId })),
  };
  await eventually(
    () => read('sandbox', id),
    (onboarding) => onboarding.state === 'accepted',
  );
  const accepted = await read('sandbox', id);
  expect(accepted.submitted_at).toBe(second.submitted_at);
  expect(Date.parse(accepted.accepted_at) - Date.parse(second.submitted_at)).toBeGreaterThanOrEqual(1000);
  // One acceptance of the two buyers of the latest submission, not one per submission.
  const events = await acceptedEvents('sandbox', id);
  expect(events.map((e) => JSON.parse(e.data).client_id).sort()).toEqual(
    second.clients.map((c) => c.id).sort(),
  );
});

test('an acceptance due while the stack is stopped happens once after it starts again', async () => {
  const id = await open('sandbox');
  const submitted = await submit(id, ['f@example.com']);
  const { dataDir, portBase } = stack;
  expect(await stack.stop()).toBe(0);
  await start(dataDir, portBase);
  await eventually(
    () => read('sandbox', id),
    (onboarding) => onboarding.state === 'accepted',
  );
  const events = await acceptedEvents('sandbox', id);
  expect(events.map((e) => JSON.parse(e.data).client_id)).toEqual(submitted.clients.map((c) => c.id));
}, 180_000);

test('ops listen delivers every event of the environment, signed, to a local address until Ctrl-C, then removes its endpoint', async () => {
  const receiver = await startReceiver();
  const listening = startOps(
    stack,
    'listen',
    '--environment',
    'sandbox',
    '--forward-to',
    `${receiver.origin}/hooks`,
  );
  try {
    const [first] = await eventually(
      async () => listening.lines(),
      (lines) => lines.length > 0,
      { what: 'ops listen to start' },
    );
    expect(first).toMatchObject({
      listening: true,
      environment: 'sandbox',
      endpoint_id: expect.stringMatching(/^whe_/),
    });
    const secret = String(first?.secret);

    const id = await open('sandbox');
    await submit(id, ['listen@example.com']);

    const requests = await receiver.waitFor(2, (request) => request.body.includes(id), 90_000);
    const types = verifyEach(requests, [secret]).map((envelope) => envelope.type);
    expect(types.sort()).toEqual(['clients.accepted', 'clients.submitted']);
    await eventually(
      async () =>
        listening
          .lines()
          .filter((line) => line.state === 'delivered')
          .map((line) => line.type),
      (delivered) => delivered.includes('clients.submitted') && delivered.includes('clients.accepted'),
      { what: 'ops listen to print both deliveries' },
    );

    expect(await listening.interrupt()).toBe(0);
    expect(listening.lines().at(-1)).toMatchObject({
      listening: false,
      deleted: true,
      endpoint_id: first?.endpoint_id,
    });
    const endpoints = await ops(stack, 'webhook-endpoint-list', '--environment', 'sandbox');
    const listed = (endpoints.json ?? { data: [] }).data as Array<{ id: string }>;
    expect(listed.map((e) => e.id)).not.toContain(first?.endpoint_id);
  } finally {
    await listening.interrupt();
    await receiver.close();
  }
});

test('ops trigger makes real events happen: a sample sign-up accepted, the sample contract reviewed by the lawyer', async () => {
  const accepted = await ops(stack, 'trigger', 'clients.accepted', '--environment', 'production');
  expect(accepted.code).toBe(0);
  const onboardingId = String(accepted.json?.onboarding_id);
  expect((await read('production', onboardingId)).state).toBe('accepted');
  expect(await acceptedEvents('production', onboardingId)).toHaveLength(1);

  const reviewed = await ops(stack, 'trigger', 'contract-reviews.lawyer_review.completed');
  expect(reviewed.code).toBe(0);
  const reviewId = String(reviewed.json?.contract_review_id);
  const types = (await storedEvents(stack, 'sandbox'))
    .filter(
      (event) =>
        (JSON.parse(event.data) as { contract_review?: { id: string } }).contract_review?.id === reviewId,
    )
    .map((event) => event.type);
  expect(types).toEqual(
    expect.arrayContaining([
      'contract-reviews.analysis.completed',
      'contract-reviews.lawyer_review.requested',
      'contract-reviews.lawyer_review.completed',
    ]),
  );

  const refused = await ops(stack, 'trigger', 'contract-reviews.processing.failed');
  expect({ code: refused.code, stderr: refused.stderr.trim() }).toEqual({
    code: 1,
    stderr:
      'ops: contract-reviews.processing.failed happens only when a PDF fails inside the pipeline; no sample makes it at will',
  });
  expect((await ops(stack, 'trigger', 'clients.finished')).stderr).toMatch(
    /^ops: trigger one of .*clients\.accepted/,
  );
});
