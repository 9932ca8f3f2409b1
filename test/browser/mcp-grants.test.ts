// Browser test of what an MCP grant allows and how the MCP server refuses (decisions.md §10), on the real
// local stack with both generations of the official SDK's client, each through the whole OAuth flow
// (the 401's challenge, discovery, registration, the person signing up and allowing it in Chromium, PKCE,
// the token): the consent page's environment checkboxes, the grant holding only the ticked environments
// (its tokens' `environments` claim), a call naming another refused with `environment_not_allowed`
// before its arguments or the organisation are looked at, and every refusal in the shape both clients
// read: `isError` with `{error:{code,message}}` as text and no `structuredContent` (the SDK 1.x client
// checks any `structuredContent` against the tool's output schema and would reject the answer).
import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { Browser } from 'playwright-core';
import { fuzzMcp, mcpFuzzTarget } from '../support/fuzz-mcp';
import type { RunningStack } from '../support/local-stack';
import { type ConnectedAgent, callTool, connectAgent, ok, type Person, refusal } from '../support/mcp-agent';
import { type ConnectedSdk1Agent, connectSdk1Agent } from '../support/mcp-agent-sdk1';
import { useSharedStack } from '../support/shared-stacks';
import { launchChromium } from './harness';

let stack: RunningStack;
// Shared with other files: each person here signs up anew. Rate limits off: the sign-up, sign-in and
// registration limits count per client address, all files' people alike, and none is tested here.
useSharedStack(
  (started) => {
    stack = started;
  },
  { env: { RATE_LIMITS: 'off' } },
);

let browser: Browser;
let mcp: { production: string; sandbox: string };

