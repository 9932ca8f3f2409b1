// mcp -> the tools of an integration's API keys in one environment: the same core functions as the
// portal's API keys page. The key itself is answered once, at creation.
import * as z from 'zod/mini';
import { createApiKey, listApiKeys, revokeApiKey } from '../../core/api-keys';
import type { Environment, Scope } from '../../core/model';
import { integrationScope, keyHolder } from '../../core/organisations';
import { ApiKeyShape, CreatedApiKeyShape, listOf, RevokedApiKeyShape } from '../../core/shapes';
import { callerOrganisation } from './organisation-tools';
import { boundedString, described, environmentArgument, integrationIdArgument } from './shapes';
import { type Tool, type ToolContext, tool } from './tool';

/** The caller's integration in one environment; another organisation's id answers `not_found`. */
export const callerIntegration = async (
  context: ToolContext,
  environment: Environment,
  integrationId: string,
): Promise<Scope> =>
  integrationScope(
    context.workspace.directory,
    await callerOrganisation(context),
    integrationId,
    environment,
  );

const portsOf = (context: ToolContext, environment: Environment) =>
  context.workspace.environments[environment].ports;

export const apiKeyTools: Tool[] = [
  tool({
    name: 'create_api_key',
    title: 'Create an API key',
    description:
      "Creates an API key for an integration in one environment (sandbox keys start svc_test_, production keys svc_live_). The answer's `key` is shown this once and never again: it passes through your model provider, so put it straight into the person's secret store (such as an environment variable) and do not repeat it. The key is exchanged for 15-minute access tokens at POST {base_url}/v1/token.",
    input: z.strictObject({
      environment: environmentArgument,
      integration_id: integrationIdArgument,
      name: z.optional(described(z.string(), 'A name to tell the key apart, such as "Production server".')),
    }),
    output: CreatedApiKeyShape,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    call: async (context, { environment, integration_id, name }) =>
      createApiKey(
        portsOf(context, environment),
        await keyHolder(
          context.workspace.directory,
          await callerIntegration(context, environment, integration_id),
        ),
        name,
      ),
  }),
  tool({
    name: 'list_api_keys',
    title: 'List API keys',
    description:
      "Lists an integration's API keys in one environment, newest first, revoked ones included: each with its prefix (to tell keys apart), when it was last used and whether it is revoked. Never the keys themselves. Changes nothing.",
    input: z.strictObject({ environment: environmentArgument, integration_id: integrationIdArgument }),
    output: listOf(ApiKeyShape),
    annotations: { readOnlyHint: true, openWorldHint: false },
    call: async (context, { environment, integration_id }) =>
      listApiKeys(
        portsOf(context, environment),
        await callerIntegration(context, environment, integration_id),
      ),
  }),
  tool({
    name: 'revoke_api_key',
    title: 'Revoke an API key',
    description:
      'Revokes an API key: POST /v1/token refuses it at once and the access tokens it gave stop working within 60 seconds; it cannot be undone, and whatever program uses the key stops working. Only when the person asked for it. Revoking it again answers the first revocation.',
    input: z.strictObject({
      environment: environmentArgument,
      api_key_id: described(boundedString(100), 'The key id, `key_…` (not the key).'),
    }),
    output: RevokedApiKeyShape,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    call: async (context, { environment, api_key_id }) =>
      revokeApiKey(portsOf(context, environment), await callerOrganisation(context), api_key_id),
  }),
];
