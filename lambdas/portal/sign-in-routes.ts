// portal -> the sign-in a browser makes at the identity provider, the same for the portal and the back
// office (each with its own client, session store and cookies): `GET /auth/sign-in` keeps the pending
// sign-in under a cookie of its own and sends the browser to the provider; `GET /auth/callback` finishes
// it into a new session (the browser's previous one deleted) and returns to where the sign-in began.
import type { Env, Hono } from 'hono';
import { PAGE_SECURITY_HEADERS } from '../api/http/served-files';
import { log } from '../core/log';
import {
  type PortalSessionStore,
  SESSION_LIFETIME_MICROS,
  SIGN_IN_LIFETIME_MICROS,
} from '../core/portal-sessions';
import type { Clock } from '../core/ports';
import { type CookiePolicy, readCookies, setCookie } from './cookies';
import { hashOf, newSecret, replaceSession } from './session-secrets';
import { type PortalSignIn, SignInFailed } from './sign-in';

/** Where a sign-in may return: a path of this origin (never `//host` or `/\host`, which leave it). */
const safeReturnPath = (value: string | undefined): string =>
  value !== undefined && /^\/(?![/\\])[A-Za-z0-9_\-/]{0,200}$/.test(value) ? value : '/';

/** A 303 to `location` that is never cached, setting `cookies`. */
export const redirect = (location: string, cookies: readonly string[] = []): Response => {
  const headers = new Headers({ ...PAGE_SECURITY_HEADERS, Location: location, 'Cache-Control': 'no-store' });
  for (const cookie of cookies) headers.append('Set-Cookie', cookie);
  return new Response(null, { status: 303, headers });
};

/** What a served application's backend gives its sign-in: the portal's and the back office's alike. */
export interface SignInBackend {
  /** The application's own origin: the callback's address is under it. */
  origin: string;
  cookies: CookiePolicy;
  sessions: PortalSessionStore;
  signIn: Pick<PortalSignIn, 'start' | 'finish'>;
  clock: Clock;
}

export interface SignInRoutes {
  backend: SignInBackend;
  /** The names of the session's cookie and of the pending sign-in's. */
  sessionCookie: string;
  signInCookie: string;
  /** Who refused a sign-in, in the log line ("portal", "back office"). */
  name: string;
}

/** Adds `/auth/sign-in` and `/auth/callback` to `app`. */
export const mountSignIn = <E extends Env>(app: Hono<E>, routes: SignInRoutes): void => {
  const { sessionCookie, signInCookie, backend } = routes;
  const { cookies: policy, sessions, clock } = backend;

  app.get('/auth/sign-in', async (c) => {
    const started = await backend.signIn.start();
    const cookie = newSecret();
    await sessions.putSignIn({
      id: hashOf(cookie),
      state: started.state,
      nonce: started.nonce,
      codeVerifier: started.codeVerifier,
      returnTo: safeReturnPath(c.req.query('return_to')),
      expiresAt: clock.now() + SIGN_IN_LIFETIME_MICROS,
    });
    return redirect(started.url, [setCookie(signInCookie, cookie, SIGN_IN_LIFETIME_MICROS / 1e6, policy)]);
  });

  app.get('/auth/callback', async (c) => {
    const cookies = readCookies(c.req.header('cookie'));
    const cookie = cookies.get(signInCookie);
    const cleared = setCookie(signInCookie, '', 0, policy);
    const pending = cookie ? await sessions.takeSignIn(hashOf(cookie)) : null;
    if (!pending) return redirect('/?sign_in=expired', [cleared]);
    const callback = new URL(`${backend.origin}/auth/callback`);
    callback.search = new URL(c.req.url).search;
    try {
      const person = await backend.signIn.finish(callback, pending);
      const value = await replaceSession(sessions, clock, person, cookies.get(sessionCookie));
      return redirect(pending.returnTo, [
        cleared,
        setCookie(sessionCookie, value, SESSION_LIFETIME_MICROS / 1e6, policy),
      ]);
    } catch (error) {
      if (!(error instanceof SignInFailed)) throw error;
      log.info(`${routes.name} sign-in refused`, { reason: error.message });
      return redirect('/?sign_in=failed', [cleared]);
    }
  });
};
