// identity provider -> recording a person's consent: what the consent prompt found missing from the
// client's grant (OpenID scopes and claims, each resource's scopes) is added to it, a new grant if it
// has none, and saved; oidc-provider then issues within what the grant holds. An MCP server's scope is
// recorded with the environments the person ticked (resources.ts), which its tokens then name.
import type Provider from 'oidc-provider';
import type { Grant, Interaction } from 'oidc-provider';
import type { Environment } from '../core/model';
import { grantedResourceScope } from './resources';

/** What oidc-provider's consent prompt reports as not yet granted. */
interface MissingFromGrant {
  missingOIDCScope?: string[];
  missingOIDCClaims?: string[];
  missingResourceScopes?: Record<string, string[]>;
}

/** Saves the grant with what the person allowed; answers its id, or null when the interaction has no person or client. */
export const recordConsent = async (
  provider: Provider,
  interaction: Interaction,
  environments: readonly Environment[],
): Promise<string | null> => {
  const accountId = interaction.session?.accountId;
  const clientId = interaction.params.client_id;
  if (accountId === undefined || typeof clientId !== 'string') return null;
  const existing: Grant | undefined = interaction.grantId
    ? await provider.Grant.find(interaction.grantId)
    : undefined;
  const grant = existing ?? new provider.Grant({ accountId, clientId });
  const missing = interaction.prompt.details as MissingFromGrant;
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
    grant.addResourceScope(indicator, grantedResourceScope(scopes, environments));
  return grant.save();
};
