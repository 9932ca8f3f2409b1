// portal -> the portal's backend, one Hono app that both adapters serve: its built pages (every page path
// answers the one `index.html`; the script routes by path), the sign-in with the identity provider
// (`/auth/sign-in`, `/auth/callback`), and the JSON routes under `/api/` for a signed-in person
// (api-routes.ts; 404 and 405 answered as the API answers them). Every change carries the session's CSRF token in `X-CSRF-Token` and comes from the portal's own origin.
import { type Context, Hono } from 'hono';
import { errorAnswer, type HttpAnswer, jsonAnswer } from '../api/http/answer';
import { createRouter } from '../api/http/router';
import { API_SECURITY_HEADERS, type AppFiles, fileAnswer } from '../api/http/served-files';
import { fail } from '../core/errors';
import type { PortalSession, PortalSessionStore } from '../core/portal-sessions';
import type { Clock } from '../core/ports';
import { newRequestId } from '../core/request-ids';
import type { SessionJson } from '../core/shapes';
import { PORTAL_ROUTES, type PortalCore } from './api-routes';
import { type CookiePolicy, sessionCookieName, setCookie, signInCookieName } from './cookies';
import { MAX_BODY_BYTES } from './http';
import { isChange, sessionGuard } from './session-guard';
import type { PortalSignIn } from './sign-in';
import { mountSignIn } from './sign-in-routes';

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

/** A JSON answer of the API's shape, with the portal's security headers and its cookies. */
const answerOf = (answer: HttpAnswer, cookies: readonly string[] = []): Response => {
  const headers = new Headers({ ...API_SECURITY_HEADERS, ...answer.headers });
  for (const cookie of cookies) headers.append('Set-Cookie', cookie);
  return new Response(answer.status === 204 ? null : answer.body, { status: answer.status, headers });
};

/** Every route under `/api/`: the table's, and the session's own two. */
const API_ROUTER = createRouter([
  ...PORTAL_ROUTES,
  { method: 'GET', path: '/api/session' },
  { method: 'POST', path: '/api/sign-out' },
]);

/** A path under `/api/` that no route answers with this method: 405 where the path is known, else 404. */
const notRouted = (c: Context<PortalEnv>): never => {
  const allowed = API_ROUTER.methodsAllowed(c.req.path);
  if (allowed.length === 0) fail('not_found', 'No portal route answers this path.');
  return fail('method_not_allowed', `Use ${allowed.join(' or ')} here.`, {
    headers: { Allow: allowed.join(', ') },
  });
};

export interface PortalEnv {
  Variables: { requestId: string; session: PortalSession };
}

export const portalApp = (backend: PortalBackend): Hono<PortalEnv> => {
  const sessionCookie = sessionCookieName(backend.cookies);
  const signInCookie = signInCookieName(backend.cookies);
  const app = new Hono<PortalEnv>();

  const guard = sessionGuard({
    cookie: sessionCookie,
    sessions: backend.sessions,
    origin: backend.origin,
    surface: 'portal',
    maxBodyBytes: MAX_BODY_BYTES,
  });

  app.onError((error, c) => answerOf(errorAnswer(c.get('requestId') ?? newRequestId(), error)));

  app.use('*', async (c, next) => {
    c.set('requestId', newRequestId());
    await next();
  });

  mountSignIn(app, { backend, sessionCookie, signInCookie, name: 'portal' });

  // Hono answers HEAD with a GET route; no route of the API takes HEAD, so it is answered as not routed.
  app.use('/api/*', async (c, next) => (c.req.method === 'HEAD' ? notRouted(c) : next()));

  // Who is signed in, and the session's CSRF token: answered to anyone.
  app.get('/api/session', async (c) => {
    const session = await guard.sessionOf(c.req.raw);
    return answerOf(
      jsonAnswer(c.get('requestId'), 200, {
        signed_in: session !== null,
        email: session?.email ?? null,
        csrf_token: session?.csrfToken ?? null,
      } satisfies SessionJson),
    );
  });

  // Everything else under `/api/` (unknown paths too) needs a session; a change, its CSRF token.
  app.use('/api/*', async (c, next) => {
    const session = await guard.sessionOf(c.req.raw);
    if (session === null)
      fail('authentication_required', 'Sign in to the portal first.', {
        headers: { 'WWW-Authenticate': 'Bearer' },
      });
    if (isChange(c.req.method)) guard.checkChange(c.req.raw, session);
    c.set('session', session);
    await next();
  });

  app.post('/api/sign-out', async (c) => {
    await backend.sessions.deleteSession(c.get('session').id);
    return answerOf(
      jsonAnswer(c.get('requestId'), 200, { signed_out: true, next: await backend.signIn.endSessionUrl() }),
      [setCookie(sessionCookie, '', 0, backend.cookies)],
    );
  });

  for (const route of PORTAL_ROUTES)
    app.on(route.method, route.path, async (c) => {
      const result = await route.handle({
        core: backend.core,
        session: c.get('session'),
        params: c.req.param() as Record<string, string>,
        query: [...new URL(c.req.url).searchParams],
        body: await guard.readChange(c.req.raw),
      });
      return answerOf(jsonAnswer(c.get('requestId'), result.status ?? 200, result.body));
    });

  app.all('/api/*', notRouted);

  // The pages: every page path answers the one `index.html` (the script routes by path), and the assets.
  app.all('*', (c) => {
    const answer = fileAnswer(backend.files, c.req.method, c.req.path, c.req.header('if-none-match'));
    return new Response(answer.status === 304 ? null : (answer.body as BodyInit), {
      status: answer.status,
      headers: answer.headers,
    });
  });

  return app;
};
