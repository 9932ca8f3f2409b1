// core -> a person who signs in (decisions.md §10): an id `per_…`, a normalised email, the password kept
// only as a slow hash, and the one organisation they own, if any. People are shared by both
// environments, so they live in the identity table, not in an environment's.
import type { Micros } from '../model';

export const PERSON_ID_PREFIX = 'per';

export interface Person {
  id: string;
  /** Trimmed and lower-cased (`normaliseEmail`): the form it is looked up by. */
  email: string;
  /** `hashPassword`'s output; never shown, never logged. */
  passwordHash: string;
  createdAt: Micros;
  /** The organisation this person owns (at most one), or null before they create it. */
  organisationId: string | null;
}

/** Another person has this email already: the store refused to record a second. */
export class EmailTaken extends Error {
  constructor(readonly email: string) {
    super('another person has this email');
    this.name = 'EmailTaken';
  }
}
