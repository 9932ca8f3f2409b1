// portal -> the portal's backend, one function from request to answer: its built pages (every page path
// answers the one `index.html`; the script routes by path), the sign-in with the identity provider
// (`/auth/sign-in`, `/auth/callback`), and the JSON routes under `/api/` for a signed-in person. Every
// change carries the session's CSRF token in `X-CSRF-Token` and comes from the portal's own origin.
import { timingSafeEqual } from 'node:crypto';
import {
  API_SECURITY_HEADERS,
  type AppFiles,
  fileAnswer,
  PAGE_SECURITY_HEADERS,
} from '../../frontend/app-kit/served-files';
import { errorAnswer, type HttpAnswer, jsonAnswer } from '../api/http/answer';
import { fail, ServiceError } from '../core/errors';
import { log } from '../core/log';
import {
  type PortalSession,
  type PortalSessionStore,
  SESSION_LIFETIME_MICROS,
  SIGN_IN_LIFETIME_MICROS,
} from '../core/portal-sessions';
import type { Clock } from '../core/ports';
import { newRequestId } from '../core/request-ids';
import type { SessionJson } from '../core/shapes';
import { matchRoute, PORTAL_ROUTES, type PortalCore } from './api-routes';
import { type CookiePolicy, readCookies, sessionCookieName, setCookie, signInCookieName } from './cookies';
import type { PortalAnswer, PortalApp, PortalRequest } from './http';
import { hashOf, newSecret, replaceSession } from './session-secrets';
import { type PortalSignIn, SignInFailed } from './sign-in';

export interface PortalBackend {
  /** The portal's own origin, `http://127.0.0.1:3006` locally: the only `Origin` a change may come from. */
  origin: string;
  cookies: CookiePolicy;
  core: PortalCore;
  sessions: PortalSessionStore;
  signIn: PortalSignIn;
  clock: Clock;
  files: AppFiles;
}

const sameText = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** Where a sign-in may return: a path of this origin (never `//host` or `/\host`, which leave it). */
const safeReturnPath = (value: string | null): string =>
  value !== null && /^\/(?![/\\])[A-Za-z0-9_\-/]{0,200}$/.test(value) ? value : '/';

const answerOf = (answer: HttpAnswer, cookies: string[] = []): PortalAnswer => ({
  status: answer.status,
  headers: { ...API_SECURITY_HEADERS, ...answer.headers },
  cookies,
  body: answer.body,
});

const redirect = (location: string, cookies: string[] = []): PortalAnswer => ({
  status: 303,
  headers: { ...PAGE_SECURITY_HEADERS, Location: location, 'Cache-Control': 'no-store' },
  cookies,
  body: '',
});

const isChange = (method: string): boolean => method !== 'GET' && method !== 'HEAD';

