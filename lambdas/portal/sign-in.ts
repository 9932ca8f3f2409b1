// portal -> signing a person in at the identity provider as its confidential client `portal`: the
// authorization code flow with PKCE (S256), state and nonce, through `openid-client`, which checks
// the answer's issuer, state, code and ID token (signature, audience, nonce, expiry) as the
// certification profile requires. The tokens are used once, here, to learn who signed in, and then
// dropped: the person's session is the portal's own (sessions.ts).
import * as oidc from 'openid-client';
import { cachedDiscovery } from '../adapters/oidc-discovery';

export interface SignInSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** `{portal}/auth/callback`, as registered at the identity provider. */
  redirectUri: string;
  /** Where the identity provider's sign-out returns: the portal's home page. */
  postLogoutRedirectUri: string;
}

/** What the identity provider says of the person who signed in. */
export interface SignedInPerson {
  personId: string;
  email: string;
}

export interface SignInStart {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface SignInChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Thrown when the identity provider's answer is refused (the person cancelled, or a check failed). */
export class SignInFailed extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SignInFailed';
  }
}

export class PortalSignIn {
  private readonly config: () => Promise<oidc.Configuration>;

  constructor(private readonly settings: SignInSettings) {
    this.config = cachedDiscovery(settings);
  }

  async start(): Promise<SignInStart> {
    const config = await this.config();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUri,
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state, nonce, codeVerifier };
  }

  /** Checks the answer at `callbackUrl` and asks who signed in; throws `SignInFailed` when refused. */
  async finish(callbackUrl: URL, checks: SignInChecks): Promise<SignedInPerson> {
    const config = await this.config();
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      if (error instanceof oidc.AuthorizationResponseError || error instanceof oidc.ResponseBodyError)
        throw new SignInFailed(error.error_description ?? error.error, { cause: error });
      // A check of the answer failed (state, issuer, ID token): a forged or replayed callback.
      if (error instanceof oidc.ClientError) throw new SignInFailed(error.message, { cause: error });
      throw error;
    }
    const claims = tokens.claims();
    if (!claims) throw new SignInFailed('the identity provider sent no ID token');
    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    if (typeof info.email !== 'string') throw new SignInFailed('the identity provider sent no email');
    return { personId: claims.sub, email: info.email };
  }

  /** The identity provider's sign-out page (it asks the person), returning to the portal. */
  async endSessionUrl(): Promise<string> {
    const config = await this.config();
    return oidc.buildEndSessionUrl(config, {
      client_id: this.settings.clientId,
      post_logout_redirect_uri: this.settings.postLogoutRedirectUri,
    }).href;
  }
}
