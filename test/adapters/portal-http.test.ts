// adapters -> the portal's backend in process (its Hono app behind `portalFetch`, as both adapters serve
// it), over DynamoDB Local, no stack started: who may call each route (no session: 401; a change without
// the session's CSRF token or from another origin: 403), unknown paths and methods under `/api/` answered
// as the API answers them (404 `not_found`, 405 `method_not_allowed` with `Allow`, HEAD included, a path
// parameter that is no id or environment: 404), a route reaching the core (and another organisation's
// integration as unknown as a made-up one), the pages' answers, and a body over the portal's limit.
import { createHash, randomBytes } from 'node:crypto';
import { composeDirectory } from '../../lambdas/adapters/compose';
import { DynamoDbClientGrants } from '../../lambdas/adapters/dynamodb/oidc-provider-storage';
import { DynamoDbPortalSessionStore } from '../../lambdas/adapters/dynamodb/portal-session-store';
import { systemClock } from '../../lambdas/adapters/system-clock';
import { ENVIRONMENTS } from '../../lambdas/core/model';
import { PORTAL_ROUTES } from '../../lambdas/portal/api-routes';
import { portalApp } from '../../lambdas/portal/app';
import { MAX_BODY_BYTES, portalFetch } from '../../lambdas/portal/http';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { SECOND } from '../support/fixtures';
import { tableOnlyServices } from '../support/table-services';

const db = useTestDynamoDb();

const ORIGIN = 'http://127.0.0.1:3006';
const PAGE = '<!doctype html><title>Portal</title>';

interface Caller {
  cookie?: string;
  csrf?: string;
}

const setUp = async () => {
  const clock = systemClock();
  const identityTable = await db.freshTable();
  const directory = composeDirectory(db.doc, identityTable);
  const sandbox = tableOnlyServices(db.doc, await db.freshTable(), 'sandbox', {});
  const production = tableOnlyServices(db.doc, await db.freshTable(), 'production', {});
  const sessions = new DynamoDbPortalSessionStore(db.doc, identityTable, clock);
  const app = portalApp({
    origin: ORIGIN,
    cookies: { secure: false },
    core: {
      directory,
      environments: { sandbox, production },
      grants: new DynamoDbClientGrants(db.doc, identityTable, clock),
      portalClientId: 'portal',
      frameUrls: { sandbox: 'https://frame.sandbox.example', production: 'https://frame.example' },
    },
    sessions,
    signIn: {} as never, // no test here signs in through the provider (test/browser/portal.test.ts does)
    clock,
    files: new Map([
      [
        '/index.html',
        {
          body: new TextEncoder().encode(PAGE),
          contentType: 'text/html; charset=utf-8',
          cacheControl: 'no-cache',
          etag: '"page"',
        },
      ],
    ]),
  });
  const serve = portalFetch(async () => app);

  /** A person with a session (written as a sign-in would write it). */
  const signIn = async (email: string): Promise<Caller & { personId: string }> => {
    const person = { id: directory.ids.id('per'), email, passwordHash: 'unused', createdAt: clock.now() };
    await directory.people.create({ ...person, organisationId: null });
    const value = randomBytes(32).toString('base64url');
    const csrf = randomBytes(32).toString('base64url');
    const now = clock.now();
    await sessions.putSession({
      id: createHash('sha256').update(value).digest('base64url'),
      personId: person.id,
      email,
      csrfToken: csrf,
      createdAt: now,
      expiresAt: now + 3600 * SECOND,
    });
    return { cookie: `portal_session=${value}`, csrf, personId: person.id };
  };

  const send = (
    method: string,
    path: string,
    caller: Caller = {},
    {
      body,
      origin = ORIGIN,
      type = 'application/json',
    }: { body?: string; origin?: string; type?: string | null } = {},
  ): Promise<Response> =>
    serve(
      new Request(`${ORIGIN}${path}`, {
        method,
        headers: {
          ...(caller.cookie && { cookie: caller.cookie }),
          ...(caller.csrf && { 'x-csrf-token': caller.csrf }),
          ...(body !== undefined && type !== null && { 'content-type': type }),
          origin,
        },
        ...(body !== undefined && { body }),
      }),
    );
  return { app, send, signIn };
};

const errorOf = async (answer: Response) => {
  expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(answer.headers.get('service-request-id')).toMatch(/^rqs_/);
  expect(answer.headers.get('cache-control')).toBe('no-store');
  const { error } = (await answer.json()) as { error: { code: string; message: string } };
  return [answer.status, error.code];
};

/** A route's path with each parameter filled in: the environment, every id `id`. */
const filled = (path: string, id: string): string =>
  path.replace(/:environment\{[^/]+\}/, 'sandbox').replaceAll(/:\w+\{[^/]+\}/g, id);

