// test support -> a coding agent of the previous generation: the MCP SDK 1.x client (most agents run it
// today), over streamable HTTP with the SDK 1.x's own OAuth flow, the person's part played in Chromium as
// for the SDK 2.x agent (mcp-agent.ts). Its client checks a tool's `structuredContent` against the tool's
// output schema, errors included, once it has listed the tools: connecting lists them, as agents do.

import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser } from 'playwright-core';
import { startRedirectReceiver } from '../browser/identity-client';
import {
  type AuthorizeOptions,
  authorizeInBrowser,
  type Offered,
  type Person,
  RecordingOAuthProvider,
} from './mcp-agent';

export interface ConnectedSdk1Agent {
  client: Client;
  provider: RecordingOAuthProvider;
  consentText: string[];
  consentOffered: Offered;
  close(): Promise<void>;
}

/** Connects an SDK 1.x client with tokens the provider already holds, and lists the tools. */
export const connectSdk1With = async (mcpUrl: string, provider: RecordingOAuthProvider): Promise<Client> => {
  const client = new Client({ name: 'test-agent-sdk1', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
  await client.listTools();
  return client;
};

/** An SDK 1.x agent connecting for the first time, through the whole OAuth flow. */
export const connectSdk1Agent = async (
  browser: Browser,
  mcpUrl: string,
  person: Person,
  options: AuthorizeOptions & { clientName?: string } = {},
): Promise<ConnectedSdk1Agent> => {
  const receiver = await startRedirectReceiver();
  try {
    const provider = new RecordingOAuthProvider(receiver.redirectUri, options.clientName ?? 'SDK 1 agent');
    const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
    await expect(
      new Client({ name: 'test-agent-sdk1', version: '1.0.0' }).connect(transport),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    if (!provider.authorizationUrl) throw new Error('the SDK 1.x client did not start an authorization');
    const { params, pagesSeen, offered } = await authorizeInBrowser(
      browser,
      provider.authorizationUrl,
      receiver.redirectUri,
      person,
      options,
    );
    const code = params.get('code');
    if (!code) throw new Error(`no code came back: ${params.toString()}`);
    await transport.finishAuth(code);
    const client = await connectSdk1With(mcpUrl, provider);
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
