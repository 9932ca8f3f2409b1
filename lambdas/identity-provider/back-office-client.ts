// identity provider -> the back office (decisions.md §11) as a first-party client beside the portal: its
// own id, name and addresses under its own origin, so that a sign-in for one is never a sign-in for the
// other (each keeps its own session after the code is exchanged).
import type { FirstPartyClient } from './settings';

/** The back office's client id at the identity provider. */
export const BACK_OFFICE_CLIENT_ID = 'back_office';

/** Where the back office's sign-in returns, under its origin. */
export const backOfficeRedirectUri = (backOfficeOrigin: string): string =>
  `${backOfficeOrigin}/auth/callback`;

export const backOfficeClient = (backOfficeOrigin: string, clientSecret: string): FirstPartyClient => ({
  clientId: BACK_OFFICE_CLIENT_ID,
  clientName: 'Back office',
  clientSecret,
  redirectUris: [backOfficeRedirectUri(backOfficeOrigin)],
  postLogoutRedirectUris: [`${backOfficeOrigin}/`],
});
