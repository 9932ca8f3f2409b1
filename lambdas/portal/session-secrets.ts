// portal -> the secrets of a signed-in browser, shared by the portal and the back office (each with its
// own session store and cookie): a session's cookie value is random and only its hash is stored.
import { createHash, randomBytes } from 'node:crypto';
import type { PortalSessionStore } from '../core/portal-sessions';
import { SESSION_LIFETIME_MICROS } from '../core/portal-sessions';
import type { Clock } from '../core/ports';
import type { SignedInPerson } from './sign-in';

export const newSecret = (): string => randomBytes(32).toString('base64url');
export const hashOf = (value: string): string => createHash('sha256').update(value).digest('base64url');

/**
 * A new session for `person` in place of the one this browser held before (`previous`, its cookie value):
 * the old one is deleted, not left behind. Resolves with the new session's cookie value.
 */
export const replaceSession = async (
  sessions: Pick<PortalSessionStore, 'deleteSession' | 'putSession'>,
  clock: Clock,
  person: SignedInPerson,
  previous: string | undefined,
): Promise<string> => {
  if (previous) await sessions.deleteSession(hashOf(previous));
  const value = newSecret();
  const now = clock.now();
  await sessions.putSession({
    id: hashOf(value),
    personId: person.personId,
    email: person.email,
    csrfToken: newSecret(),
    createdAt: now,
    expiresAt: now + SESSION_LIFETIME_MICROS,
  });
  return value;
};
