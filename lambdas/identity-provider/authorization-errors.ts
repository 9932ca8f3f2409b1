// identity provider -> where an authorization's error is told. OAuth sends it to the client's redirect
// address, but registration is open: anyone can register a client whose address is theirs, and a
// request made to fail (`prompt=none` before any sign-in, a bad `resource`, `Deny`) would then send a
// person's browser from this provider's address straight to that site, an open redirector for phishing.
// RFC 9700 §4.11.2 (the OAuth security BCP, which the MCP authorization specification requires) says
// the provider should redirect automatically only to an address it trusts. Trusted here: the service's
// own clients, and a client the signed-in person has allowed (holds a grant for). For any other, the
// error is shown on this provider's own page and the browser goes nowhere. Successful answers (a code)
// come only after the person allowed the client, so they are not touched.
//
// oidc-provider decides to redirect inside its authorization routes, with no hook to say no; it does tell
// each error as an event (`authorization.error`, `server_error`) before answering, so the error is noted
// then and its answer replaced, once made, by this middleware that runs around those routes.

import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { ClientGrants } from '../core/ports';
import { renderNotice } from './pages/notices';

/** What an error says, as oidc-provider's events and `renderError` give it. */
interface AuthorizationFailure {
  error?: unknown;
  error_description?: unknown;
  statusCode?: unknown;
}

/** The routes whose errors may go to the client's redirect address. */
const AUTHORIZATION_ROUTES = new Set(['authorization', 'resume']);

/** The provider's own page for an error of an authorization (and its `renderError`). */
export const authorizationErrorPage = (failure: AuthorizationFailure): string =>
  renderNotice(
    'Sign-in could not continue',
    typeof failure.error_description === 'string' ? failure.error_description : 'The request was not valid.',
    `Error: ${String(failure.error ?? 'server_error')}. Go back to the application and start again.`,
  );

/**
 * Installs the rule on `provider`: errors of an authorization reach a client's redirect address only for
 * `firstParty` clients and clients the signed-in person holds a grant for (`grants`).
 */
export const showErrorsOfUntrustedClientsHere = (
  provider: Provider,
  firstParty: ReadonlySet<string>,
  grants: ClientGrants,
): void => {
  const failures = new WeakMap<object, AuthorizationFailure>();
  const note = (ctx: KoaContextWithOIDC, error: AuthorizationFailure) => {
    if (AUTHORIZATION_ROUTES.has(ctx.oidc?.route ?? '')) failures.set(ctx, error);
  };
  provider.on('authorization.error', note);
  provider.on('server_error', (ctx: KoaContextWithOIDC) =>
    note(ctx, { error: 'server_error', statusCode: 500 }),
  );

  const trusted = async (ctx: KoaContextWithOIDC): Promise<boolean> => {
    const clientId = ctx.oidc.client?.clientId;
    if (clientId === undefined) return true; // No client: oidc-provider shows its error page itself.
    if (firstParty.has(clientId)) return true;
    const personId = ctx.oidc.session?.accountId;
    if (personId === undefined) return false;
    return (await grants.listByPerson(personId)).some((grant) => grant.clientId === clientId);
  };

  provider.use(async (ctx, next) => {
    await next();
    const failure = failures.get(ctx);
    if (!failure || (await trusted(ctx as KoaContextWithOIDC))) return;
    ctx.remove('Location');
    ctx.status =
      typeof failure.statusCode === 'number' && failure.statusCode >= 400 ? failure.statusCode : 400;
    ctx.type = 'html';
    ctx.body = authorizationErrorPage(failure);
  });
};
