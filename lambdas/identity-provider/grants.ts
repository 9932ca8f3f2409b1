// identity provider -> which grant an authorization request starts from (`loadExistingGrant`). The
// service's own applications (the portal) are trusted: their grant is made or topped up with what they
// ask, so the person is never asked to consent to the service itself. Any other client's grant is the
// one this browser session holds for it, or else the latest the person gave it anywhere, so a person
// consents once per client, not once per browser; what the grant lacks, the consent prompt asks for.
import type { Grant, KoaContextWithOIDC } from 'oidc-provider';
import type { ClientGrants } from '../core/ports';

const addRequested = (ctx: KoaContextWithOIDC, grant: Grant): void => {
  const { oidc } = ctx;
  if (oidc.requestParamOIDCScopes.size > 0) grant.addOIDCScope([...oidc.requestParamOIDCScopes]);
  if (oidc.requestParamClaims.size > 0) grant.addOIDCClaims([...oidc.requestParamClaims]);
  for (const [indicator, server] of Object.entries(oidc.resourceServers ?? {})) {
    const scopes = [...oidc.requestParamScopes].filter((scope) => server.scopes.has(scope));
    if (scopes.length > 0) grant.addResourceScope(indicator, scopes.join(' '));
  }
};

export const loadExistingGrant =
  (firstPartyClientIds: ReadonlySet<string>, grants: ClientGrants) =>
  async (ctx: KoaContextWithOIDC): Promise<Grant | undefined> => {
    const { oidc } = ctx;
    const client = oidc.client;
    const accountId = oidc.session?.accountId;
    if (!client || !accountId) return undefined;
    const { Grant } = oidc.provider;
    const find = async (grantId: string | undefined): Promise<Grant | undefined> => {
      const grant = grantId ? await Grant.find(grantId) : undefined;
      // A grant of another person or client is never carried over (oidc-provider would refuse it).
      return grant?.accountId === accountId && grant.clientId === client.clientId ? grant : undefined;
    };
    const resultGrantId = oidc.result?.consent?.grantId;
    const sessionGrantId = oidc.session?.grantIdFor(client.clientId);
    let grant =
      (await find(typeof resultGrantId === 'string' ? resultGrantId : undefined)) ??
      (await find(sessionGrantId));
    if (firstPartyClientIds.has(client.clientId)) {
      grant ??= new Grant({ accountId, clientId: client.clientId });
      addRequested(ctx, grant);
      await grant.save();
      return grant;
    }
    if (grant) return grant;
    const latest = (await grants.listByPerson(accountId)).find((given) => given.clientId === client.clientId);
    return find(latest?.grantId);
  };
