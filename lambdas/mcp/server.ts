// mcp -> the MCP server itself, built with the official SDK for each request (stateless, so that any
// Lambda instance answers any request): the 19 tools, for the person the access token names. It speaks
// the current protocol revision (2026-07-28, no session) and the previous one (2025-11-25, served
// statelessly by the SDK's fallback) for clients that still speak it.
import { type McpRequestContext, McpServer } from '@modelcontextprotocol/server';
import { ENVIRONMENTS, type Environment } from '../core/model';
import { MCP_TOOLS } from './tools';
import { advertisedOnly, callTool, type McpWorkspace, outputSchemaOf } from './tools/tool';

/** The revisions served: the current one first. */
export const MCP_PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25'];

export const MCP_SERVER_INFO = { name: 'contract-service', title: 'Contract service', version: '1.0.0' };

const INSTRUCTIONS = [
  "Does a person's developer-portal tasks on the contract publishing service, in its sandbox and production environments: their organisation, integrations, API keys, webhook endpoints and messages, and request history.",
  'Call get_organisation first; until the person creates an organisation (create_organisation), every other tool answers organisation_required.',
  'Tools that touch one environment take `environment` (sandbox or production). API keys and webhook secrets are shown once: do not repeat them in conversation.',
  'Revoking keys and deleting or disabling endpoints cannot be undone: do it only when the person asked.',
  'No tool sends a contract.',
].join(' ');

/** What the bearer check stored for the tools: the person the token was issued for, and the environments their grant allows. */
export interface McpAuthExtra {
  personId: string;
  environments: readonly Environment[];
}

const callerOf = (context: McpRequestContext): McpAuthExtra => {
  const extra = context.authInfo?.extra as Partial<McpAuthExtra> | undefined;
  const { personId, environments } = extra ?? {};
  // The HTTP face serves nobody without an accepted token; reaching here without one is a wiring fault.
  if (typeof personId !== 'string' || !Array.isArray(environments))
    throw new Error('an MCP server was asked for without an accepted token');
  return { personId, environments: ENVIRONMENTS.filter((environment) => environments.includes(environment)) };
};

/** The SDK's server factory: a server whose tools act for the token's person. */
export const mcpServerFactory =
  (workspace: McpWorkspace) =>
  (context: McpRequestContext): McpServer => {
    const toolContext = { workspace, ...callerOf(context) };
    const server = new McpServer(MCP_SERVER_INFO, {
      supportedProtocolVersions: MCP_PROTOCOL_VERSIONS,
      capabilities: { tools: {} },
      instructions: INSTRUCTIONS,
    });
    for (const definition of MCP_TOOLS)
      server.registerTool(
        definition.name,
        {
          title: definition.title,
          description: definition.description,
          inputSchema: advertisedOnly(definition.input),
          outputSchema: outputSchemaOf(definition.output),
          annotations: { title: definition.title, ...definition.annotations },
        },
        (args: unknown) => callTool(definition, toolContext, args),
      );
    return server;
  };