beforeAll(async () => {
  mcp = { production: `${stack.production}/mcp`, sandbox: `${stack.sandbox}/mcp` };
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

const newPerson = (): Person => ({
  email: `grant-${randomUUID().slice(0, 8)}@example.com`,
  password: 'a long enough password',
});

const environmentsOf = (agent: { provider: ConnectedAgent['provider'] }) =>
  decodeJwt(agent.provider.savedTokens?.access_token ?? '').environments;

describe('both SDK generations read every answer, errors included', () => {
  const person = newPerson();
  let sdk1: ConnectedSdk1Agent;
  let sdk2: ConnectedAgent;

  beforeAll(async () => {
    sdk1 = await connectSdk1Agent(browser, mcp.sandbox, person, { signUp: true });
    sdk2 = await connectAgent(browser, mcp.sandbox, person, { clientName: 'SDK 2 agent' });
  }, 180_000);

  afterAll(async () => {
    await sdk1?.close();
    await sdk2?.close();
  });

  test.each([
    ['SDK 1.x', () => sdk1.client],
    ['SDK 2.x', () => sdk2.client],
  ])('%s: refusals are isError with the error JSON as text alone', async (_generation, clientOf) => {
    const client = clientOf();
    expect(await refusal(client, 'list_integrations')).toBe('organisation_required');
    expect(await refusal(client, 'list_api_keys', { environment: 'sandbox', integration_id: 'int_x' })).toBe(
      'organisation_required',
    );
    expect(await refusal(client, 'create_organisation', {})).toBe('request_invalid');
    expect(await refusal(client, 'create_organisation', { name: 7 })).toBe('request_invalid');
  });

  test('an organisation made through the SDK 1.x client; the second answers organisation_exists to both', async () => {
    const organisation = await ok(sdk1.client, 'create_organisation', { name: 'Generations Conveyancing' });
    expect(organisation).toMatchObject({
      id: expect.stringMatching(/^org_/),
      name: 'Generations Conveyancing',
    });
    for (const client of [sdk1.client, sdk2.client]) {
      expect(await refusal(client, 'create_organisation', { name: 'Second' })).toBe('organisation_exists');
      // A success still carries structuredContent, which the SDK 1.x client checks against the schema.
      const seen = await client.callTool({ name: 'get_organisation', arguments: {} });
      expect(seen.structuredContent).toMatchObject({ organisation: { id: organisation.id } });
      expect(
        await refusal(client, 'revoke_api_key', { environment: 'sandbox', api_key_id: 'key_nobody' }),
      ).toBe('not_found');
    }
  });
});

describe('the environments a client may change', () => {
  test('the consent page offers both, the asked address ticked, and says which it will change', async () => {
    const offeredFor = async (address: string) => {
      const agent = await connectAgent(browser, address, newPerson(), {
        signUp: true,
        environments: ['sandbox', 'production'],
      });
      await agent.close();
      return agent;
    };
    const sandbox = await offeredFor(mcp.sandbox);
    expect(sandbox.consentOffered).toEqual({ sandbox: true, production: false });
    const [asOffered, asTicked] = sandbox.consentText;
    expect(asOffered).toContain('It will be able to change your sandbox environment only, not production.');
    expect(asOffered).not.toContain('both your sandbox and your production');
    expect(asTicked).toContain(
      'It will be able to change both your sandbox and your production environments.',
    );
    expect(asTicked).not.toContain('sandbox environment only');
    expect(environmentsOf(sandbox)).toEqual(['sandbox', 'production']);

    const production = await offeredFor(mcp.production);
    expect(production.consentOffered).toEqual({ sandbox: false, production: true });
    expect(production.consentText[0]).toContain(
      'It will be able to change your production environment only, not the sandbox.',
    );
  }, 180_000);

  test('a grant for the sandbox alone: production is refused before arguments and organisation', async () => {
    const person = newPerson();
    const agent = await connectSdk1Agent(browser, mcp.sandbox, person, { signUp: true });
    try {
      expect(agent.consentOffered).toEqual({ sandbox: true, production: false });
      expect(environmentsOf(agent)).toEqual(['sandbox']);
      const { client } = agent;
      // Before an organisation: production answers environment_not_allowed, the sandbox organisation_required.
      expect(
        await refusal(client, 'list_api_keys', { environment: 'production', integration_id: 'int_x' }),
      ).toBe('environment_not_allowed');
      expect(
        await refusal(client, 'list_api_keys', { environment: 'sandbox', integration_id: 'int_x' }),
      ).toBe('organisation_required');
      await ok(client, 'create_organisation', { name: 'Sandbox Only Ltd' });
      const integration = await ok(client, 'create_integration', { name: 'Sandbox app' });
      const sandboxKey = await ok(client, 'create_api_key', {
        environment: 'sandbox',
        integration_id: integration.id,
      });
      expect(sandboxKey.key).toMatch(/^svc_test_/);
      // The reproduction of issue 26: no production key, whatever else the arguments say.
      const production = { environment: 'production', integration_id: integration.id };
      expect(await refusal(client, 'create_api_key', production)).toBe('environment_not_allowed');
      expect(await refusal(client, 'create_api_key', { environment: 'production' })).toBe(
        'environment_not_allowed',
      );
      expect(await refusal(client, 'create_api_key', { ...production, unknown: true })).toBe(
        'environment_not_allowed',
      );
      const refused = await callTool(client, 'create_webhook_endpoint', {
        ...production,
        url: 'https://example.com/hook',
        events: ['clients.submitted'],
      });
      expect(refused.body.error.message).toMatch(/production/);
      for (const name of ['list_api_keys', 'list_webhook_endpoints', 'list_api_requests'])
        expect([name, await refusal(client, name, production)]).toEqual([name, 'environment_not_allowed']);
      for (const [name, args] of [
        ['revoke_api_key', { environment: 'production', api_key_id: sandboxKey.id }],
        ['send_test_event', { environment: 'production', endpoint_id: 'whe_x' }],
        ['get_webhook_message', { environment: 'production', message_id: 'msg_x' }],
      ] as const)
        expect([name, await refusal(client, name, args)]).toEqual([name, 'environment_not_allowed']);
      // Nothing was made in production; the sandbox still answers.
      expect(
        (await ok(client, 'list_api_keys', { environment: 'sandbox', integration_id: integration.id })).data,
      ).toHaveLength(1);
      // The person can widen it only by allowing the client again (here: a new client, both ticked).
      const both = await connectAgent(browser, mcp.sandbox, person, {
        clientName: 'Both environments',
        environments: ['sandbox', 'production'],
      });
      try {
        expect(environmentsOf(both)).toEqual(['sandbox', 'production']);
        expect((await ok(both.client, 'create_api_key', production)).key).toMatch(/^svc_live_/);
      } finally {
        await both.close();
      }
    } finally {
      await agent.close();
    }
  }, 240_000);

  test('a grant with neither ticked changes no environment, but reads the organisation', async () => {
    const agent = await connectAgent(browser, mcp.production, newPerson(), {
      signUp: true,
      environments: [],
    });
    try {
      expect(agent.consentText[1]).toContain('It will be able to change neither environment.');
      expect(environmentsOf(agent)).toEqual([]);
      expect((await ok(agent.client, 'get_organisation')).organisation).toBeNull();
      for (const environment of ['sandbox', 'production'])
        expect(await refusal(agent.client, 'list_api_keys', { environment, integration_id: 'int_x' })).toBe(
          'environment_not_allowed',
        );
    } finally {
      await agent.close();
    }
  }, 180_000);
});

describe('random tool calls through both clients (test/support/fuzz-mcp.ts; `npm run fuzz` runs many more)', () => {
  test('300 calls (seed 20261127): each answer read by its client, errors in the service shape, no 5xx', async () => {
    const target = await mcpFuzzTarget(stack, browser);
    try {
      const figures = await fuzzMcp(target, { seed: 20261127, numRuns: 300 });
      expect(figures.cases).toBe(300);
      // The run reached past the first refusals, through both clients: successes, and refusals of several kinds.
      for (const generation of ['sdk1', 'sdk2'] as const) {
        expect([generation, Object.keys(figures.outcomes[generation]).length > 2]).toEqual([
          generation,
          true,
        ]);
      }
      expect(figures.outcomes.sdk1.ok).toBeGreaterThan(0);
      expect(figures.outcomes.sdk2.environment_not_allowed).toBeGreaterThan(0);
    } finally {
      await target.close();
    }
  }, 300_000);
});
