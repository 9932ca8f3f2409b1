// adapters -> the MCP server's HTTP face (lambdas/mcp/http.ts) in process, no stack started, its tokens
// signed with a real key and checked against the identity provider's real grants in DynamoDB Local: who
// may call each of its routes (the metadata: anyone; `/mcp`, with any method: only its own origin with an
// accepted access token, else 401 with the challenge or 403), and every other method and path answered as
// the API answers them (405 `method_not_allowed` with `Allow`, 404 `not_found`), each with a
// `Service-Request-Id`.
import { createLocalJWKSet, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { composeDirectory } from '../../lambdas/adapters/compose';
import { oidcLiveGrants } from '../../lambdas/adapters/dynamodb/oidc-live-grants';
import { oidcProviderStorage } from '../../lambdas/adapters/dynamodb/oidc-provider-storage';
import { systemClock } from '../../lambdas/adapters/system-clock';
import { checkAccessToken } from '../../lambdas/mcp/access-tokens';
import { MCP_METADATA_PATH, MCP_ROUTES, mcpHttpHandler } from '../../lambdas/mcp/http';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { tableOnlyServices } from '../support/table-services';

const db = useTestDynamoDb();

const ISSUER = 'http://127.0.0.1:3007';
const ORIGIN = 'http://127.0.0.1:3000';
const RESOURCE = `${ORIGIN}/mcp`;

const setUp = async () => {
  const tableName = await db.freshTable();
  const clock = systemClock();
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const publicJwk = { ...(await exportJWK(publicKey)), kid: 'provider', alg: 'RS256' };
  const keys = createLocalJWKSet({ keys: [publicJwk] });
  const grantStore = oidcProviderStorage(db.doc, tableName, clock)('Grant');
  const grants = oidcLiveGrants(db.doc, tableName, clock);
  const handle = mcpHttpHandler(
    { resource: RESOURCE, issuer: ISSUER, resourceName: 'Contract service MCP server (production)' },
    (token) => checkAccessToken({ issuer: ISSUER, resource: RESOURCE, keys }, grants, token),
    {
      directory: composeDirectory(db.doc, tableName),
      environments: {
        sandbox: tableOnlyServices(db.doc, tableName, 'sandbox', {}),
        production: tableOnlyServices(db.doc, tableName, 'production', {}),
      },
    },
  );
  let count = 0;
  /** A token as the provider issues one, its grant on record unless `recorded` is false. */
  const sign = async (claims: JWTPayload = {}, recorded = true) => {
    count += 1;
    const grantId = `grant${count}`;
    const now = Math.floor(Date.now() / 1000);
    if (recorded)
      await grantStore.upsert(grantId, { accountId: 'per_maria', clientId: 'agent', kind: 'Grant' }, 900);
    return new SignJWT({
      iss: ISSUER,
      aud: RESOURCE,
      sub: 'per_maria',
      iat: now,
      exp: now + 900,
      scope: 'mcp',
      client_id: 'agent',
      jti: `token${count}`,
      grant_id: grantId,
      ...claims,
    })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: 'provider' })
      .sign(privateKey);
  };
  const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    handle(new Request(`${ORIGIN}${path}`, { method, headers, ...(body !== undefined && { body }) }));
  return { send, sign };
};

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
});
const JSON_RPC = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** The status and code of an answer in the service's error shape, with its request id. */
const errorOf = async (answer: Response) => {
  expect(answer.headers.get('service-request-id')).toMatch(/^rqs_/);
  expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const { error } = (await answer.json()) as { error: { code: string } };
  return [answer.status, error.code];
};

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

