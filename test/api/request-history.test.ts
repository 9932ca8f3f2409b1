// decisions.md §10 request history, over HTTP against the local stack (rate limits on): every call to a
// `/v1` path with an accepted API key or access token is recorded whatever its answer (2xx, 4xx with 404,
// 405 and 429), with its request id, time, method, path without the query string, status and duration;
// refused credentials, calls without one, the frame's calls and `/onboarding.js` are not; no body is
// stored and every record expires 30 days on; the list pages and filters; a restart keeps it all.
import { randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb';
import { keys } from '../../lambdas/adapters/dynamodb/keys';
import { getItem } from '../../lambdas/adapters/dynamodb/table';
import { localTableName, TTL_ATTRIBUTE } from '../../lambdas/adapters/dynamodb/table-schema';
import { ENVIRONMENTS, type Environment } from '../../lambdas/core/model';
import type { Ports } from '../../lambdas/core/ports';
import { type ApiRequestJson, listApiRequests } from '../../lambdas/core/request-history/list';
import { readApiRequestQuery } from '../../lambdas/core/request-history/query';
import { type Answer, bearer, call, exchange, sendUntilLimited } from '../support/api-client';
import { eventually } from '../support/eventually';
import { frameRequest } from '../support/frame-client';
import {
  devBootstrap,
  makeDataDir,
  ops,
  type RunningStack,
  removeDataDir,
  startStack,
} from '../support/local-stack';
import { createTenant, portsOf, revokeKey } from '../support/tenants';

let dataDir: string;
let stack: RunningStack;
let ports: Record<Environment, Ports>;
let dynamo: DynamoDBDocumentClient;

const connect = async () => {
  ports = await portsOf(stack);
  dynamo = createDocumentClient(`http://127.0.0.1:${stack.portBase + 10}`);
};

beforeAll(async () => {
  dataDir = await makeDataDir();
  stack = await startStack({ dataDir });
  await connect();
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await removeDataDir(dataDir);
});

const DAY_SECONDS = 24 * 3600;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

type Pairs = Array<[string, string]>;

/** One page of an integration's history, as the portal and the MCP tool will list it. */
const page = (environment: Environment, integrationId: string, pairs: Pairs = []) =>
  listApiRequests(ports[environment], { environment, integrationId }, readApiRequestQuery(pairs));

/** The whole of an integration's history, newest first, paged 100 at a time. */
const everything = async (environment: Environment, integrationId: string): Promise<ApiRequestJson[]> => {
  const records: ApiRequestJson[] = [];
  for (;;) {
    const last = records.at(-1);
    const next = await page(environment, integrationId, [
      ['limit', '100'],
      ...(last ? ([['starting_after', last.id]] as Pairs) : []),
    ]);
    records.push(...next.data);
    if (!next.has_more) return records;
  }
};

/** Waits until every one of `ids` is in the history (records are written just after their answers). */
const untilRecorded = (environment: Environment, integrationId: string, ids: readonly string[]) =>
  eventually(
    () => everything(environment, integrationId),
    (records) => ids.every((id) => records.some((r) => r.id === id)),
    { what: `${ids.length} calls recorded` },
  );

const requestId = (answer: Answer): string => {
  const id = answer.headers.get('service-request-id');
  if (!id) throw new Error(`no Service-Request-Id on a ${answer.status}`);
  return id;
};

/** The stored item of a record, as DynamoDB holds it. */
const storedItem = (environment: Environment, id: string) =>
  getItem(dynamo, localTableName(environment), keys.apiRequest(id));

/** Whether any environment's history holds a record of `id`. */
const recordedAnywhere = async (id: string) => {
  for (const environment of ENVIRONMENTS)
    if ((await ports[environment].apiRequests.get(id)) !== null) return true;
  return false;
};

test('accepted calls are recorded whatever their answer: time, method, path without the query, status, duration', async () => {
  const tenant = await createTenant(stack, 'history');
  const api = stack.sandbox;
  const started = Date.now();
  const exchanged = await call(`${api}/v1/token`, { method: 'POST', headers: bearer(tenant.keys.sandbox) });
  const token = exchanged.body.access_token as string;
  const calls: Array<[Answer, string, string, number]> = [];
  const made = async (method: string, path: string, status: number, init: RequestInit = {}) => {
    const answer = await call(`${api}${path}`, {
      method,
      ...init,
      headers: { ...bearer(token), ...init.headers },
    });
    expect(answer.status).toBe(status);
    calls.push([answer, method, path.split('?')[0] as string, status]);
  };
  calls.push([exchanged, 'POST', '/v1/token', 200]);
  await made('GET', '/v1/contract-reviews?limit=5&external_reference=abc', 200);
  await made('POST', '/v1/clients/onboardings/sessions', 200, {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ reference: `history-${randomUUID()}` }),
  });
  await made('GET', '/v1/contract-reviews/crv_unknown0', 404);
  await made('GET', '/v1/nothing/here?x=1', 404);
  await made('DELETE', '/v1/clients', 405);
  await made('GET', '/v1/clients?limit=0', 400);
  const finished = Date.now();

  const ids = calls.map(([answer]) => requestId(answer));
  const records = await untilRecorded('sandbox', tenant.integrationId, ids);
  expect(
    records.map(({ id, method, path, status, environment, integration_id }) => ({
      id,
      method,
      path,
      status,
      environment,
      integration_id,
    })),
  ).toEqual(
    calls
      .map(([answer, method, path, status]) => ({
        id: requestId(answer),
        method,
        path,
        status,
        environment: 'sandbox',
        integration_id: tenant.integrationId,
      }))
      .reverse(),
  );
  for (const record of records) {
    expect(record.time).toMatch(TIME);
    const at = Date.parse(record.time);
    expect(at).toBeGreaterThanOrEqual(started - 1);
    expect(at).toBeLessThanOrEqual(finished + 1);
    expect(Number.isInteger(record.duration_ms) && record.duration_ms >= 0).toBe(true);
    expect(record.duration_ms).toBeLessThanOrEqual(finished - started + 1);
  }
  // Production keeps its own history: nothing of these calls.
  expect(await everything('production', tenant.integrationId)).toEqual([]);
}, 120_000);

