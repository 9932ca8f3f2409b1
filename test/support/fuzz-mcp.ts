// test support -> a property-based fuzzer of the MCP server's tools on the running local stack
// (fast-check): random arguments, environments and ids to the 19 tools, through both generations of the
// official SDK's client, each connected through the whole OAuth flow (one consented for the sandbox alone,
// one for both environments). Every answer must be one both clients read and the service's own: the
// client never throws (the SDK 1.x client checks a result's `structuredContent` against the tool's
// output schema), never a 5xx code (`internal_error`, `service_unavailable`), an error is `isError` with
// `{error:{code,message}}` as its text JSON and no `structuredContent`, and a success is
// `structuredContent` with the same JSON as text. Used by test/browser/mcp-grants.test.ts (a fixed seed,
// a few hundred cases) and `npm run fuzz` (test/support/fuzz-cli.ts).
import { randomUUID } from 'node:crypto';
import {
  Client as Sdk2Client,
  StreamableHTTPClientTransport as Sdk2Transport,
  UnauthorizedError as Sdk2Unauthorized,
} from '@modelcontextprotocol/client';
import { UnauthorizedError as Sdk1Unauthorized } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Sdk1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import fc from 'fast-check';
import type { Browser } from 'playwright-core';
import { ERROR_STATUS } from '../../lambdas/core/errors';
import { launchChromium } from '../browser/harness';
import { startRedirectReceiver } from '../browser/identity-client';
import type { RunningStack } from './local-stack';
import {
  authorizeInBrowser,
  connectWith,
  type Environments,
  type Person,
  RecordingOAuthProvider,
} from './mcp-agent';
import { connectSdk1With } from './mcp-agent-sdk1';

type Generation = 'sdk1' | 'sdk2';

interface ToolCaller {
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<object>;
  close(): Promise<void>;
}

/** What the fuzzer calls with: a client of each generation, the tools' argument names, real ids. */
export interface McpFuzzTarget {
  clients: Record<Generation, ToolCaller>;
  /** Each tool's argument names, from `tools/list`. */
  tools: Array<{ name: string; arguments: string[] }>;
  /** Ids that exist (the person's own), so that some calls get past `not_found`. */
  ids: string[];
  eventTypes: string[];
  close(): Promise<void>;
}

/** Connects a client of `generation` through the whole OAuth flow (the person allows it in Chromium). */
const connectThroughOAuth = async (
  browser: Browser,
  mcpUrl: string,
  person: Person,
  generation: Generation,
  options: { signUp: boolean; environments: Environments },
): Promise<ToolCaller> => {
  const receiver = await startRedirectReceiver();
  try {
    const provider = new RecordingOAuthProvider(receiver.redirectUri, `Fuzz agent (${generation})`);
    const finish = async (params: URLSearchParams) => {
      const code = params.get('code');
      if (!code) throw new Error(`no code came back: ${params.toString()}`);
      return code;
    };
    const authorize = async () => {
      if (!provider.authorizationUrl) throw new Error(`the ${generation} client started no authorization`);
      const { params } = await authorizeInBrowser(
        browser,
        provider.authorizationUrl,
        receiver.redirectUri,
        person,
        options,
      );
      return params;
    };
    if (generation === 'sdk1') {
      const transport = new Sdk1Transport(new URL(mcpUrl), { authProvider: provider });
      await new Sdk1Client({ name: 'fuzz', version: '1' }).connect(transport).then(
        () => {
          throw new Error('the SDK 1.x client connected without a token');
        },
        (error: unknown) => {
          if (!(error instanceof Sdk1Unauthorized)) throw error;
        },
      );
      await transport.finishAuth(await finish(await authorize()));
      return connectSdk1With(mcpUrl, provider);
    }
    const transport = new Sdk2Transport(new URL(mcpUrl), { authProvider: provider });
    await new Sdk2Client({ name: 'fuzz', version: '1' }).connect(transport).then(
      () => {
        throw new Error('the SDK 2.x client connected without a token');
      },
      (error: unknown) => {
        if (!(error instanceof Sdk2Unauthorized)) throw error;
      },
    );
    const params = await authorize();
    await finish(params);
    await transport.finishAuth(params);
    return connectWith(mcpUrl, provider);
  } finally {
    await receiver.stop();
  }
};

/** A tool result's text JSON, as both generations answer it. */
interface Result {
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: unknown;
  isError?: boolean;
}

const textJson = (result: Result): unknown => {
  const text = result.content?.find((block) => block.type === 'text')?.text;
  return text === undefined ? undefined : JSON.parse(text);
};

