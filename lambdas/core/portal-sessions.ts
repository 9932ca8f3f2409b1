// core -> a person's session with the developer portal (its records and the port that keeps them), kept
// on the server (the identity table) and named in the browser only by an opaque cookie: no token of the
// identity provider ever reaches the browser. A sign-in under way is kept the same way, for the few
// minutes between leaving for the identity provider and coming back: its state, nonce and PKCE verifier
// never leave the server.
import type { Micros } from './model';

/** A signed-in person. Stored under the SHA-256 of the cookie's value, so a table read cannot sign anyone in. */
export interface PortalSession {
  /** The SHA-256 (base64url) of the cookie's value. */
  id: string;
  personId: string;
  email: string;
  /** Sent back on every change (`X-CSRF-Token`), checked against this one. */
  csrfToken: string;
  createdAt: Micros;
  expiresAt: Micros;
}

/** A sign-in under way: what checks the identity provider's answer when it comes back. */
export interface PendingSignIn {
  /** The SHA-256 (base64url) of its cookie's value. */
  id: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  /** The portal page to return to, a path of this origin. */
  returnTo: string;
  expiresAt: Micros;
}

export interface PortalSessionStore {
  putSession(session: PortalSession): Promise<void>;
  /** The session, or null when there is none or it has expired. */
  getSession(id: string): Promise<PortalSession | null>;
  deleteSession(id: string): Promise<void>;
  putSignIn(signIn: PendingSignIn): Promise<void>;
  /** The sign-in, deleted as it is read (a code is answered once); null when unknown or expired. */
  takeSignIn(id: string): Promise<PendingSignIn | null>;
}

/** A working day: a person signs in again each morning. */
export const SESSION_LIFETIME_MICROS = 12 * 60 * 60 * 1e6;
/** Time to sign in (or create an account) at the identity provider. */
export const SIGN_IN_LIFETIME_MICROS = 15 * 60 * 1e6;
