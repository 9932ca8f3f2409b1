// identity provider -> the upstream sign-in (deployed: an Amazon Cognito user pool; decisions.md §10): the
// person signs in there instead of on the provider's own password pages, through the authorization code
// flow with PKCE (S256), state and nonce, via `openid-client`, which checks the answer's issuer, state,
// code and ID token. The checks are kept in an HttpOnly cookie scoped to the callback, which binds the
// answer to the browser that started it; the state names the interaction it finishes.
import * as oidc from 'openid-client';
import { cachedDiscovery } from '../adapters/oidc-discovery';
import { UPSTREAM_CALLBACK_PATH } from '../core/settings';

const CHECKS_COOKIE = 'upstream_sign_in';
const CHECKS_SECONDS = 10 * 60;

export interface UpstreamSettings {
  /** The upstream's issuer identifier, e.g. `https://cognito-idp.{region}.amazonaws.com/{pool id}`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** Who signed in upstream: their subject there, and their email if the upstream verified it. */
export interface UpstreamPerson {
  subject: string;
  email: string;
}

/** Thrown when the upstream's answer is refused (cancelled, a check failed, no verified email). */
export class UpstreamRefused extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UpstreamRefused';
  }
}

interface Checks {
  uid: string;
  state: string;
  nonce: string;
  verifier: string;
}

const cookieValueOf = (header: string | undefined): string | undefined =>
  (header ?? '')
    .split(';')
    .map((pair) => pair.trim().split('='))
    .find(([name]) => name === CHECKS_COOKIE)?.[1];

export class UpstreamSignIn {
  private readonly redirectUri: string;
  private readonly secure: boolean;
  private readonly config: () => Promise<oidc.Configuration>;

  constructor(
    settings: UpstreamSettings,
    /** The provider's own origin. */
    origin: string,
  ) {
    this.redirectUri = `${origin}${UPSTREAM_CALLBACK_PATH}`;
    this.secure = new URL(origin).protocol === 'https:';
    this.config = cachedDiscovery(settings);
  }

  /** Where to send the person to sign in for interaction `uid`, and the cookie holding the checks. */
  async start(uid: string): Promise<{ url: string; cookie: string }> {
    const config = await this.config();
    const checks: Checks = {
      uid,
      state: `${uid}.${oidc.randomState()}`,
      nonce: oidc.randomNonce(),
      verifier: oidc.randomPKCECodeVerifier(),
    };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.verifier),
      code_challenge_method: 'S256',
      state: checks.state,
      nonce: checks.nonce,
    });
    const value = Buffer.from(JSON.stringify(checks)).toString('base64url');
    return { url: url.href, cookie: this.cookie(value, CHECKS_SECONDS) };
  }

  /** The cookie that forgets the checks, set with the answer to the callback. */
  clearCookie(): string {
    return this.cookie('', 0);
  }

  /** Checks the upstream's answer at `callbackUrl`: the interaction it finishes and who signed in. */
  async finish(
    callbackUrl: URL,
    cookieHeader: string | undefined,
  ): Promise<{ uid: string; person: UpstreamPerson }> {
    const checks = this.checksOf(cookieHeader);
    const config = await this.config();
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(
        config,
        callbackUrl,
        {
          pkceCodeVerifier: checks.verifier,
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          idTokenExpected: true,
        },
        { redirect_uri: this.redirectUri },
      );
    } catch (error) {
      if (error instanceof oidc.AuthorizationResponseError || error instanceof oidc.ResponseBodyError)
        throw new UpstreamRefused(error.error_description ?? error.error, { cause: error });
      if (error instanceof oidc.ClientError) throw new UpstreamRefused(error.message, { cause: error });
      throw error;
    }
    const claims = tokens.claims();
    if (!claims) throw new UpstreamRefused('the upstream sent no ID token');
    // A person is their email here: only one the upstream verified is taken.
    if (typeof claims.email !== 'string' || claims.email_verified !== true)
      throw new UpstreamRefused('the upstream sent no verified email');
    return { uid: checks.uid, person: { subject: claims.sub, email: claims.email } };
  }

  private checksOf(cookieHeader: string | undefined): Checks {
    const value = cookieValueOf(cookieHeader);
    try {
      const checks = JSON.parse(Buffer.from(value ?? '', 'base64url').toString('utf8')) as Partial<Checks>;
      const { uid, state, nonce, verifier } = checks;
      if ([uid, state, nonce, verifier].every((part) => typeof part === 'string')) return checks as Checks;
    } catch {
      // Not JSON: refused below.
    }
    throw new UpstreamRefused('this sign-in was not started in this browser, or has expired');
  }

  private cookie(value: string, maxAge: number): string {
    return [
      `${CHECKS_COOKIE}=${value}`,
      `Path=${UPSTREAM_CALLBACK_PATH}`,
      `Max-Age=${maxAge}`,
      'HttpOnly',
      // Sent on the top-level return from the upstream, never on another site's request.
      'SameSite=Lax',
      ...(this.secure ? ['Secure'] : []),
    ].join('; ');
  }
}
