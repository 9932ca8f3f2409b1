// core -> signing up and signing in with an email and a password (decisions.md §10), or with an email
// the upstream sign-in verified (deployed). Sign-up refuses a malformed email, a short password and a
// taken email, each saying so, and is rate limited per client address. Sign-in says only that the email
// or password is wrong, takes as long for an unknown email as for a wrong password, and is limited so
// that a password cannot be guessed online and nobody can lock its owner out: attempts for one email
// from one address wait ever longer after the first few (a delay, never a lock; the owner elsewhere is
// not held up by it), and attempts from one address, whatever the email, are rate limited, which bounds
// the hashes one address can ask for. Every hash also needs one of the process's few hashing slots
// (password-hash.ts): past them, a refusal that says to try again in a moment.
import type { Micros } from '../model';
import type { AttemptDelays, Clock, Ids, PeopleStore, RateLimiter } from '../ports';
import {
  newPasswordProblem,
  normaliseEmail,
  SignInRefused,
  SignUpRefused,
  WRONG_CREDENTIALS,
} from './credentials';
import { HashingBusy } from './hash-slots';
import { hashPassword, type ScryptCost, verifyPassword } from './password-hash';
import { EmailTaken, PERSON_ID_PREFIX, type Person } from './person';

/** What signing up and in needs: the people (in the identity table) and that table's limits. */
export interface PeopleServices {
  people: PeopleStore;
  ids: Ids;
  clock: Clock;
  rateLimiter: RateLimiter;
  attemptDelays: AttemptDelays;
  /** The cost of new password hashes: the service's (`SCRYPT_COST`) unless the local stack or a test gives a cheaper one. */
  passwordCost?: ScryptCost;
  /** False lifts the sign-up and sign-in limits (the local stack's `RATE_LIMITS=off`). */
  rateLimits: boolean;
}

/** Sign-up attempts per client address: 10 at once, then 10 an hour (people do not make accounts in bulk). */
const SIGN_UP_BURST = 10;
const SIGN_UP_PER_SECOND = 10 / 3600;

/** Sign-in attempts per client address, whatever the email: 20 at once, then one a minute. */
const SIGN_IN_FROM_BURST = 20;
const SIGN_IN_FROM_PER_SECOND = 1 / 60;

const SECOND: Micros = 1_000_000;
/** Sign-in attempts for one email from one address made at once, before any delay. */
const UNDELAYED_SIGN_INS = 5;
const LONGEST_SIGN_IN_DELAY: Micros = 15 * 60 * SECOND;

/**
 * The wait after `counted` attempts for one email from one address: none for the first five, then one
 * second, doubling with each attempt, up to 15 minutes. A success forgets them.
 */
export const signInDelay = (counted: number): Micros =>
  counted < UNDELAYED_SIGN_INS
    ? 0
    : Math.min(LONGEST_SIGN_IN_DELAY, SECOND * 2 ** (counted - UNDELAYED_SIGN_INS));

/** When a busy process asks a person to try again. */
const BUSY_RETRY_SECONDS = 2;
const BUSY = 'Too many people are signing in just now. Try again in a few seconds.';