test('a 429 with an accepted credential is recorded: over the token rate of a key, over the integration rate', async () => {
  const tenant = await createTenant(stack, 'limited');
  const { answers: exchanges } = await sendUntilLimited(() =>
    call(`${stack.sandbox}/v1/token`, { method: 'POST', headers: bearer(tenant.keys.sandbox) }),
  );
  expect(exchanges.at(-1)?.status).toBe(429);
  expect(exchanges.slice(0, -1).every((a) => a.status === 200)).toBe(true);
  const token = exchanges[0]?.body.access_token as string;
  // Floods of 200 until one is refused (a loaded machine may answer one no faster than the rate refills).
  const flood: Answer[] = [];
  for (let round = 0; round < 10 && !flood.some((a) => a.status === 429); round++)
    flood.push(
      ...(await Promise.all(
        Array.from({ length: 200 }, () =>
          call(`${stack.sandbox}/v1/contract-reviews`, { headers: bearer(token) }),
        ),
      )),
    );
  expect(flood.filter((a) => a.status === 429).length).toBeGreaterThan(0);

  const answers = [...exchanges, ...flood];
  const records = await untilRecorded('sandbox', tenant.integrationId, answers.map(requestId));
  const statusOf = new Map(records.map((r) => [r.id, r.status]));
  expect(answers.map((a) => statusOf.get(requestId(a)))).toEqual(answers.map((a) => a.status));
  expect(records).toHaveLength(answers.length);
  expect(records.filter((r) => r.status === 429 && r.path === '/v1/token')).toHaveLength(1);
}, 120_000);