const okBody = async (client: ToolCaller, name: string, args: Record<string, unknown> = {}) => {
  const result = (await client.callTool({ name, arguments: args })) as Result;
  if (result.isError) throw new Error(`fuzz setup: ${name} refused: ${JSON.stringify(textJson(result))}`);
  return result.structuredContent as Record<string, unknown>;
};

/**
 * Signs a new person up, connects a client of each generation (the SDK 2.x one allowed the sandbox only,
 * the SDK 1.x one both environments) and makes an organisation, an integration, a key and an endpoint
 * (its URL under `.invalid`, which never resolves), so that ids the fuzzer sends are sometimes real.
 */
export const mcpFuzzTarget = async (stack: RunningStack, browser: Browser): Promise<McpFuzzTarget> => {
  const person = {
    email: `fuzz-${randomUUID().slice(0, 8)}@example.com`,
    password: 'a long enough password',
  };
  const sdk2 = await connectThroughOAuth(browser, `${stack.sandbox}/mcp`, person, 'sdk2', {
    signUp: true,
    environments: ['sandbox'],
  });
  const sdk1 = await connectThroughOAuth(browser, `${stack.production}/mcp`, person, 'sdk1', {
    signUp: false,
    environments: ['sandbox', 'production'],
  });
  const listed = await (sdk2 as unknown as Sdk2Client).listTools();
  const tools = listed.tools.map((tool) => ({
    name: tool.name,
    arguments: Object.keys((tool.inputSchema.properties ?? {}) as Record<string, unknown>),
  }));
  const organisation = await okBody(sdk1, 'create_organisation', { name: 'Fuzz Conveyancing' });
  const integration = await okBody(sdk1, 'create_integration', { name: 'Fuzz app' });
  const key = await okBody(sdk1, 'create_api_key', {
    environment: 'sandbox',
    integration_id: integration.id,
  });
  const events = (await okBody(sdk1, 'list_event_types')).data as Array<{ type: string } | string>;
  const eventTypes = events.map((event) => (typeof event === 'string' ? event : event.type));
  const endpoint = await okBody(sdk1, 'create_webhook_endpoint', {
    environment: 'sandbox',
    integration_id: integration.id,
    url: 'https://fuzz.invalid/hook',
    events: eventTypes.slice(0, 1),
  });
  const endpointId = (endpoint.endpoint as { id: string }).id;
  const ids = [organisation.id, integration.id, key.id, endpointId].filter(
    (id): id is string => typeof id === 'string',
  );
  return {
    clients: { sdk1, sdk2 },
    tools,
    ids,
    eventTypes,
    close: async () => {
      await Promise.all([sdk1.close(), sdk2.close()]);
    },
  };
};

/** Text of every sort: ids of each prefix, escapes, controls, long runs. */
const nasty = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string(),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.constantFrom('', '%', '..', '/', '\\', "'", '"', '<script>', '\u0000', 'null', '-1', '2xx', 'GET'),
    fc
      .constantFrom('int_', 'key_', 'whe_', 'msg_', 'org_', 'req_', 'rqs_', 'crv_')
      .chain((prefix) => fc.string({ minLength: 1, maxLength: 80 }).map((rest) => `${prefix}${rest}`)),
    fc.integer({ min: 100, max: 20_000 }).map((length) => `int_${'A'.repeat(length)}`),
  );

/** A JSON value of any kind, small. */
const anyJson = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 3, arbitrary: nasty() },
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.jsonValue({ maxDepth: 3 }),
  );

/** A value for an argument of this name: mostly plausible, sometimes anything. */
const valueFor = (name: string, target: McpFuzzTarget): fc.Arbitrary<unknown> => {
  const plausible: Record<string, fc.Arbitrary<unknown>> = {
    environment: fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom('sandbox', 'production') },
      fc.constantFrom('Sandbox', 'staging', 'live', 'test', ''),
    ),
    url: fc.oneof(
      fc.constantFrom('https://fuzz.invalid/hook', 'http://fuzz.invalid/x', 'https://127.0.0.1/x', 'ftp://x'),
      fc.webUrl().map((url) => url.replace(/^(https?:\/\/)[^/]+/, '$1fuzz.invalid')),
    ),
    events: fc.array(fc.oneof(fc.constantFrom(...target.eventTypes), nasty()), { maxLength: 6 }),
    enabled: fc.boolean(),
    limit: fc.oneof(fc.integer({ min: -5, max: 500 }), fc.double()),
    status: fc.constantFrom('2xx', '4xx', '5xx', '404', '200', '999', 'abc'),
    method: fc.constantFrom('GET', 'POST', 'get', 'BREW'),
    since: fc.oneof(
      fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
      nasty(),
    ),
    until: fc.oneof(
      fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
      nasty(),
    ),
    state: fc.constantFrom('pending', 'delivered', 'failed', 'sending', 'x'),
  };
  const id = fc.oneof(fc.constantFrom(...target.ids), nasty());
  const own = plausible[name] ?? (name.endsWith('_id') || name === 'starting_after' ? id : nasty());
  return fc.oneof({ weight: 4, arbitrary: own }, anyJson());
};

