// identity provider -> the security headers of every answer oidc-provider makes itself (discovery, JWKS,
// tokens, registration, and its few pages: errors, signing out, and the form_post answer). Set before
// it runs, so the form_post answer can add its inline script's hash to `script-src`; finished after it,
// when the client is known, so that an HTML page's forms may go on to that client's validated
// redirect address.
import type { Client, KoaContextWithOIDC } from 'oidc-provider';
import {
  BASE_SECURITY_HEADERS,
  contentSecurityPolicy,
  pageHeaders,
  scriptHashSources,
} from './page-security';

/** The client's registered addresses the request names, which its page's forms may lead to. */
const redirectTargets = (
  client: Client | undefined,
  params: Record<string, unknown> | undefined,
): string[] => {
  if (!client || !params) return [];
  const targets: string[] = [];
  const { redirect_uri: redirect, post_logout_redirect_uri: postLogout } = params;
  if (typeof redirect === 'string' && client.redirectUriAllowed(redirect)) targets.push(redirect);
  if (typeof postLogout === 'string' && client.postLogoutRedirectUriAllowed(postLogout))
    targets.push(postLogout);
  return targets;
};

export const securingAnswers = async (
  ctx: KoaContextWithOIDC,
  next: () => Promise<unknown>,
): Promise<void> => {
  ctx.set({ ...BASE_SECURITY_HEADERS, 'Content-Security-Policy': contentSecurityPolicy() });
  await next();
  if (!ctx.response.is('html')) return;
  // `ctx.oidc` exists only on oidc-provider's own routes.
  const oidc = ctx.oidc as KoaContextWithOIDC['oidc'] | undefined;
  ctx.set(
    pageHeaders({
      formTargets: redirectTargets(oidc?.client, oidc?.params),
      scriptSources: scriptHashSources(ctx.response.get('Content-Security-Policy')),
    }),
  );
};
