// portal -> what stands before every JSON route of a signed-in browser, shared by the portal and the back
// office (each with its own cookie, session store and origin): which session a request carries, the CSRF
// checks of a change, and a change's body read up to a limit as a JSON object.
import { timingSafeEqual } from 'node:crypto';
import { jsonObjectBody, readBodyUpTo } from '../api/http/body';
import { fail } from '../core/errors';
import type { PortalSession, PortalSessionStore } from '../core/portal-sessions';
import { readCookies } from './cookies';
import { hashOf } from './session-secrets';

export interface SessionGuardOptions {
  /** The session cookie's name (the portal's and the back office's differ). */
  cookie: string;
  sessions: Pick<PortalSessionStore, 'getSession'>;
  /** The surface's own origin: the only `Origin` a change may come from. */
  origin: string;
  /** The surface's name in its refusals ("portal", "back office"). */
  surface: string;
  /** The largest body a change may carry. */
  maxBodyBytes: number;
}

export interface SessionGuard {
  /** The session the request's cookie names, or null (none, unknown or expired). */
  sessionOf(request: Request): Promise<PortalSession | null>;
  /** Refuses a change (any method but GET and HEAD) from another origin or without the session's token. */
  checkChange(request: Request, session: PortalSession): void;
  /** A change's body as a JSON object (`{}` when empty); a body with bytes must be declared JSON. */
  readChange(request: Request): Promise<Record<string, unknown>>;
}

export const isChange = (method: string): boolean => method !== 'GET' && method !== 'HEAD';

const sameText = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

export const sessionGuard = (options: SessionGuardOptions): SessionGuard => ({
  sessionOf: async (request) => {
    const value = readCookies(request.headers.get('cookie') ?? undefined).get(options.cookie);
    return value ? options.sessions.getSession(hashOf(value)) : null;
  },

  checkChange: (request, session) => {
    // A browser says where a request comes from; a request that does not say is no browser's forgery.
    const origin = request.headers.get('origin');
    if (origin !== null && origin !== options.origin)
      fail('csrf_invalid', `Changes are accepted only from the ${options.surface} itself.`);
    const token = request.headers.get('x-csrf-token');
    if (token === null || !sameText(token, session.csrfToken))
      fail('csrf_invalid', 'Reload the page: this change did not carry the session’s CSRF token.');
  },

  readChange: async (request) => {
    const { bytes, whole } = await readBodyUpTo(request, options.maxBodyBytes);
    if (!whole)
      fail(
        'payload_too_large',
        `The ${options.surface} reads bodies of up to ${options.maxBodyBytes} bytes.`,
      );
    // An empty change (a sign-out, an action with no fields) needs no type; one with a body says it is JSON.
    if (bytes.length > 0 && !/^application\/json\b/i.test(request.headers.get('content-type') ?? ''))
      fail('request_invalid', 'Send the body as application/json.');
    return jsonObjectBody(Buffer.from(bytes).toString('utf8'));
  },
});
