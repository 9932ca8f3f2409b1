// Browser test of the MCP server (decisions.md §10) on the real local stack, as a coding agent uses it:
// the official SDK's client over streamable HTTP meets the 401, finds the identity provider through the
// protected resource metadata, registers itself, sends the person to sign up and allow it (headless
// Chromium), and gets a token by PKCE for exactly the `/mcp` address. Then the portal's tasks through the
// tools: an organisation, an integration, a sandbox key used on /v1, a webhook endpoint at a local
// receiver, a test event read back with its attempts, a redelivery, the request history with filters,
// and revoking the key. And the refusals: no token, expired, the other address's, a /v1 token, a revoked
// client's (401 with the challenge each), a foreign Origin, and another organisation's ids (not_found).
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { importJWK, type JWK, SignJWT } from 'jose';
import type { Browser } from 'playwright-core';
import { bearer, call, exchange } from '../support/api-client';
import { eventually } from '../support/eventually';
import { devBootstrap, ops, type RunningStack, useLocalStack } from '../support/local-stack';
import {
  type ConnectedAgent,
  connectAgent,
  connectWith,
  ok,
  type Person,
  refusal,
} from '../support/mcp-agent';
import { type Receiver, startReceiver, verifies } from '../support/webhook-receiver';
import { launchChromium } from './harness';

let stack: RunningStack;
useLocalStack(
  (started) => {
    stack = started;
  },
  // Webhook retries in seconds, should a delivery fail.
  { env: { DELAY_SCALE: '60' } },
);

let browser: Browser;
let receiver: Receiver;
let issuer: string;
let mcp: { production: string; sandbox: string };
let bootstrap: Awaited<ReturnType<typeof devBootstrap>>;
/** A person who signs up through the agent's first authorization, with no organisation yet. */
let agent: ConnectedAgent;
const person: Person = {
  email: `agent-${randomUUID().slice(0, 8)}@example.com`,
  password: 'a long enough password',
};

beforeAll(async () => {
  issuer = `http://127.0.0.1:${stack.portBase + 7}`;
  mcp = { production: `${stack.production}/mcp`, sandbox: `${stack.sandbox}/mcp` };
  [browser, receiver, bootstrap] = await Promise.all([
    launchChromium(),
    startReceiver(),
    devBootstrap(stack),
  ]);
  // The person lets it change both environments: the tasks below use the sandbox through production's /mcp.
  agent = await connectAgent(browser, mcp.production, person, {
    signUp: true,
    clientName: 'Test coding agent',
    environments: ['sandbox', 'production'],
  });
}, 180_000);

afterAll(async () => {
  await agent?.close();
  await browser?.close();
  await receiver?.close();
});

const TOOL_NAMES = [
  'get_organisation',
  'create_organisation',
  'list_integrations',
  'create_integration',
  'get_sandbox_budget',
  'list_event_types',
  'create_api_key',
  'list_api_keys',
  'revoke_api_key',
  'create_webhook_endpoint',
  'list_webhook_endpoints',
  'update_webhook_endpoint',
  'rotate_webhook_endpoint_secret',
  'delete_webhook_endpoint',
  'send_test_event',
  'list_webhook_messages',
  'get_webhook_message',
  'redeliver_webhook_message',
  'list_api_requests',
];

/** The challenge a 401 from the MCP server carries: where its protected resource metadata is. */
const challengeOf = (address: string) =>
  `resource_metadata="${new URL(address).origin}/.well-known/oauth-protected-resource/mcp"`;

const post = (address: string, headers: Record<string, string> = {}) =>
  call(address, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
    }),
  });

