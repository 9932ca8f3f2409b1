// core -> the rules for what a person types to sign up or sign in: an email of an address's form, kept
// trimmed and lower-cased, and a password of at least 12 characters (decisions.md §10). Refusals carry
// a message a person can act on, and which field it is about, so the page can put it beside that field.
import { isPrintableText } from '../text';

export const MIN_PASSWORD_CHARACTERS = 12;
/** Only bounds the work a request can ask of the hash; no one types more. */
export const MAX_PASSWORD_CHARACTERS = 1024;
/** The longest address RFC 5321 lets through (a 254-character path). */
export const MAX_EMAIL_CHARACTERS = 254;

/** `local@domain.tld`: one `@`, no whitespace, a domain of dot-separated non-empty labels. */
const EMAIL_FORM = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** The email as stored and looked up (trimmed, lower-cased), or null when it is not an address's form. */
export const normaliseEmail = (typed: string): string | null => {
  const email = typed.trim().toLowerCase();
  if (!isPrintableText(email, MAX_EMAIL_CHARACTERS) || !EMAIL_FORM.test(email)) return null;
  return email;
};

/**
 * The password as hashed: Unicode NFC, so that the same characters typed on another keyboard or system
 * (composed or decomposed accents) give the same hash.
 */
export const normalisePassword = (typed: string): string => typed.normalize('NFC');

/** What is wrong with a new password, or null when it may be used. Counted in characters, not UTF-16 units. */
export const newPasswordProblem = (typed: string): string | null => {
  const characters = [...normalisePassword(typed)].length;
  if (characters < MIN_PASSWORD_CHARACTERS)
    return `Use a password of at least ${MIN_PASSWORD_CHARACTERS} characters.`;
  if (characters > MAX_PASSWORD_CHARACTERS)
    return `Use a password of at most ${MAX_PASSWORD_CHARACTERS} characters.`;
  return null;
};

export type CredentialField = 'email' | 'password';

/** Sign-up refused: the field to correct and what to do about it. */
export class SignUpRefused extends Error {
  constructor(
    readonly field: CredentialField,
    message: string,
    /** Set when refused for too many sign-ups from one address, or too many hashes at once: when to try again. */
    readonly retryAfterSeconds?: number,
    /** Refused because this process is hashing as many passwords as it may (503), not for a limit (429). */
    readonly busy = false,
  ) {
    super(message);
    this.name = 'SignUpRefused';
  }
}

/** The one answer to a failed sign-in: it never says which of the two was wrong. */
export const WRONG_CREDENTIALS = 'The email or password is wrong.';

/**
 * Sign-in refused: wrong credentials, or too many attempts (then `retryAfterSeconds`): for the email from
 * this address, from this address, or (`busy`) at once in this process.
 */
export class SignInRefused extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
    /** Refused because this process is hashing as many passwords as it may (503), not for a limit (429). */
    readonly busy = false,
  ) {
    super(message);
    this.name = 'SignInRefused';
  }
}
