// core -> signing up and signing in with an email and a password (decisions.md §10), or with an email
// the upstream sign-in verified (deployed). Sign-up refuses a
// malformed email, a short password and a taken email, each saying so; sign-in says only that the email
// or password is wrong, takes as long for an unknown email as for a wrong password, and is rate limited
// per email so that a password cannot be guessed online; sign-up is rate limited per client address.
import type { Clock, Ids, PeopleStore, RateLimiter } from '../ports';
import {
  newPasswordProblem,
  normaliseEmail,
  SignInRefused,
  SignUpRefused,
  WRONG_CREDENTIALS,
} from './credentials';
import { hashPassword, verifyPassword } from './password-hash';
import { EmailTaken, PERSON_ID_PREFIX, type Person } from './person';

/** What signing up and in needs: the people (in the identity table) and that table's rate limiter. */
export interface PeopleServices {
  people: PeopleStore;
  ids: Ids;
  clock: Clock;
  rateLimiter: RateLimiter;
  /** False lifts the sign-in limit (the local stack's `RATE_LIMITS=off`). */
  rateLimits: boolean;
}

/** Sign-up attempts per client address: 10 at once, then 10 an hour (people do not make accounts in bulk). */
const SIGN_UP_BURST = 10;
const SIGN_UP_PER_SECOND = 10 / 3600;

/** Sign-in attempts per email: 10 at once, then one a minute. */
const SIGN_IN_BURST = 10;
const SIGN_IN_PER_SECOND = 1 / 60;

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
    passwordHash: await hashPassword(typed.password),
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

/** A hash of a password no one has, verified against when the email is unknown. */
let unknownEmailHash: Promise<string> | undefined;

/** The person with this email and password; otherwise `SignInRefused`. */
export const signIn = async (services: PeopleServices, typed: Credentials): Promise<Person> => {
  const email = normaliseEmail(typed.email);
  if (services.rateLimits) {
    const take = await services.rateLimiter.take(
      `sign-in#${email ?? typed.email.trim().toLowerCase().slice(0, 254)}`,
      SIGN_IN_PER_SECOND,
      SIGN_IN_BURST,
    );
    if (!take.allowed) {
      const minutes = Math.ceil(take.retryAfterSeconds / 60);
      throw new SignInRefused(
        `Too many attempts to sign in with this email. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        take.retryAfterSeconds,
      );
    }
  }
  const person = email === null ? null : await services.people.findByEmail(email);
  // The same slow hash runs whether or not the email is known, so timing does not tell.
  unknownEmailHash ??= hashPassword(services.ids.secret('unknown-'));
  const matches = await verifyPassword(typed.password, person?.passwordHash ?? (await unknownEmailHash));
  if (person === null || !matches) throw new SignInRefused(WRONG_CREDENTIALS);
  return person;
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
    passwordHash: await hashPassword(services.ids.secret('upstream-')),
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
