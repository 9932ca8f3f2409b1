// test support -> a coding agent connecting to the service's MCP server as a real one does: the official
// SDK's client over streamable HTTP, with the SDK's own OAuth flow (the 401's challenge, protected
// resource metadata, authorization server discovery, dynamic client registration, PKCE S256, the
// `resource` parameter, the token request). The person's part, signing in and allowing the agent, is
// played in headless Chromium on the identity provider's pages, by the labels a person reads.
import {
  Client,
  type OAuthClientProvider,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import type { Browser, Page } from 'playwright-core';
import { arrivalAt, startRedirectReceiver } from '../browser/identity-client';

/** The revision a client speaks: the current one (2026-07-28, no session) or the previous one. */
export type Revision = 'current' | 'previous';

type Tokens = Awaited<ReturnType<OAuthClientProvider['tokens']>>;
type ClientInformation = Awaited<ReturnType<OAuthClientProvider['clientInformation']>>;
type DiscoveryState = Parameters<NonNullable<OAuthClientProvider['saveDiscoveryState']>>[0];

/** Keeps what the SDK's OAuth flow saves, in memory, as an agent keeps it on disk; records the redirect. */
export class RecordingOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  savedTokens: Tokens;
  information: ClientInformation;
  /** Which authorization server the redirect went to, so the callback is checked against it (SEP-2352). */
  discovery: DiscoveryState | undefined;
  private verifier = '';

  constructor(
    readonly redirectUri: string,
    private readonly clientName = 'Test coding agent',
  ) {}

  get redirectUrl(): string {
    return this.redirectUri;
  }

  get clientMetadata() {
    return {
      client_name: this.clientName,
      redirect_uris: [this.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: NonNullable<ClientInformation>) {
    this.information = information;
  }
  tokens() {
    return this.savedTokens;
  }
  saveTokens(tokens: NonNullable<Tokens>) {
    this.savedTokens = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: DiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}

/** The person at the identity provider's pages. */
export interface Person {
  email: string;
  password: string;
}

/** The environments the person ticks on the consent page (decisions.md §10); left as offered when absent. */
export type Environments = ReadonlyArray<'sandbox' | 'production'>;

const ENVIRONMENT_LABELS = [
  ['sandbox', 'Sandbox'],
  ['production', 'Production'],
] as const;

/** Which environment checkboxes the consent page offered ticked (absent: not offered). */
export type Offered = Partial<Record<'sandbox' | 'production', boolean>>;

export interface AuthorizeOptions {
  signUp?: boolean;
  environments?: Environments;
}

const fill = (page: Page, label: string, value: string) =>
  page.getByLabel(label, { exact: true }).fill(value);
const press = (page: Page, name: string) => page.getByRole('button', { name, exact: true }).click();

/**
 * The person's side of an authorization: signs in (creating the account first when `signUp`), allows the
 * agent if asked, and answers what reached the agent's redirect address.
 */
export const authorizeInBrowser = async (
  browser: Browser,
  authorizationUrl: URL,
  redirectUri: string,
  person: Person,
  { signUp = false, environments }: AuthorizeOptions = {},
): Promise<{ params: URLSearchParams; pagesSeen: string[]; offered: Offered }> => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const pagesSeen: string[] = [];
    const offered: Offered = {};
    await page.goto(authorizationUrl.toString());
    if (signUp) {
      await page.getByRole('link', { name: 'Create account' }).click();
      await page.waitForURL(/\/sign-up$/);
      await fill(page, 'Email', person.email);
      await fill(page, 'Password', person.password);
      await press(page, 'Create account');
    } else {
      await fill(page, 'Email', person.email);
      await fill(page, 'Password', person.password);
      await press(page, 'Sign in');
    }
    // Consent, asked once per person and client; then the browser arrives at the agent's address.
    const allow = page.getByRole('button', { name: 'Allow', exact: true });
    const arrived = arrivalAt(page, redirectUri);
    const consent = await Promise.race([
      allow.waitFor().then(() => 'consent' as const),
      arrived.then(() => 'arrived' as const),
    ]);
    if (consent === 'consent') {
      // What the person reads as offered (the text shown, not the sentences the stylesheet hides), and
      // again after ticking the environments they chose.
      pagesSeen.push(await page.locator('main').innerText());
      for (const [environment, label] of ENVIRONMENT_LABELS) {
        const box = page.getByLabel(label, { exact: true });
        if ((await box.count()) === 0) continue;
        offered[environment] = await box.isChecked();
        if (environments) await box.setChecked(environments.includes(environment));
      }
      if (environments) pagesSeen.push(await page.locator('main').innerText());
      await allow.click();
    }
    return { params: await arrived, pagesSeen, offered };
  } finally {
    await context.close();
  }
};

export interface ConnectedAgent {
  client: Client;
  provider: RecordingOAuthProvider;
  /** What the consent page said, when the person was asked (as offered, then as ticked). */
  consentText: string[];
  /** Which environments it offered ticked. */
  consentOffered: Offered;
  close(): Promise<void>;
}

const newClient = (revision: Revision) =>
  new Client(
    { name: 'test-agent', version: '1.0.0' },
    revision === 'current' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );

/** Connects with tokens the provider already holds (no browser). */
export const connectWith = async (
  mcpUrl: string,
  provider: RecordingOAuthProvider,
  revision: Revision = 'current',
): Promise<Client> => {
  const client = newClient(revision);
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
  return client;
};

/**
 * An agent connecting for the first time: the SDK's client meets the 401, discovers, registers and sends
 * the person to sign in; the person allows it; the SDK exchanges the code; the agent connects.
 */
export const connectAgent = async (
  browser: Browser,
  mcpUrl: string,
  person: Person,
  options: AuthorizeOptions & { revision?: Revision; clientName?: string } = {},
): Promise<ConnectedAgent> => {
  const receiver = await startRedirectReceiver();
  try {
    const provider = new RecordingOAuthProvider(receiver.redirectUri, options.clientName);
    const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
    const first = newClient(options.revision ?? 'current');
    await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    if (!provider.authorizationUrl) throw new Error('the SDK did not start an authorization');
    const { params, pagesSeen, offered } = await authorizeInBrowser(
      browser,
      provider.authorizationUrl,
      receiver.redirectUri,
      person,
      options,
    );
    const code = params.get('code');
    if (!code) throw new Error(`no code came back: ${params.toString()}`);
    await transport.finishAuth(params);
    const client = await connectWith(mcpUrl, provider, options.revision);
    return {
      client,
      provider,
      consentText: pagesSeen,
      consentOffered: offered,
      close: () => client.close(),
    };
  } finally {
    await receiver.stop();
  }
};

/** A tool call's result as either SDK generation answers it. */
export interface ToolResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
}