describe('who may call each route', () => {
  test('without a session every route answers 401 authentication_required; the session route answers anyone', async () => {
    const { send } = await setUp();
    for (const route of [...PORTAL_ROUTES, { method: 'POST', path: '/api/sign-out' }]) {
      const path = filled(route.path, 'int_1');
      const answer = await send(route.method, path);
      expect([route.method, path, ...(await errorOf(answer))]).toEqual([
        route.method,
        path,
        401,
        'authentication_required',
      ]);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer');
    }
    const session = await send('GET', '/api/session');
    expect(await session.json()).toEqual({ signed_in: false, email: null, csrf_token: null });
  });

  test('every change needs the session’s CSRF token, and comes from the portal’s own origin', async () => {
    const { send, signIn } = await setUp();
    const alice = await signIn('alice@example.com');
    const changes = [...PORTAL_ROUTES, { method: 'POST', path: '/api/sign-out' }].filter(
      (route) => route.method !== 'GET',
    );
    expect(changes.length).toBeGreaterThan(10);
    for (const change of changes) {
      const path = filled(change.path, 'int_1');
      const answer = await send(change.method, path, { cookie: alice.cookie }, { body: '{}' });
      expect([path, ...(await errorOf(answer))]).toEqual([path, 403, 'csrf_invalid']);
    }
    const elsewhere = await send('POST', '/api/organisation', alice, {
      body: '{"name":"Harbour"}',
      origin: 'http://evil.example',
    });
    expect(await errorOf(elsewhere)).toEqual([403, 'csrf_invalid']);
    const created = await send('POST', '/api/organisation', alice, { body: '{"name":"Harbour"}' });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ name: 'Harbour' });
  });

  test('a route reaches the core; another organisation’s integration is as unknown as a made-up one', async () => {
    const { send, signIn } = await setUp();
    const alice = await signIn('alice@example.com');
    const bob = await signIn('bob@example.com');
    for (const caller of [alice, bob])
      expect((await send('POST', '/api/organisation', caller, { body: '{"name":"Org"}' })).status).toBe(201);
    const integration = (await (
      await send('POST', '/api/integrations', alice, { body: '{"name":"App"}' })
    ).json()) as { id: string };
    for (const environment of ENVIRONMENTS) {
      const path = `/api/${environment}/integrations/${integration.id}/api-keys`;
      const own = await send('GET', path, alice);
      expect([own.status, await own.json()]).toEqual([200, { data: [] }]);
      expect(await errorOf(await send('GET', path, bob))).toEqual([404, 'not_found']);
    }
    expect(await errorOf(await send('GET', '/api/sandbox/integrations/int_none/api-keys', alice))).toEqual([
      404,
      'not_found',
    ]);
  });
});

describe('paths and methods no route answers', () => {
  test.each([
    ['GET', '/api/nothing-here'],
    ['GET', '/api'],
    ['GET', '/api/integrations/'],
    ['GET', '/api/staging/integrations/int_1/api-keys'],
    ['GET', `/api/sandbox/integrations/${'i'.repeat(101)}/api-keys`],
    ['GET', '/api/sandbox/integrations/int%2F1/api-keys'],
    ['DELETE', '/api/sandbox/webhook-endpoints/whe_1/nothing'],
  ])('%s %s: 404 not_found', async (method, path) => {
    const { send, signIn } = await setUp();
    expect(await errorOf(await send(method, path, await signIn('alice@example.com')))).toEqual([
      404,
      'not_found',
    ]);
  });

  test.each([
    ['PUT', '/api/integrations', 'GET, POST'],
    ['HEAD', '/api/integrations', 'GET, POST'],
    ['POST', '/api/sandbox/webhook-endpoints/whe_1', 'GET, PATCH, DELETE'],
    ['GET', '/api/sandbox/api-keys/key_1/revoke', 'POST'],
    ['GET', '/api/sign-out', 'POST'],
    ['DELETE', '/api/session', 'GET'],
  ])('%s %s: 405 method_not_allowed with Allow %s', async (method, path, allow) => {
    const { send, signIn } = await setUp();
    const answer = await send(method, path, await signIn('alice@example.com'));
    expect([answer.status, answer.headers.get('allow')]).toEqual([405, allow]);
    if (method !== 'HEAD') expect(await errorOf(answer)).toEqual([405, 'method_not_allowed']);
  });
});

describe('pages and bodies', () => {
  test('a page path answers the one page; a change to a page is 405; a body over the limit is 413', async () => {
    const { send, signIn } = await setUp();
    const page = await send('GET', '/sandbox/integrations/int_1');
    expect([page.status, await page.text(), page.headers.get('etag')]).toEqual([200, PAGE, '"page"']);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const post = await send('POST', '/integrations');
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    const alice = await signIn('alice@example.com');
    const tooLarge = await send('POST', '/api/organisation', alice, {
      body: JSON.stringify({ name: 'x'.repeat(MAX_BODY_BYTES) }),
    });
    expect(tooLarge.status).toBe(413);
    expect(((await tooLarge.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });

  test('a change’s body is declared as JSON; an empty change needs no type', async () => {
    const { send, signIn } = await setUp();
    const alice = await signIn('alice@example.com');
    const body = '{"name":"Harbour"}';
    for (const type of ['text/plain', null])
      expect([
        type,
        ...(await errorOf(await send('POST', '/api/organisation', alice, { body, type }))),
      ]).toEqual([type, 400, 'request_invalid']);
    expect(
      (await send('POST', '/api/organisation', alice, { body, type: 'application/json; charset=utf-8' }))
        .status,
    ).toBe(201);
    const key = (await (
      await send('POST', '/api/integrations', alice, { body: '{"name":"App"}' })
    ).json()) as { id: string };
    const keys = `/api/sandbox/integrations/${key.id}/api-keys`;
    expect((await send('POST', keys, alice, { body: '', type: null })).status).toBe(201);
  });
});