describe('discovery and the challenge', () => {
  test.each(['production', 'sandbox'] as const)(
    '%s: metadata names the exact address and the provider',
    async (environment) => {
      const answer = await call(
        `${new URL(mcp[environment]).origin}/.well-known/oauth-protected-resource/mcp`,
      );
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        resource: mcp[environment],
        authorization_servers: [issuer],
        scopes_supported: ['mcp'],
        bearer_methods_supported: ['header'],
        resource_name: `Contract service MCP server (${environment})`,
      });
      const unauthenticated = await post(mcp[environment]);
      expect(unauthenticated.status).toBe(401);
      expect(unauthenticated.headers.get('www-authenticate')).toBe(
        `Bearer ${challengeOf(mcp[environment])}, scope="mcp"`,
      );
      expect(unauthenticated.body.error.code).toBe('authentication_required');
    },
  );

  test('the provider takes client ID metadata documents, fetched only from public https addresses', async () => {
    const metadata = await call(`${issuer}/.well-known/oauth-authorization-server`);
    expect(metadata.body).toMatchObject({
      client_id_metadata_document_supported: true,
      registration_endpoint: `${issuer}/reg`,
      code_challenge_methods_supported: ['S256'],
      scopes_supported: expect.arrayContaining(['mcp']),
    });
    // A client named by a document on this machine is never fetched: the provider's guard against
    // loopback and private addresses hangs up before a byte of the request (or of TLS) is sent.
    const bytes: number[] = [];
    const listener = createNetServer((socket) => {
      socket.on('data', (chunk) => bytes.push(chunk.length));
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as AddressInfo;
    const authorization = new URL(`${issuer}/auth`);
    authorization.search = new URLSearchParams({
      client_id: `https://127.0.0.1:${port}/agent.json`,
      response_type: 'code',
      redirect_uri: 'http://127.0.0.1:9/callback',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      resource: mcp.production,
    }).toString();
    const refused = await call(authorization.toString(), { redirect: 'manual' });
    await new Promise((resolve) => listener.close(resolve));
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('invalid_client');
    expect(bytes).toEqual([]);
  });

  test('the consent page named the agent and the MCP server it may use', () => {
    expect(agent.consentText.join(' ')).toContain('Test coding agent');
    expect(agent.consentText.join(' ')).toContain(mcp.production);
    expect(agent.provider.savedTokens?.access_token).toEqual(expect.any(String));
    // The SDK found the provider through the server's metadata, not by guessing from its address.
    expect(agent.provider.discovery).toMatchObject({
      resourceMetadataUrl: `${stack.production}/.well-known/oauth-protected-resource/mcp`,
      resourceMetadata: { resource: mcp.production, authorization_servers: [issuer] },
      authorizationServerUrl: issuer,
    });
  });
});

