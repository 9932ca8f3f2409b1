// portal -> its two cookies: the session's and a sign-in's under way. Both HttpOnly (no script reads
// them), SameSite=Lax (sent on the top-level return from the identity provider, never on another site's
// request), Secure and `__Host-` named when deployed on https; each names only a server-side record.
export { readCookies } from '../api/http/cookies';

export interface CookiePolicy {
  /** Deployed (https): `Secure`, and the `__Host-` prefix that pins a cookie to this origin. */
  secure: boolean;
}

export const sessionCookieName = (policy: CookiePolicy): string =>
  policy.secure ? '__Host-portal_session' : 'portal_session';

export const signInCookieName = (policy: CookiePolicy): string =>
  policy.secure ? '__Host-portal_sign_in' : 'portal_sign_in';

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