test('refused credentials, calls without one, calls outside /v1, the frame and /onboarding.js are not recorded', async () => {
  const tenant = await createTenant(stack, 'refused');
  const other = await createTenant(stack, 'revoked');
  const api = stack.sandbox;
  const exchanged = await call(`${api}/v1/token`, { method: 'POST', headers: bearer(tenant.keys.sandbox) });
  const token = exchanged.body.access_token as string;
  const productionToken = await exchange(stack.production, tenant.keys.production);
  await revokeKey(stack, 'sandbox', other.keys.sandbox);
  const session = await call(`${api}/v1/clients/onboardings/sessions`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({ reference: `refused-${randomUUID()}` }),
  });
  expect(session.status).toBe(200);

  const unrecorded: Array<[Answer, number]> = [
    [await call(`${api}/v1/clients`), 401],
    [await call(`${api}/v1/clients`, { headers: bearer('not-a-token') }), 401],
    [await call(`${api}/v1/clients`, { headers: bearer(`${token.slice(0, -4)}AAAA`) }), 401],
    [await call(`${api}/v1/clients`, { headers: bearer(tenant.keys.sandbox) }), 401],
    [await call(`${api}/v1/clients`, { headers: bearer(productionToken) }), 401],
    [await call(`${api}/v1/token`, { method: 'POST', headers: bearer(`svc_test_${'x'.repeat(40)}`) }), 401],
    [await call(`${api}/v1/token`, { method: 'POST', headers: bearer(tenant.keys.production) }), 401],
    [await call(`${api}/v1/token`, { method: 'POST', headers: bearer(other.keys.sandbox) }), 401],
    [await call(`${api}/v1/token`, { method: 'POST', headers: bearer(token) }), 401],
    [await call(`${api}/v1/nothing`), 404],
    [await call(`${api}/v1/nothing`, { headers: bearer('not-a-token') }), 404],
    [await call(`${api}/nothing`, { headers: bearer(token) }), 404],
    [await call(`${api}/v1x`, { headers: bearer(token) }), 404],
    [await call(`${api}/onboarding.js`, { headers: bearer(token) }), 200],
    // The frame's API as its own page calls it (same-origin), with the session token and with an access token.
    [
      await frameRequest(`${stack.frame.sandbox}/api/form`, 'GET', {
        token: session.body.session_token,
        browser: null,
      }),
      200,
    ],
    [await frameRequest(`${stack.frame.sandbox}/api/form`, 'GET', { token, browser: null }), 401],
    [await call(`${stack.frame.sandbox}/v1/clients`, { headers: bearer(token) }), 404],
  ];
  expect(unrecorded.map(([answer]) => answer.status)).toEqual(unrecorded.map(([, status]) => status));
  // A call that is recorded, made after all of them: the recorder starts its writes in the order it was
  // given the records, so any of theirs would be in this one's batch or in one started before it. Once this
  // one is in, theirs would be too (but for an earlier batch outlasting a later one): no fixed wait.
  const marker = await call(`${api}/v1/clients`, { headers: bearer(token) });
  expect(marker.status).toBe(200);
  const records = await untilRecorded('sandbox', tenant.integrationId, [requestId(marker)]);

  expect(records.map((r) => r.id)).toEqual([requestId(marker), requestId(session), requestId(exchanged)]);
  // Each carries its id but the frame's answer to a path it does not serve (the last): none of those ids
  // is in any history.
  const unrecordedIds = unrecorded.flatMap(([answer]) => answer.headers.get('service-request-id') ?? []);
  expect(unrecordedIds).toHaveLength(unrecorded.length - 1);
  for (const id of unrecordedIds) expect([id, await recordedAnywhere(id)]).toEqual([id, false]);
  expect(await everything('sandbox', other.integrationId)).toEqual([]);
  // The production token's own exchange is the production history's only record.
  expect((await everything('production', tenant.integrationId)).map((r) => r.path)).toEqual(['/v1/token']);
}, 120_000);

