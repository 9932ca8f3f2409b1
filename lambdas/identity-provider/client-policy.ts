// identity provider -> the service's rule on where any client (registered dynamically, static, or later
// described by a client ID metadata document) may have a person's browser sent: an https address, an
// http address on this machine's loopback (a native or command-line client's own listener), or an app's
// own scheme (`com.example.app:/callback`; oidc-provider lets only native clients use one). Plain http
// to another host would carry codes in the clear. oidc-provider checks the rest (exact matching, no
// fragments, the native and web rules).
import { errors, type KoaContextWithOIDC } from 'oidc-provider';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** The client metadata the rule applies to. */
export const REDIRECT_METADATA = ['redirect_uris', 'post_logout_redirect_uris'] as const;

export const isAllowedRedirect = (uri: string): boolean => {
  const url = URL.parse(uri);
  if (!url) return false;
  if (url.protocol === 'https:') return true;
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname);
  return true;
};

/** `extraClientMetadata.validator`, called for each of `REDIRECT_METADATA` whenever a client is read. */
export const checkRedirectMetadata = (
  _ctx: KoaContextWithOIDC | undefined,
  key: string,
  value: unknown,
): void => {
  if (!Array.isArray(value)) return;
  const refused = value.find((uri) => typeof uri === 'string' && !isAllowedRedirect(uri));
  if (refused !== undefined)
    throw new errors.InvalidRedirectUri(
      `${key} must be https addresses, http addresses on a loopback host (127.0.0.1, [::1], localhost), or an app's own scheme`,
    );
};