export interface McpFuzzCall {
  generation: Generation;
  tool: string;
  arguments: Record<string, unknown> | undefined;
}

const callOf = (target: McpFuzzTarget): fc.Arbitrary<McpFuzzCall> =>
  fc
    .tuple(fc.constantFrom<Generation>('sdk1', 'sdk2'), fc.constantFrom(...target.tools))
    .chain(([generation, tool]) =>
      fc.record({
        generation: fc.constant(generation),
        tool: fc.constant(tool.name),
        arguments: fc.oneof(
          { weight: 1, arbitrary: fc.constant(undefined) },
          {
            weight: 12,
            arbitrary: fc
              .tuple(
                fc
                  .subarray(tool.arguments)
                  .chain((names) =>
                    fc.tuple(
                      ...names.map((name) => valueFor(name, target).map((value) => [name, value] as const)),
                    ),
                  ),
                fc.option(fc.tuple(nasty(), anyJson()), { freq: 8 }),
              )
              .map(([pairs, extra]) => Object.fromEntries(extra ? [...pairs, extra] : pairs)),
          },
        ),
      }),
    );

/** What is wrong with a tool's result, or null when it is the service's own (decisions.md §10). */
export const mcpFaultOf = (result: Result): string | null => {
  let json: unknown;
  try {
    json = textJson(result);
  } catch {
    return 'text content that is not JSON';
  }
  if (result.isError === true) {
    if (result.structuredContent !== undefined) return 'an error with structuredContent';
    const error = (json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    if (typeof error?.code !== 'string' || typeof error.message !== 'string')
      return `an error without {error:{code,message}}: ${JSON.stringify(json)?.slice(0, 200)}`;
    const status = ERROR_STATUS[error.code as keyof typeof ERROR_STATUS];
    if (status === undefined) return `an error code the service does not have: ${error.code}`;
    if (status >= 500) return `${status} ${error.code}: ${error.message}`;
    return null;
  }
  if (result.structuredContent === undefined) return 'a success without structuredContent';
  if (JSON.stringify(json) !== JSON.stringify(result.structuredContent))
    return 'a success whose text is not its structuredContent';
  return null;
};

export interface McpFuzzFigures {
  cases: number;
  seconds: number;
  /** Answers by generation and outcome: `ok` or the error code. */
  outcomes: Record<Generation, Record<string, number>>;
}

/** Sends `numRuns` random tool calls and throws at the first fault with that call, unshrunk. */
export const fuzzMcp = async (
  target: McpFuzzTarget,
  options: { seed: number; numRuns: number },
): Promise<McpFuzzFigures> => {
  const figures: McpFuzzFigures = { cases: 0, seconds: 0, outcomes: { sdk1: {}, sdk2: {} } };
  const started = performance.now();
  await fc.assert(
    fc.asyncProperty(callOf(target), async (call) => {
      figures.cases += 1;
      const said = `${call.generation} ${call.tool} ${JSON.stringify(call.arguments)?.slice(0, 300)}`;
      let result: Result;
      try {
        result = (await target.clients[call.generation].callTool({
          name: call.tool,
          ...(call.arguments !== undefined && { arguments: call.arguments }),
        })) as Result;
      } catch (error) {
        throw new Error(`${said}: the client could not read the answer: ${String(error)}`);
      }
      const fault = mcpFaultOf(result);
      if (fault) throw new Error(`${said}: ${fault}`);
      const outcome = result.isError
        ? ((textJson(result) as { error: { code: string } }).error.code ?? 'error')
        : 'ok';
      const tally = figures.outcomes[call.generation];
      tally[outcome] = (tally[outcome] ?? 0) + 1;
    }),
    { seed: options.seed, numRuns: options.numRuns, endOnFailure: true },
  );
  figures.seconds = (performance.now() - started) / 1000;
  return figures;
};

/** `npm run fuzz`'s MCP part: a browser for the consents, the target, the run, and its figures. */
export const runMcpFuzz = async (stack: RunningStack, seed: number, numRuns: number) => {
  const browser = await launchChromium();
  try {
    const target = await mcpFuzzTarget(stack, browser);
    try {
      const figures = await fuzzMcp(target, { seed, numRuns });
      return {
        seed,
        cases: figures.cases,
        seconds: Number(figures.seconds.toFixed(1)),
        cases_per_second: Number((figures.cases / figures.seconds).toFixed(0)),
        outcomes: figures.outcomes,
      };
    } finally {
      await target.close();
    }
  } finally {
    await browser.close();
  }
};
