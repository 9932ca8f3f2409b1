// identity provider -> the resource servers it issues access tokens for: the MCP server of each
// environment, named by exactly its address (`{base_url}/mcp`, RFC 8707). A token for one is a JWT
// (RFC 9068) whose `aud` is that address, signed with the provider's key, so the MCP server checks it
// against the provider's JWKS without a call. Any other resource is refused (`invalid_target`).
// The environments a person lets an MCP client change (the consent page's checkboxes) are kept in the
// grant beside the server's scope, as `environment:sandbox` and `environment:production`, and every
// token issued under the grant names them in its `environments` claim. They are never a scope a client
// can ask for: the claim is read from the grant alone.
import { errors, type Grant, type KoaContextWithOIDC, type ResourceServer } from 'oidc-provider';
import { ENVIRONMENTS, type Environment } from '../core/model';

/** The one scope of an MCP server: acting for the person there. */
export const MCP_SCOPE = 'mcp';

/** MCP access tokens live 15 minutes, as the API's do; the client refreshes them. */
export const MCP_ACCESS_TOKEN_SECONDS = 15 * 60;

export interface McpResource {
  /** The MCP server's address, exactly as clients send it in `resource` and tokens carry it in `aud`. */
  indicator: string;
  environment: Environment;
}

/** `features.resourceIndicators.getResourceServerInfo`. */
export const resourceServerInfo =
  (resources: readonly McpResource[]) =>
  async (_ctx: KoaContextWithOIDC, indicator: string): Promise<ResourceServer> => {
    if (!resources.some((resource) => resource.indicator === indicator))
      throw new errors.InvalidTarget('the resource is not one this server issues tokens for');
    return {
      scope: MCP_SCOPE,
      audience: indicator,
      accessTokenFormat: 'jwt',
      accessTokenTTL: MCP_ACCESS_TOKEN_SECONDS,
      jwt: { sign: { alg: 'RS256' } },
    };
  };

const asList = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === 'string');

/**
 * `extraParams.resource` (its validator runs for every authorization request, after the resource is
 * checked): a request for an MCP server asks for its scope whether or not it says so. MCP clients often
 * send no scope; without one, oidc-provider would neither ask the person's consent for the resource nor
 * record it in the grant, and a request for `openid` alone could carry a token for the MCP server.
 */
export const implyResourceScope =
  (resources: readonly McpResource[]) =>
  async (ctx: KoaContextWithOIDC, value: unknown): Promise<void> => {
    const params = ctx.oidc.params;
    if (!params || !asList(value).some((indicator) => resources.some((r) => r.indicator === indicator)))
      return;
    const scopes = new Set(
      asList(params.scope)
        .flatMap((scope) => scope.split(' '))
        .filter(Boolean),
    );
    scopes.add(MCP_SCOPE);
    params.scope = [...scopes].join(' ');
  };

const ENVIRONMENT_PREFIX = 'environment:';

/** What the grant records for an MCP server the person allowed: its scope, and the environments ticked. */
export const grantedResourceScope = (
  scopes: readonly string[],
  environments: readonly Environment[],
): string =>
  [...scopes, ...environments.map((environment) => `${ENVIRONMENT_PREFIX}${environment}`)].join(' ');

/** The environments a grant lets its client change, whichever MCP server they were ticked for. */
export const grantedEnvironments = (grant: Grant | undefined): Environment[] => {
  const held = new Set(
    Object.values(grant?.resources ?? {}).flatMap((scope) =>
      typeof scope === 'string' ? scope.split(' ') : [],
    ),
  );
  return ENVIRONMENTS.filter((environment) => held.has(`${ENVIRONMENT_PREFIX}${environment}`));
};

/** The environments of the MCP servers an authorization request names: ticked at first on the consent page. */
export const requestedEnvironments = (
  resources: readonly McpResource[],
  indicators: readonly string[],
): Environment[] =>
  ENVIRONMENTS.filter((environment) =>
    resources.some((r) => r.environment === environment && indicators.includes(r.indicator)),
  );

/** What the consent page says each requested scope or resource lets the application do. */
export const describeRequest = (
  resources: readonly McpResource[],
  scopes: readonly string[],
  indicators: readonly string[],
): string[] => {
  const said: string[] = [];
  for (const indicator of indicators) {
    const resource = resources.find((r) => r.indicator === indicator);
    if (resource)
      said.push(
        `use the service's MCP server (${indicator}): see and create your organisation and integrations, and change the environments you tick below`,
      );
  }
  if (scopes.includes('email')) said.push('see your email address');
  if (scopes.includes('offline_access')) said.push('keep this access while you are not using it');
  if (said.length === 0) said.push('know who you are on this service');
  return said;
};