test('the stored item holds the record and nothing of the request or answer bodies, and expires 30 days on', async () => {
  const tenant = await createTenant(stack, 'bodies');
  const token = await exchange(stack.sandbox, tenant.keys.sandbox);
  const reference = `secret-body-${randomUUID()}`;
  const answer = await call(`${stack.sandbox}/v1/clients/onboardings/sessions`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({ reference }),
  });
  expect(answer.status).toBe(200);
  const id = requestId(answer);
  await untilRecorded('sandbox', tenant.integrationId, [id]);
  const item = await storedItem('sandbox', id);
  expect(Object.keys(item ?? {}).sort()).toEqual(
    [
      'pk',
      'sk',
      'gsi1pk',
      'gsi1sk',
      'type',
      'id',
      'time',
      'method',
      'path',
      'status',
      'duration_ms',
      'environment',
      'integration_id',
      TTL_ATTRIBUTE,
    ].sort(),
  );
  const text = JSON.stringify(item);
  for (const secret of [
    reference,
    answer.body.session_token as string,
    answer.body.id as string,
    token,
    tenant.keys.sandbox,
  ])
    expect(text).not.toContain(secret);
  const expiresAt = item?.[TTL_ATTRIBUTE] as number;
  expect(expiresAt).toBe(Math.floor((item?.time as number) / 1e6) + 30 * DAY_SECONDS);
  const inThirtyDays = Date.now() / 1000 + 30 * DAY_SECONDS;
  expect(Math.abs(expiresAt - inThirtyDays)).toBeLessThan(600);
}, 120_000);

test('the list pages by starting_after and filters by status, method, path prefix and time window', async () => {
  const tenant = await createTenant(stack, 'paging');
  const api = stack.sandbox;
  const exchanged = await call(`${api}/v1/token`, { method: 'POST', headers: bearer(tenant.keys.sandbox) });
  const token = exchanged.body.access_token as string;
  const get = (path: string) => call(`${api}${path}`, { headers: bearer(token) });
  const answers: Answer[] = [exchanged];
  for (let i = 0; i < 4; i++) answers.push(await get('/v1/clients'));
  for (let i = 0; i < 3; i++) answers.push(await get(`/v1/contract-reviews/crv_missing${i}`));
  for (let i = 0; i < 2; i++)
    answers.push(
      await call(`${api}/v1/clients/onboardings/sessions`, {
        method: 'POST',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        body: JSON.stringify({ reference: `paging-${i}-${randomUUID()}` }),
      }),
    );
  answers.push(await get('/v1/clients?limit=abc'));
  const all = await untilRecorded('sandbox', tenant.integrationId, answers.map(requestId));
  expect(all.map((r) => r.id)).toEqual(answers.map(requestId).reverse());

  // Pages of 4: the same records, in the same order, no repeats, has_more until the last.
  const pages: Array<{ ids: string[]; has_more: boolean }> = [];
  let after: string | undefined;
  do {
    const next = await page('sandbox', tenant.integrationId, [
      ['limit', '4'],
      ...(after ? ([['starting_after', after]] as Pairs) : []),
    ]);
    pages.push({ ids: next.data.map((r) => r.id), has_more: next.has_more });
    after = next.has_more ? next.data.at(-1)?.id : undefined;
  } while (after);
  expect(pages.map((p) => p.has_more)).toEqual([true, true, false]);
  expect(pages.flatMap((p) => p.ids)).toEqual(all.map((r) => r.id));

  const idsOf = async (...pairs: Pairs) =>
    (await page('sandbox', tenant.integrationId, pairs)).data.map((r) => r.id);
  const where = (keep: (r: ApiRequestJson) => boolean) => all.filter(keep).map((r) => r.id);
  expect(await idsOf(['status', '4xx'])).toEqual(where((r) => r.status >= 400 && r.status < 500));
  expect(await idsOf(['status', '404'])).toHaveLength(3);
  expect(await idsOf(['status', '404'])).toEqual(where((r) => r.status === 404));
  expect(await idsOf(['status', '2xx'])).toEqual(where((r) => r.status === 200));
  expect(await idsOf(['status', '5xx'])).toEqual([]);
  expect(await idsOf(['method', 'POST'])).toEqual(where((r) => r.method === 'POST'));
  expect(await idsOf(['method', 'POST'])).toHaveLength(3);
  expect(await idsOf(['path_prefix', '/v1/contract-reviews/'])).toEqual(
    where((r) => r.path.startsWith('/v1/contract-reviews/')),
  );
  expect(await idsOf(['path_prefix', '/v1/clients'], ['method', 'GET'], ['status', '2xx'])).toHaveLength(4);
  const middle = all[5] as ApiRequestJson;
  expect(await idsOf(['since', middle.time])).toEqual(all.slice(0, 6).map((r) => r.id));
  expect(await idsOf(['until', middle.time])).toEqual(all.slice(6).map((r) => r.id));
  expect(await idsOf(['since', middle.time], ['until', (all[2] as ApiRequestJson).time])).toEqual(
    all.slice(3, 6).map((r) => r.id),
  );
  const filteredPage = await page('sandbox', tenant.integrationId, [
    ['status', '404'],
    ['limit', '2'],
  ]);
  expect(filteredPage.has_more).toBe(true);
  const filteredRest = await page('sandbox', tenant.integrationId, [
    ['status', '404'],
    ['starting_after', filteredPage.data[1]?.id as string],
  ]);
  expect([...filteredPage.data, ...filteredRest.data].map((r) => r.id)).toEqual(
    where((r) => r.status === 404),
  );
  expect(filteredRest.has_more).toBe(false);
}, 120_000);