/**
 * A tool's answer in the shape decisions.md §10 fixes: a success is `structuredContent` with the same
 * JSON as text; an error is `isError` with `{error:{code,message}}` as its text and no `structuredContent`.
 */
export const answerOf = (result: ToolResult) => {
  const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
  const text = content.find((block) => block.type === 'text')?.text;
  const json = text === undefined ? undefined : JSON.parse(text);
  if (result.isError === true) {
    expect(result.structuredContent).toBeUndefined();
    expect(json).toEqual({ error: { code: expect.any(String), message: expect.any(String) } });
  } else expect(json).toEqual(result.structuredContent);
  return {
    isError: result.isError === true,
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back and assert on it.
    body: json as Record<string, any>,
  };
};

/** A client of either SDK generation, as far as calling tools goes. */
export interface ToolCaller {
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<object>;
}

/** A tool's answer: its JSON, and whether it was an error. */
export const callTool = async (client: ToolCaller, name: string, args: Record<string, unknown> = {}) =>
  answerOf((await client.callTool({ name, arguments: args })) as ToolResult);

/** A tool's answer that must be a success. */
export const ok = async (client: ToolCaller, name: string, args: Record<string, unknown> = {}) => {
  const result = await callTool(client, name, args);
  if (result.isError) throw new Error(`${name} refused: ${JSON.stringify(result.body)}`);
  return result.body;
};

/** A tool's refusal: its error code. */
export const refusal = async (client: ToolCaller, name: string, args: Record<string, unknown> = {}) => {
  const result = await callTool(client, name, args);
  if (!result.isError) throw new Error(`${name} answered: ${JSON.stringify(result.body)}`);
  return result.body.error.code as string;
};
