// host -> the composition root of the deployed MCP server (one function per API address): the identity
// provider it trusts (its issuer and JWKS, and its grants in the identity table), the identity table's
// directory, and the ports of both environments, since every tool may act in either. Configuration is
// read once from the environment and validated; clients are built once per instance.
import * as z from 'zod/mini';
import { composeDirectory } from '../../adapters/compose';
import { createDocumentClient } from '../../adapters/dynamodb';
import { oidcLiveGrants } from '../../adapters/dynamodb/oidc-live-grants';
import { systemClock } from '../../adapters/system-clock';
import { translateFault, translatingFaults } from '../../adapters/unavailable';
import { ENVIRONMENTS, type Environment } from '../../core/model';
import { mcpServerUrl } from '../../core/settings';
import { checkAccessToken, remoteKeys } from '../../mcp/access-tokens';
import { mcpHttpHandler } from '../../mcp/http';
import { builtOnFirstUse } from './built-on-first-use';
import { BOTH_ENVIRONMENTS_SETTINGS, bothEnvironments, setting, settingOf } from './environment-services';

const McpConfig = z.object({
  /** Which API address this function serves (`{base_url}/mcp` of that environment). */
  SERVICE_ENVIRONMENT: z.enum(ENVIRONMENTS),
  IDENTITY_TABLE_NAME: setting,
  /** The identity provider's issuer identifier; its JWKS is at `{issuer}/jwks`. */
  IDENTITY_ISSUER: z.url(),
  AWS_REGION: setting,
  ...BOTH_ENVIRONMENTS_SETTINGS,
});

const build = async () => {
  const config = McpConfig.parse(process.env) as Record<string, string>;
  const region = config.AWS_REGION as string;
  const dynamo = createDocumentClient();
  const environments = await bothEnvironments(config, dynamo, region);
  const baseUrls = {
    sandbox: settingOf(config, 'sandbox', 'BASE_URL'),
    production: settingOf(config, 'production', 'BASE_URL'),
  };
  const served = config.SERVICE_ENVIRONMENT as Environment;
  const issuer = (config.IDENTITY_ISSUER as string).replace(/\/+$/, '');
  const resource = mcpServerUrl(baseUrls[served]);
  const identityTable = config.IDENTITY_TABLE_NAME as string;
  const grants = translatingFaults(oidcLiveGrants(dynamo, identityTable, systemClock()));
  const tokens = { issuer, resource, keys: remoteKeys(`${issuer}/jwks`) };
  return {
    origin: new URL(baseUrls[served]).origin,
    handle: mcpHttpHandler(
      { resource, issuer, resourceName: `Contract service MCP server (${served})` },
      (token) => checkAccessToken(tokens, grants, token),
      { directory: composeDirectory(dynamo, identityTable), environments },
    ),
  };
};

/** The MCP server's HTTP face and its public origin, built on first use (Secrets Manager down: a 503). */
export const awsMcpServer = builtOnFirstUse(() =>
  build().catch((error: unknown) => {
    throw translateFault(error);
  }),
);