test('ops request-history prints the list, by default of the dev-bootstrap integration, and refuses bad filters', async () => {
  const bootstrap = await devBootstrap(stack);
  const exchanged = await call(`${stack.production}/v1/token`, {
    method: 'POST',
    headers: bearer(bootstrap.keys.production),
  });
  const token = exchanged.body.access_token as string;
  const missing = await call(`${stack.production}/v1/clients/cli_missing`, { headers: bearer(token) });
  expect(missing.status).toBe(404);
  await untilRecorded('production', bootstrap.integration_id, [requestId(missing)]);

  const listed = await ops(
    stack,
    'request-history',
    '--environment',
    'production',
    '--status',
    '404',
    '--limit',
    '1',
  );
  expect(listed.code).toBe(0);
  expect(listed.json).toEqual({
    data: [
      {
        id: requestId(missing),
        time: expect.stringMatching(TIME),
        method: 'GET',
        path: '/v1/clients/cli_missing',
        status: 404,
        duration_ms: expect.any(Number),
        environment: 'production',
        integration_id: bootstrap.integration_id,
      },
    ],
    has_more: false,
  });
  const byPath = await ops(
    stack,
    'request-history',
    '--environment',
    'production',
    '--integration',
    bootstrap.integration_id,
    '--path-prefix',
    '/v1/token',
    '--method',
    'post',
  );
  expect(byPath.code).toBe(0);
  expect(((byPath.json?.data ?? []) as ApiRequestJson[]).map((r) => r.id)).toContain(requestId(exchanged));
  const refused = await ops(stack, 'request-history', '--environment', 'production', '--status', '3xx');
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/filter_invalid/);
  const unknown = await ops(
    stack,
    'request-history',
    '--environment',
    'production',
    '--integration',
    'int_nobody',
  );
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toMatch(/no integration int_nobody/);
}, 120_000);

test('a stop and start on the same DATA_DIR keeps the history, the calls answered just before the stop included', async () => {
  const tenant = await createTenant(stack, 'restart');
  const exchanged = await call(`${stack.sandbox}/v1/token`, {
    method: 'POST',
    headers: bearer(tenant.keys.sandbox),
  });
  const token = exchanged.body.access_token as string;
  // Answered and at once stopped: their records may still be held, to be written as the stack stops.
  const last = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      call(`${stack.sandbox}/v1/contract-reviews/crv_gone${i}`, { headers: bearer(token) }),
    ),
  );
  expect(await stack.stop()).toBe(0);
  stack = await startStack({ dataDir, portBase: stack.portBase });
  await connect();

  const after = await everything('sandbox', tenant.integrationId);
  expect(after.map((r) => r.id).sort()).toEqual([exchanged, ...last].map(requestId).sort());
  expect(after.filter((r) => r.status === 404)).toHaveLength(30);
}, 180_000);