describe('who may call each route', () => {
  test('the metadata answers anyone, and a browser’s preflight', async () => {
    const { send } = await setUp();
    const metadata = await send('GET', MCP_METADATA_PATH);
    expect([metadata.status, ((await metadata.json()) as { resource: string }).resource]).toEqual([
      200,
      RESOURCE,
    ]);
    expect(metadata.headers.get('service-request-id')).toMatch(/^rqs_/);
    const head = await send('HEAD', MCP_METADATA_PATH);
    expect([head.status, await head.text()]).toEqual([200, '']);
    const preflight = await send('OPTIONS', MCP_METADATA_PATH, { origin: 'https://agent.example' });
    expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([204, '*']);
  });

  test.each(METHODS)(
    '%s /mcp without a token, or with one not accepted: 401 with the challenge',
    async (method) => {
      const { send, sign } = await setUp();
      const refusals = [
        [{}, 'authentication_required'],
        [{ authorization: 'Basic a2V5Og==' }, 'authentication_required'],
        [
          { authorization: `Bearer ${await sign({ exp: Math.floor(Date.now() / 1000) - 60 })}` },
          'token_expired',
        ],
        [{ authorization: `Bearer ${await sign({ aud: `${ORIGIN}/v1` })}` }, 'token_invalid'],
        [{ authorization: `Bearer ${await sign({}, false)}` }, 'token_invalid'],
      ] as const;
      for (const [headers, code] of refusals) {
        const answer = await send(
          method,
          '/mcp',
          { ...JSON_RPC, ...headers },
          method === 'GET' ? undefined : INITIALIZE,
        );
        expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata="/);
        expect([headers, ...(await errorOf(answer))]).toEqual([headers, 401, code]);
      }
    },
  );

  test('a foreign Origin is refused (403) even with an accepted token', async () => {
    const { send, sign } = await setUp();
    const answer = await send(
      'POST',
      '/mcp',
      { ...JSON_RPC, authorization: `Bearer ${await sign()}`, origin: 'http://evil.example' },
      INITIALIZE,
    );
    expect(answer.status).toBe(403);
    expect(answer.headers.get('service-request-id')).toMatch(/^rqs_/);
  });

  test('an accepted token, from its own origin or none, is served: initialize answers', async () => {
    const { send, sign } = await setUp();
    for (const origin of [{}, { origin: ORIGIN }] as Record<string, string>[]) {
      const answer = await send(
        'POST',
        '/mcp',
        { ...JSON_RPC, ...origin, authorization: `Bearer ${await sign()}` },
        INITIALIZE,
      );
      expect(answer.status).toBe(200);
      expect(answer.headers.get('service-request-id')).toMatch(/^rqs_/);
      expect(await answer.text()).toContain('"protocolVersion"');
    }
  });
});

describe('methods and paths no route answers', () => {
  test.each([
    ['GET', '/mcp', 'POST'],
    ['PUT', '/mcp', 'POST'],
    ['DELETE', '/mcp', 'POST'],
    ['POST', MCP_METADATA_PATH, 'GET, HEAD, OPTIONS'],
    ['DELETE', MCP_METADATA_PATH, 'GET, HEAD, OPTIONS'],
  ])('%s %s (with an accepted token): 405 method_not_allowed, Allow %s', async (method, path, allow) => {
    const { send, sign } = await setUp();
    const answer = await send(method, path, { authorization: `Bearer ${await sign()}` });
    expect(answer.headers.get('allow')).toBe(allow);
    expect(await errorOf(answer)).toEqual([405, 'method_not_allowed']);
  });

  test.each(['/mcp/', '/mcp/tools', '/nothing', '/.well-known/oauth-protected-resource'])(
    'GET %s: 404 not_found',
    async (path) => {
      const { send, sign } = await setUp();
      expect(await errorOf(await send('GET', path, { authorization: `Bearer ${await sign()}` }))).toEqual([
        404,
        'not_found',
      ]);
    },
  );

  test('the route table is what the server answers: each declared method and path is served', () => {
    expect(MCP_ROUTES.map((route) => `${route.method} ${route.path}`)).toEqual([
      `GET ${MCP_METADATA_PATH}`,
      `HEAD ${MCP_METADATA_PATH}`,
      `OPTIONS ${MCP_METADATA_PATH}`,
      'POST /mcp',
    ]);
  });
});