export const portalApp = (backend: PortalBackend): PortalApp => {
  const sessionCookie = sessionCookieName(backend.cookies);
  const signInCookie = signInCookieName(backend.cookies);

  const currentSession = async (request: PortalRequest): Promise<PortalSession | null> => {
    const value = readCookies(request.headers.cookie).get(sessionCookie);
    return value ? backend.sessions.getSession(hashOf(value)) : null;
  };

  const startSignIn = async (request: PortalRequest): Promise<PortalAnswer> => {
    const started = await backend.signIn.start();
    const cookie = newSecret();
    await backend.sessions.putSignIn({
      id: hashOf(cookie),
      state: started.state,
      nonce: started.nonce,
      codeVerifier: started.codeVerifier,
      returnTo: safeReturnPath(request.query.get('return_to')),
      expiresAt: backend.clock.now() + SIGN_IN_LIFETIME_MICROS,
    });
    return redirect(started.url, [
      setCookie(signInCookie, cookie, SIGN_IN_LIFETIME_MICROS / 1e6, backend.cookies),
    ]);
  };

  const finishSignIn = async (request: PortalRequest): Promise<PortalAnswer> => {
    const cookie = readCookies(request.headers.cookie).get(signInCookie);
    const cleared = setCookie(signInCookie, '', 0, backend.cookies);
    const pending = cookie ? await backend.sessions.takeSignIn(hashOf(cookie)) : null;
    if (!pending) return redirect('/?sign_in=expired', [cleared]);
    const callback = new URL(`${backend.origin}/auth/callback`);
    callback.search = request.query.toString();
    try {
      const person = await backend.signIn.finish(callback, pending);
      const value = await replaceSession(
        backend.sessions,
        backend.clock,
        person,
        readCookies(request.headers.cookie).get(sessionCookie),
      );
      return redirect(pending.returnTo, [
        cleared,
        setCookie(sessionCookie, value, SESSION_LIFETIME_MICROS / 1e6, backend.cookies),
      ]);
    } catch (error) {
      if (!(error instanceof SignInFailed)) throw error;
      log.info('portal sign-in refused', { reason: error.message });
      return redirect('/?sign_in=failed', [cleared]);
    }
  };

  /** A change must come from this origin (when the browser says where from) with the session's token. */
  const checkChange = (request: PortalRequest, session: PortalSession): void => {
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== backend.origin)
      fail('csrf_invalid', 'Changes are accepted only from the portal itself.');
    const token = request.headers['x-csrf-token'];
    if (token === undefined || !sameText(token, session.csrfToken))
      fail('csrf_invalid', 'Reload the page: this change did not carry the session’s CSRF token.');
    if (request.body !== '' && !/^application\/json\b/i.test(request.headers['content-type'] ?? ''))
      fail('request_invalid', 'Send the body as application/json.');
  };

  const readBody = (body: string): Record<string, unknown> => {
    if (body === '') return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      fail('request_invalid', 'The body is not JSON.');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      fail('request_invalid', 'The body must be a JSON object.');
    return parsed as Record<string, unknown>;
  };

  const api = async (request: PortalRequest, requestId: string): Promise<PortalAnswer> => {
    const session = await currentSession(request);
    if (request.path === '/api/session' && request.method === 'GET')
      return answerOf(
        jsonAnswer(requestId, 200, {
          signed_in: session !== null,
          email: session?.email ?? null,
          csrf_token: session?.csrfToken ?? null,
        } satisfies SessionJson),
      );
    if (session === null)
      fail('authentication_required', 'Sign in to the portal first.', {
        headers: { 'WWW-Authenticate': 'Bearer' },
      });
    if (isChange(request.method)) checkChange(request, session);
    if (request.path === '/api/sign-out' && request.method === 'POST') {
      await backend.sessions.deleteSession(session.id);
      return answerOf(
        jsonAnswer(requestId, 200, { signed_out: true, next: await backend.signIn.endSessionUrl() }),
        [setCookie(sessionCookie, '', 0, backend.cookies)],
      );
    }
    const matched = matchRoute(PORTAL_ROUTES, request.method, request.path);
    if (matched === null) throw new ServiceError('not_found', 'No portal route answers this path.');
    if ('allowed' in matched)
      throw new ServiceError('method_not_allowed', `Use ${matched.allowed.join(' or ')} here.`, {
        headers: { Allow: matched.allowed.join(', ') },
      });
    const result = await matched.route.run({
      core: backend.core,
      session,
      params: matched.params,
      query: [...request.query.entries()],
      body: readBody(request.body),
    });
    return answerOf(jsonAnswer(requestId, result.status ?? 200, result.body));
  };

  const page = (request: PortalRequest): PortalAnswer => ({
    ...fileAnswer(backend.files, request.method, request.path, request.headers['if-none-match']),
    cookies: [],
  });

  return async (request: PortalRequest): Promise<PortalAnswer> => {
    const requestId = newRequestId();
    try {
      if (request.path === '/api' || request.path.startsWith('/api/')) return await api(request, requestId);
      if (request.path === '/auth/sign-in' && request.method === 'GET') return await startSignIn(request);
      if (request.path === '/auth/callback' && request.method === 'GET') return await finishSignIn(request);
      return page(request);
    } catch (error) {
      return answerOf(errorAnswer(requestId, error));
    }
  };
};