describe('the tools', () => {
  test('are the 19 of §10, each with input and output schemas and annotations', async () => {
    // The agent speaks the current revision, without a session.
    expect(agent.client.getProtocolEra()).toBe('modern');
    expect(agent.client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const { tools } = await agent.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(typeof tool.annotations?.readOnlyHint).toBe('boolean');
      expect(typeof tool.annotations?.openWorldHint).toBe('boolean');
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const name of ['revoke_api_key', 'delete_webhook_endpoint'])
      expect(byName[name]?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    for (const name of ['send_test_event', 'redeliver_webhook_message'])
      expect(byName[name]?.annotations).toMatchObject({ openWorldHint: true });
    // Every tool that touches one environment requires it.
    for (const tool of tools.filter((t) => t.name.match(/key|webhook|test_event|api_requests/)))
      expect(tool.inputSchema.required).toContain('environment');
  });

  test('before an organisation: every tool but the two organisation tools answers organisation_required', async () => {
    const { client } = agent;
    expect(await ok(client, 'get_organisation')).toEqual({
      organisation: null,
      sandbox_budget: null,
      integrations: [],
    });
    // Every other tool, each with arguments it would accept.
    const integration = { environment: 'sandbox', integration_id: bootstrap.integration_id };
    const endpoint = { environment: 'sandbox', endpoint_id: 'whe_someone' };
    const message = { environment: 'sandbox', message_id: 'msg_someone' };
    const calls: Array<[string, Record<string, unknown>]> = [
      ['list_integrations', {}],
      ['create_integration', { name: 'Too early' }],
      ['get_sandbox_budget', {}],
      ['list_event_types', {}],
      ['create_api_key', integration],
      ['list_api_keys', integration],
      ['revoke_api_key', { environment: 'sandbox', api_key_id: 'key_someone' }],
      [
        'create_webhook_endpoint',
        { ...integration, url: `${receiver.origin}/early`, events: ['clients.submitted'] },
      ],
      ['list_webhook_endpoints', integration],
      ['update_webhook_endpoint', { ...endpoint, enabled: false }],
      ['rotate_webhook_endpoint_secret', endpoint],
      ['delete_webhook_endpoint', endpoint],
      ['send_test_event', endpoint],
      ['list_webhook_messages', endpoint],
      ['get_webhook_message', message],
      ['redeliver_webhook_message', message],
      ['list_api_requests', integration],
    ];
    expect(calls.map(([name]) => name).sort()).toEqual(TOOL_NAMES.slice(2).sort());
    for (const [name, args] of calls)
      expect([name, await refusal(client, name, args)]).toEqual([name, 'organisation_required']);
  });

  test('the portal tasks, end to end', async () => {
    const { client } = agent;
    // Bad arguments answer request_invalid in the service's shape.
    expect(await refusal(client, 'create_organisation', {})).toBe('request_invalid');
    const organisation = await ok(client, 'create_organisation', { name: 'Harbour Conveyancing' });
    expect(organisation).toEqual({
      id: expect.stringMatching(/^org_/),
      name: 'Harbour Conveyancing',
      created_at: expect.any(String),
    });
    expect(await refusal(client, 'create_organisation', { name: 'Second' })).toBe('organisation_exists');

    const integration = await ok(client, 'create_integration', { name: 'Conveyancing app' });
    expect(integration).toMatchObject({ organisation_id: organisation.id, type: 'contract_reviews' });
    expect((await ok(client, 'list_integrations')).data).toEqual([integration]);
    expect(await ok(client, 'get_sandbox_budget')).toEqual({
      organisation_id: organisation.id,
      total: 3,
      used: 0,
      remaining: 3,
    });

    // A sandbox key, shown once, used on /v1.
    const created = await ok(client, 'create_api_key', {
      environment: 'sandbox',
      integration_id: integration.id,
      name: 'Test server',
    });
    expect(created.key).toMatch(/^svc_test_/);
    const token = await exchange(stack.sandbox, created.key);
    expect((await call(`${stack.sandbox}/v1/clients`, { headers: bearer(token) })).status).toBe(200);
    expect((await call(`${stack.sandbox}/v1/clients/cli_nobody`, { headers: bearer(token) })).status).toBe(
      404,
    );
    const keys = await ok(client, 'list_api_keys', {
      environment: 'sandbox',
      integration_id: integration.id,
    });
    expect(keys.data).toEqual([
      expect.objectContaining({ id: created.id, prefix: created.prefix, revoked_at: null }),
    ]);
    expect(JSON.stringify(keys)).not.toContain(created.key);
    // The key belongs to the sandbox: production has none of this integration's.
    expect(
      (await ok(client, 'list_api_keys', { environment: 'production', integration_id: integration.id })).data,
    ).toEqual([]);

    // An endpoint at a local receiver; a test event, read back with its attempt; a redelivery.
    const types = (await ok(client, 'list_event_types')).data.map((t: { type: string }) => t.type);
    expect(types).toContain('contract-reviews.publication.published');
    const { endpoint, secret } = await ok(client, 'create_webhook_endpoint', {
      environment: 'sandbox',
      integration_id: integration.id,
      url: `${receiver.origin}/hooks`,
      events: ['clients.submitted'],
    });
    expect(secret).toMatch(/^whsec_/);
    expect(endpoint).toMatchObject({
      url: `${receiver.origin}/hooks`,
      events: ['clients.submitted'],
      enabled: true,
    });
    const listed = await ok(client, 'list_webhook_endpoints', {
      environment: 'sandbox',
      integration_id: integration.id,
    });
    expect(listed.data).toEqual([endpoint]);
    expect(JSON.stringify(listed)).not.toContain(secret);

    const sent = await ok(client, 'send_test_event', { environment: 'sandbox', endpoint_id: endpoint.id });
    expect(sent).toMatchObject({ endpoint_id: endpoint.id, type: 'test', test: true });
    const [delivery] = await receiver.waitFor(1, (r) => r.headers['webhook-id'] === sent.id);
    expect(delivery && verifies(delivery, secret)).toBe(true);
    const read = await eventually(
      () => ok(client, 'get_webhook_message', { environment: 'sandbox', message_id: sent.id }),
      (message) => message.state === 'delivered',
      { what: 'the test event delivered' },
    );
    expect(read.envelope).toMatchObject({ type: 'test', test: true });
    expect(read.attempts).toEqual([expect.objectContaining({ round: 1, number: 1, status: 200 })]);
    const page = await ok(client, 'list_webhook_messages', {
      environment: 'sandbox',
      endpoint_id: endpoint.id,
      state: 'delivered',
      limit: 10,
    });
    expect(page).toEqual({ data: [expect.objectContaining({ id: sent.id })], has_more: false });

    const again = await ok(client, 'redeliver_webhook_message', {
      environment: 'sandbox',
      message_id: sent.id,
    });
    expect(again).toMatchObject({ id: sent.id, round: 2 });
    const both = await receiver.waitFor(2, (r) => r.headers['webhook-id'] === sent.id);
    expect(both.every((r) => verifies(r, secret))).toBe(true);
    const redelivered = await eventually(
      () => ok(client, 'get_webhook_message', { environment: 'sandbox', message_id: sent.id }),
      (message) => message.state === 'delivered' && message.attempts.length === 2,
      { what: 'the redelivery delivered' },
    );
    expect(redelivered.attempts.map((a: { round: number }) => a.round)).toEqual([1, 2]);

    // Disabled: a test event is refused; the endpoint's other changes; rotation; deletion.
    const disabled = await ok(client, 'update_webhook_endpoint', {
      environment: 'sandbox',
      endpoint_id: endpoint.id,
      enabled: false,
    });
    expect(disabled.enabled).toBe(false);
    expect(
      await refusal(client, 'send_test_event', { environment: 'sandbox', endpoint_id: endpoint.id }),
    ).toBe('endpoint_disabled');
    expect(
      await refusal(client, 'update_webhook_endpoint', { environment: 'sandbox', endpoint_id: endpoint.id }),
    ).toBe('request_invalid');
    const rotated = await ok(client, 'rotate_webhook_endpoint_secret', {
      environment: 'sandbox',
      endpoint_id: endpoint.id,
    });
    expect(rotated).toEqual({ id: endpoint.id, secret: expect.stringMatching(/^whsec_/) });
    expect(rotated.secret).not.toBe(secret);

    // The request history: the /v1 calls made with the key, filtered.
    const history = await eventually(
      () => ok(client, 'list_api_requests', { environment: 'sandbox', integration_id: integration.id }),
      (list) => list.data.length >= 3,
      { what: 'three calls in the request history' },
    );
    expect(history.data.map((r: { path: string }) => r.path)).toEqual([
      '/v1/clients/cli_nobody',
      '/v1/clients',
      '/v1/token',
    ]);
    const notFound = await ok(client, 'list_api_requests', {
      environment: 'sandbox',
      integration_id: integration.id,
      status: '404',
    });
    expect(notFound.data.map((r: { status: number }) => r.status)).toEqual([404]);
    const posts = await ok(client, 'list_api_requests', {
      environment: 'sandbox',
      integration_id: integration.id,
      method: 'POST',
      path_prefix: '/v1/token',
    });
    expect(posts.data.map((r: { path: string }) => r.path)).toEqual(['/v1/token']);
    const first = await ok(client, 'list_api_requests', {
      environment: 'sandbox',
      integration_id: integration.id,
      limit: 1,
    });
    expect(first).toMatchObject({ has_more: true });
    const next = await ok(client, 'list_api_requests', {
      environment: 'sandbox',
      integration_id: integration.id,
      limit: 1,
      starting_after: first.data[0].id,
    });
    expect(next.data[0].path).toBe('/v1/clients');
    expect(
      await refusal(client, 'list_api_requests', {
        environment: 'sandbox',
        integration_id: integration.id,
        status: '6xx',
      }),
    ).toBe('filter_invalid');
    expect(
      (await ok(client, 'list_api_requests', { environment: 'production', integration_id: integration.id }))
        .data,
    ).toEqual([]);

    // Revoking the key: /v1/token refuses it at once.
    const revoked = await ok(client, 'revoke_api_key', { environment: 'sandbox', api_key_id: created.id });
    expect(revoked).toEqual({ id: created.id, revoked_at: expect.any(String) });
    expect(
      (await call(`${stack.sandbox}/v1/token`, { method: 'POST', headers: bearer(created.key) })).status,
    ).toBe(401);

    expect(
      await ok(client, 'delete_webhook_endpoint', { environment: 'sandbox', endpoint_id: endpoint.id }),
    ).toEqual({ id: endpoint.id, deleted: true });
    expect(
      (await ok(client, 'list_webhook_endpoints', { environment: 'sandbox', integration_id: integration.id }))
        .data,
    ).toEqual([]);
  }, 180_000);

  test("another organisation's ids answer not_found", async () => {
    const { client } = agent;
    // The local organisation (dev-bootstrap's), with an endpoint and a message of its own.
    const endpoint = await ops(
      stack,
      'webhook-endpoint-create',
      '--environment',
      'sandbox',
      '--url',
      `${receiver.origin}/local`,
      '--events',
      'clients.submitted',
    );
    const endpointId = endpoint.json?.id as string;
    const message = await ops(stack, 'webhook-test', endpointId);
    const messageId = message.json?.id as string;
    const keys = await ops(stack, 'api-key-list', '--environment', 'sandbox');
    const keyId = (keys.json?.data as Array<{ id: string }> | undefined)?.[0]?.id;
    const integration = { environment: 'sandbox', integration_id: bootstrap.integration_id };
    expect(await refusal(client, 'list_api_keys', integration)).toBe('not_found');
    expect(await refusal(client, 'create_api_key', integration)).toBe('not_found');
    expect(await refusal(client, 'list_webhook_endpoints', integration)).toBe('not_found');
    expect(await refusal(client, 'list_api_requests', integration)).toBe('not_found');
    expect(
      await refusal(client, 'create_webhook_endpoint', {
        ...integration,
        url: `${receiver.origin}/x`,
        events: ['clients.submitted'],
      }),
    ).toBe('not_found');
    expect(await refusal(client, 'revoke_api_key', { environment: 'sandbox', api_key_id: keyId })).toBe(
      'not_found',
    );
    const endpointArgs = { environment: 'sandbox', endpoint_id: endpointId };
    for (const name of [
      'send_test_event',
      'rotate_webhook_endpoint_secret',
      'delete_webhook_endpoint',
      'list_webhook_messages',
    ])
      expect(await refusal(client, name, endpointArgs)).toBe('not_found');
    expect(await refusal(client, 'update_webhook_endpoint', { ...endpointArgs, enabled: false })).toBe(
      'not_found',
    );
    for (const name of ['get_webhook_message', 'redeliver_webhook_message'])
      expect(await refusal(client, name, { environment: 'sandbox', message_id: messageId })).toBe(
        'not_found',
      );
    // The local organisation's key still works, and its endpoint is still enabled.
    expect(
      (await call(`${stack.sandbox}/v1/token`, { method: 'POST', headers: bearer(bootstrap.keys.sandbox) }))
        .status,
    ).toBe(200);
    const listed = await ops(stack, 'webhook-endpoint-list', '--environment', 'sandbox');
    expect(listed.json?.data).toEqual([expect.objectContaining({ id: endpointId, enabled: true })]);
  }, 60_000);

  test('a subscription stream is refused at once (the tools never change; a Lambda holds no stream)', async () => {
    await expect(agent.client.listen({ toolsListChanged: true })).rejects.toThrow(
      /Subscription limit reached/,
    );
    // The connection serves on.
    expect((await ok(agent.client, 'get_organisation')).organisation).not.toBeNull();
  });

  test('the previous protocol revision (2025-11-25) serves the same tools', async () => {
    const legacy = await connectWith(mcp.production, agent.provider, 'previous');
    try {
      expect(legacy.getProtocolEra()).toBe('legacy');
      expect(legacy.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      const { tools } = await legacy.listTools();
      expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
      const result = await legacy.callTool({ name: 'get_organisation', arguments: {} });
      expect((result.structuredContent as { organisation: { name: string } }).organisation.name).toBe(
        'Harbour Conveyancing',
      );
    } finally {
      await legacy.close();
    }
  });
});

describe('refusals', () => {
  const expectRefused = async (address: string, token: string, code: string) => {
    const answer = await post(address, bearer(token));
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe(code);
    const challenge = answer.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain(challengeOf(address));
    expect(challenge).toContain('error="invalid_token"');
  };

  /** A token signed with the identity provider's own key (from DATA_DIR), with these claims. */
  const providerSigned = async (claims: Record<string, unknown>, expiresAt: number) => {
    const jwks = JSON.parse(
      await readFile(join(stack.dataDir, 'keys', 'identity-provider-jwks.json'), 'utf8'),
    ) as { keys: JWK[] };
    const [jwk] = jwks.keys;
    if (!jwk) throw new Error('no signing key');
    const payload = agent.provider.savedTokens?.access_token.split('.')[1] ?? '';
    const original = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    return new SignJWT({ ...original, ...claims })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: jwk.kid as string })
      .setExpirationTime(expiresAt)
      .sign(await importJWK(jwk, 'RS256'));
  };

  test('an accepted token passes, for comparison', async () => {
    const answer = await post(mcp.production, bearer(agent.provider.savedTokens?.access_token ?? ''));
    expect(answer.status).toBe(200);
  });

  test('an expired token', async () => {
    const expired = await providerSigned(
      { iat: Math.floor(Date.now() / 1000) - 1000 },
      Math.floor(Date.now() / 1000) - 60,
    );
    await expectRefused(mcp.production, expired, 'token_expired');
  });

  test("a token for the other environment's MCP server (audience)", async () => {
    // The agent's real token is for production's /mcp: the sandbox's refuses it.
    await expectRefused(mcp.sandbox, agent.provider.savedTokens?.access_token ?? '', 'token_invalid');
    const forSandbox = await providerSigned({ aud: mcp.sandbox }, Math.floor(Date.now() / 1000) + 600);
    await expectRefused(mcp.production, forSandbox, 'token_invalid');
  });

  test('a /v1 access token on /mcp, and an MCP token on /v1', async () => {
    const v1Token = await exchange(stack.production, bootstrap.keys.production);
    await expectRefused(mcp.production, v1Token, 'token_invalid');
    const onV1 = await call(`${stack.production}/v1/clients`, {
      headers: bearer(agent.provider.savedTokens?.access_token ?? ''),
    });
    expect(onV1.status).toBe(401);
    expect(onV1.body.error.code).toBe('token_invalid');
    expect(onV1.headers.get('www-authenticate')).toContain('Bearer');
  });

  test('a request from a foreign Origin', async () => {
    const answer = await post(mcp.production, {
      ...bearer(agent.provider.savedTokens?.access_token ?? ''),
      origin: 'http://evil.example',
    });
    expect(answer.status).toBe(403);
    const own = await post(mcp.production, {
      ...bearer(agent.provider.savedTokens?.access_token ?? ''),
      origin: stack.production,
    });
    expect(own.status).toBe(200);
  });

  test("a revoked client's token", async () => {
    // A second agent of the same person (allowed once more: a new client), then its grant revoked.
    const second = await connectAgent(browser, mcp.production, person, { clientName: 'Second agent' });
    await second.close();
    const access = second.provider.savedTokens?.access_token ?? '';
    const refreshToken = second.provider.savedTokens?.refresh_token ?? '';
    expect((await post(mcp.production, bearer(access))).status).toBe(200);
    const revoked = await call(`${issuer}/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: refreshToken,
        client_id: second.provider.information?.client_id ?? '',
      }),
    });
    expect(revoked.status).toBe(200);
    await expectRefused(mcp.production, access, 'token_invalid');
    // The first agent is another client: untouched.
    expect((await post(mcp.production, bearer(agent.provider.savedTokens?.access_token ?? ''))).status).toBe(
      200,
    );
  }, 120_000);
});
