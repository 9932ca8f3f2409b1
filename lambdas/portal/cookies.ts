// portal -> its two cookies: the session's and a sign-in's under way. Both HttpOnly (no script reads
// them), SameSite=Lax (sent on the top-level return from the identity provider, never on another site's
// request), Secure and `__Host-` named when deployed on https; each names only a server-side record.
export interface CookiePolicy {
  /** Deployed (https): `Secure`, and the `__Host-` prefix that pins a cookie to this origin. */
  secure: boolean;
}

export const sessionCookieName = (policy: CookiePolicy): string =>
  policy.secure ? '__Host-portal_session' : 'portal_session';

export const signInCookieName = (policy: CookiePolicy): string =>
  policy.secure ? '__Host-portal_sign_in' : 'portal_sign_in';

/** The cookies a request carries, by name; a repeated name keeps its first value. */
export const readCookies = (header: string | undefined): Map<string, string> => {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    if (!cookies.has(name)) cookies.set(name, part.slice(at + 1).trim());
  }
  return cookies;
};

/** A `Set-Cookie` value; `maxAgeSeconds` 0 clears it. */
export const setCookie = (name: string, value: string, maxAgeSeconds: number, policy: CookiePolicy): string =>
  [
    `${name}=${value}`,
    'Path=/',
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(policy.secure ? ['Secure'] : []),
  ].join('; ');
