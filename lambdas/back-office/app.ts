// back office -> the backend of the operator's staff's web application (decisions.md §11), one Hono app
// that both adapters serve: sign-in with the identity provider (`/auth/sign-in`, `/auth/callback`) into a
// session of the back office's own (its cookie, its records: never the portal's), and the JSON API under
// `/api/` (routes.ts). Every API call needs a session; a person with no staff role gets 403 `staff_only`
// on all of it but `GET /api/session`; every change carries the session's CSRF token and comes from the
// back office's own origin. Roles are checked by the core's use cases: this layer maps their errors.
import { Hono } from 'hono';
import { errorAnswer, type HttpAnswer, jsonAnswer } from '../api/http/answer';
import { API_SECURITY_HEADERS, type AppFiles, fileAnswer } from '../api/http/served-files';
import { mayDo, STAFF_ACTIONS, type Staff } from '../core/back-office/roles';
import { staffActor } from '../core/back-office/staff';
import { ActionRefused, fail, ServiceError } from '../core/errors';
import type { PortalSessionStore } from '../core/portal-sessions';
import type { Clock } from '../core/ports';
import { newRequestId } from '../core/request-ids';
import { isChange, sessionGuard } from '../portal/session-guard';
import type { PortalSignIn } from '../portal/sign-in';
import { mountSignIn } from '../portal/sign-in-routes';
import { backOfficeSessionCookie, backOfficeSignInCookie, type CookiePolicy, setCookie } from './cookies';
import { type BackOfficeCore, type BackOfficeEnv, backOfficeRoutes } from './routes';

export interface BackOfficeBackend {
  /** The back office's own origin, `http://127.0.0.1:3008` locally: the only `Origin` a change may come from. */
  origin: string;
  cookies: CookiePolicy;
  core: BackOfficeCore;
  /** The back office's own sessions (`DynamoDbPortalSessionStore` in scope `back_office`). */
  sessions: PortalSessionStore;
  signIn: Pick<PortalSignIn, 'start' | 'finish' | 'endSessionUrl'>;
  clock: Clock;
  /** The back office's built pages (frontend/back-office/build.ts), answering every other GET. */
  files: AppFiles;
}

/** The largest body a route reads: a review of 256 KB as JSON text, with room for its escapes. */
export const MAX_BODY_BYTES = 1024 * 1024;

const responseOf = (answer: HttpAnswer, cookies: readonly string[] = []): Response => {
  const headers = new Headers({ ...API_SECURITY_HEADERS, ...answer.headers });
  for (const cookie of cookies) headers.append('Set-Cookie', cookie);
  return new Response(answer.status === 204 ? null : answer.body, { status: answer.status, headers });
};

export type BackOfficeApp = Hono<BackOfficeEnv>;

export const backOfficeApp = (backend: BackOfficeBackend): BackOfficeApp => {
  const sessionCookie = backOfficeSessionCookie(backend.cookies);
  const signInCookie = backOfficeSignInCookie(backend.cookies);
  const app = new Hono<BackOfficeEnv>();

  const guard = sessionGuard({
    cookie: sessionCookie,
    sessions: backend.sessions,
    origin: backend.origin,
    surface: 'back office',
    maxBodyBytes: MAX_BODY_BYTES,
  });

  app.onError((error, c) => {
    // An action the record's state does not allow is a conflict with that state, said in its words.
    const answered =
      error instanceof ActionRefused
        ? new ServiceError('action_refused', `Refused: ${error.message}.`)
        : error;
    return responseOf(errorAnswer(c.get('requestId') ?? newRequestId(), answered));
  });

  app.use('*', async (c, next) => {
    c.set('requestId', newRequestId());
    await next();
    // Every JSON answer, the routes' included: never cached, never framed, never sniffed.
    if (c.req.path.startsWith('/api/'))
      for (const [name, value] of Object.entries(API_SECURITY_HEADERS))
        if (!c.res.headers.has(name)) c.res.headers.set(name, value);
  });

  mountSignIn(app, { backend, sessionCookie, signInCookie, name: 'back office' });

  // Who is signed in: answered to anyone, so the pages can say the back office is for staff only.
  app.get('/api/session', async (c) => {
    const session = await guard.sessionOf(c.req.raw);
    const actor = session === null ? null : await staffActor(backend.core.directory, session.email);
    return responseOf(
      jsonAnswer(c.get('requestId'), 200, {
        signed_in: session !== null,
        email: actor?.email ?? null,
        roles: actor?.roles ?? [],
        // What the pages may offer (they hide the rest; the core refuses it whatever the pages show).
        actions: actor === null ? [] : STAFF_ACTIONS.filter((action) => mayDo(actor, action)),
        csrf_token: session?.csrfToken ?? null,
      }),
    );
  });

  app.use('/api/*', async (c, next) => {
    const session = await guard.sessionOf(c.req.raw);
    if (session === null)
      fail('authentication_required', 'Sign in to the back office first.', {
        headers: { 'WWW-Authenticate': 'Bearer' },
      });
    if (isChange(c.req.method)) guard.checkChange(c.req.raw, session);
    c.set('session', session);
    c.set('actor', await staffActor(backend.core.directory, session.email));
    c.set('body', isChange(c.req.method) ? await guard.readChange(c.req.raw) : {});
    await next();
  });

  app.post('/api/sign-out', async (c) => {
    await backend.sessions.deleteSession(c.get('session').id);
    return responseOf(
      jsonAnswer(c.get('requestId'), 200, { signed_out: true, next: await backend.signIn.endSessionUrl() }),
      [setCookie(sessionCookie, '', 0, backend.cookies)],
    );
  });

  // Not staff: nothing else of the API answers them (the core would refuse each action the same way).
  app.use('/api/*', async (c, next) => {
    const actor: Staff = c.get('actor');
    if (actor.roles.length === 0) fail('staff_only', "The back office is for the operator's staff only.");
    await next();
  });

  const routes = backOfficeRoutes(backend.core);
  app.route('/api', routes);

  // A known path asked with another method: 405 with the methods it takes; any other path: 404.
  const known = routes.routes.map((route) => ({
    method: route.method,
    pattern: new RegExp(`^/api${route.path.replace(/:\w+/g, '[^/]+')}$`),
  }));
  app.all('/api/*', (c) => {
    const allowed = [...new Set(known.filter((r) => r.pattern.test(c.req.path)).map((r) => r.method))];
    if (allowed.length === 0) fail('not_found', 'No back-office route answers this path.');
    fail('method_not_allowed', `Use ${allowed.join(' or ')} here.`, {
      headers: { Allow: allowed.join(', ') },
    });
  });

  // Every other path is a page (or its asset): the built application, which shows the page of the path.
  app.all('*', (c) => {
    const answer = fileAnswer(backend.files, c.req.method, c.req.path, c.req.header('if-none-match'));
    return new Response(answer.status === 304 ? null : (answer.body as BodyInit), {
      status: answer.status,
      headers: answer.headers,
    });
  });

  return app;
};
