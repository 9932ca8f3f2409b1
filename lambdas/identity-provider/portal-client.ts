// identity provider -> the portal as its first-party client, the same wherever both run: its id, name and
// addresses under the portal's origin (`/auth/callback` for the sign-in, `/` after sign-out).
import type { FirstPartyClient } from './settings';

/** The portal's client id at the identity provider. */
export const PORTAL_CLIENT_ID = 'portal';

/** Where the portal's sign-in returns, under its origin. */
export const portalRedirectUri = (portalOrigin: string): string => `${portalOrigin}/auth/callback`;

export const portalClient = (portalOrigin: string, clientSecret: string): FirstPartyClient => ({
  clientId: PORTAL_CLIENT_ID,
  clientName: 'Developer portal',
  clientSecret,
  redirectUris: [portalRedirectUri(portalOrigin)],
  postLogoutRedirectUris: [`${portalOrigin}/`],
});