/** `in 40 seconds`, `in 1 minute`, `in 15 minutes`. */
const inTime = (seconds: number): string => {
  if (seconds < 60) return `in ${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `in ${minutes} minute${minutes === 1 ? '' : 's'}`;
};

const EMAIL_EXPECTED = 'Enter your email address, like name@example.com.';
const EMAIL_TAKEN = 'An account with this email exists already. Sign in instead.';

export interface Credentials {
  email: string;
  password: string;
}

/**
 * Records a new person with the email and (the hash of) the password; they own no organisation yet.
 * `from` is the address the request came from: sign-ups are limited per address, every attempt counted
 * (a refusal says whether an email is taken, so attempts are what is limited).
 */
export const signUp = async (services: PeopleServices, typed: Credentials, from: string): Promise<Person> => {
  if (services.rateLimits) {
    const take = await services.rateLimiter.take(`sign-up#${from}`, SIGN_UP_PER_SECOND, SIGN_UP_BURST);
    if (!take.allowed) {
      const minutes = Math.ceil(take.retryAfterSeconds / 60);
      throw new SignUpRefused(
        'email',
        `Too many accounts were made from your network just now. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        take.retryAfterSeconds,
      );
    }
  }
  const email = normaliseEmail(typed.email);
  if (email === null) throw new SignUpRefused('email', EMAIL_EXPECTED);
  const problem = newPasswordProblem(typed.password);
  if (problem !== null) throw new SignUpRefused('password', problem);
  // Checked first only to spare a hash; the store's own check decides a race.
  if (await services.people.findByEmail(email)) throw new SignUpRefused('email', EMAIL_TAKEN);
  const person: Person = {
    id: services.ids.id(PERSON_ID_PREFIX),
    email,
    passwordHash: await hashPassword(typed.password, services.passwordCost).catch((error: unknown) => {
      if (error instanceof HashingBusy) throw new SignUpRefused('email', BUSY, BUSY_RETRY_SECONDS, true);
      throw error;
    }),
    createdAt: services.clock.now(),
    organisationId: null,
  };
  try {
    await services.people.create(person);
  } catch (error) {
    if (error instanceof EmailTaken) throw new SignUpRefused('email', EMAIL_TAKEN);
    throw error;
  }
  return person;
};

/** Hashes of a password no one has, by cost, verified against when the email is unknown (kept once made). */
const unknownEmailHashes = new Map<ScryptCost | undefined, string>();

/** Refused for a limit: `what` says which, the time says when to try again. */
const tooMany = (what: string, retryAfterSeconds: number): SignInRefused =>
  new SignInRefused(
    `Too many attempts to sign in ${what}. Try again ${inTime(retryAfterSeconds)}.`,
    retryAfterSeconds,
  );

/**
 * The person with this email and password; otherwise `SignInRefused`. `from` is the address the request
 * came from: both limits count an attempt before its hash, so a refused attempt costs no hash.
 */
export const signIn = async (services: PeopleServices, typed: Credentials, from: string): Promise<Person> => {
  const email = normaliseEmail(typed.email);
  const attempts = `sign-in#${email ?? typed.email.trim().toLowerCase().slice(0, 254)}#${from}`;
  if (services.rateLimits) {
    const fromAddress = await services.rateLimiter.take(
      `sign-in-from#${from}`,
      SIGN_IN_FROM_PER_SECOND,
      SIGN_IN_FROM_BURST,
    );
    if (!fromAddress.allowed) throw tooMany('from your network just now', fromAddress.retryAfterSeconds);
    const forEmail = await services.attemptDelays.attempt(attempts, signInDelay);
    if (!forEmail.allowed) throw tooMany('with this email', forEmail.retryAfterSeconds);
  }
  try {
    const person = email === null ? null : await services.people.findByEmail(email);
    // The same slow hash runs whether or not the email is known, so timing does not tell.
    const unknownEmailHash =
      unknownEmailHashes.get(services.passwordCost) ??
      (await hashPassword(services.ids.secret('unknown-'), services.passwordCost));
    unknownEmailHashes.set(services.passwordCost, unknownEmailHash);
    const matches = await verifyPassword(typed.password, person?.passwordHash ?? unknownEmailHash);
    if (person === null || !matches) throw new SignInRefused(WRONG_CREDENTIALS);
    if (services.rateLimits) await services.attemptDelays.forget(attempts);
    return person;
  } catch (error) {
    if (error instanceof HashingBusy) throw new SignInRefused(BUSY, BUSY_RETRY_SECONDS, true);
    throw error;
  }
};

/**
 * The person with this email, verified by the upstream sign-in (deployed: Cognito), made on their first
 * sign-in. They have no password here: their hash is of a random secret nobody is told.
 */
export const signInUpstream = async (services: PeopleServices, verifiedEmail: string): Promise<Person> => {
  const email = normaliseEmail(verifiedEmail);
  if (email === null) throw new SignInRefused(EMAIL_EXPECTED);
  const known = await services.people.findByEmail(email);
  if (known) return known;
  const person: Person = {
    id: services.ids.id(PERSON_ID_PREFIX),
    email,
    passwordHash: await hashPassword(services.ids.secret('upstream-'), services.passwordCost),
    createdAt: services.clock.now(),
    organisationId: null,
  };
  try {
    await services.people.create(person);
    return person;
  } catch (error) {
    // Signed in twice at once: the other made them.
    if (!(error instanceof EmailTaken)) throw error;
    const made = await services.people.findByEmail(email);
    if (!made) throw error;
    return made;
  }
};
