// back office -> its two cookies, made as the portal's are (HttpOnly, SameSite=Lax, Secure and `__Host-`
// named when deployed) but under names of their own: a browser holding both sessions sends each only
// where it belongs, and each names a record of its own scope (decisions.md §11 Rules).
import type { CookiePolicy } from '../portal/cookies';

export { readCookies, setCookie } from '../portal/cookies';
export type { CookiePolicy };

export const backOfficeSessionCookie = (policy: CookiePolicy): string =>
  policy.secure ? '__Host-back_office_session' : 'back_office_session';

export const backOfficeSignInCookie = (policy: CookiePolicy): string =>
  policy.secure ? '__Host-back_office_sign_in' : 'back_office_sign_in';
