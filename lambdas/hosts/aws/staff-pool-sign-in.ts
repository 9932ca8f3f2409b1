// host -> the back office's sign-in at the staff user pool (Cognito): the authorization code flow of
// PortalSignIn, which the pool's OpenID Connect metadata serves, but for the sign-out, which Cognito does
// not advertise (no `end_session_endpoint`): its own `/logout` of the pool's domain, back to the back office.
import { PortalSignIn, type SignInSettings } from '../../portal/sign-in';

export interface StaffPoolSignInSettings extends SignInSettings {
  /** The pool's domain, `https://{prefix}.auth.{region}.amazoncognito.com`. */
  signOutPagesUrl: string;
}

export class StaffPoolSignIn extends PortalSignIn {
  private readonly logoutUrl: string;

  constructor(settings: StaffPoolSignInSettings) {
    super(settings);
    const url = new URL('/logout', settings.signOutPagesUrl);
    url.searchParams.set('client_id', settings.clientId);
    // One of the client's sign-out addresses (lib/back-office.ts).
    url.searchParams.set('logout_uri', settings.postLogoutRedirectUri);
    this.logoutUrl = url.href;
  }

  /** Cognito's sign-out page, which ends the pool's session and returns to the back office. */
  override async endSessionUrl(): Promise<string> {
    return this.logoutUrl;
  }
}
