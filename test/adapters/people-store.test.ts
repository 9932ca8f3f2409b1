// adapters -> people in a table of DynamoDB Local (the identity table's schema): one person per email,
// kept by a transaction even when sign-ups race, and signing up and in (the core's accounts over the
// real store, with real scrypt, the real rate limiter and attempt delays, and a test clock). The tests
// that make many attempts hash at a cheap scrypt cost (`CHEAP`): at the service's, a loaded machine
// takes seconds a hash.
import { describe, expect, test } from '@jest/globals';
import { DynamoDbAttemptDelays } from '../../lambdas/adapters/dynamodb/attempt-delays';
import { DynamoDbPeopleStore } from '../../lambdas/adapters/dynamodb/people-store';
import { DynamoDbRateLimiter } from '../../lambdas/adapters/dynamodb/rate-limiter';
import { randomIds } from '../../lambdas/adapters/random-ids';
import { type PeopleServices, signIn, signInDelay, signUp } from '../../lambdas/core/people/accounts';
import { SignInRefused, SignUpRefused, WRONG_CREDENTIALS } from '../../lambdas/core/people/credentials';
import { HASHING, hashPassword, verifyPassword } from '../../lambdas/core/people/password-hash';
import { EmailTaken, type Person } from '../../lambdas/core/people/person';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { id, SECOND, TestClock } from '../support/fixtures';

const db = useTestDynamoDb();

/** Where the sign-ups come from. */
const ADDRESS = '203.0.113.7';
/** Another network: the owner's, when someone else guesses their password from `ADDRESS`. */
const ELSEWHERE = '198.51.100.1';

/** scrypt at 1 MiB: the same code, a thousandth of the work. */
const CHEAP = { logN: 10, r: 8, p: 1 };

const setUp = async (rateLimits = false, passwordCost?: typeof CHEAP) => {
  const tableName = await db.freshTable();
  const clock = new TestClock();
  const people = new DynamoDbPeopleStore(db.doc, tableName);
  const services: PeopleServices = {
    people,
    ids: randomIds(),
    clock,
    rateLimiter: new DynamoDbRateLimiter(db.doc, tableName, clock),
    attemptDelays: new DynamoDbAttemptDelays(db.doc, tableName, clock),
    rateLimits,
    ...(passwordCost && { passwordCost }),
  };
  return { people, services, clock };
};

/** A person with a placeholder hash: the store neither makes nor reads hashes. */
const person = (overrides: Partial<Person> = {}): Person => ({
  id: id('per_'),
  email: `${id('p')}@example.com`,
  passwordHash: '$scrypt$ln=17,r=8,p=1$placeholder$placeholder',
  createdAt: 1_763_717_400_000_000,
  organisationId: null,
  ...overrides,
});

describe('people store', () => {
  test('keeps a person, found by id and by email', async () => {
    const { people } = await setUp();
    const maria = person({ organisationId: 'org_localdev' });

    await people.create(maria);

    await expect(people.get(maria.id)).resolves.toEqual(maria);
    await expect(people.findByEmail(maria.email)).resolves.toEqual(maria);
    await expect(people.get('per_unknown')).resolves.toBeNull();
    await expect(people.findByEmail('nobody@example.com')).resolves.toBeNull();
  });

  test('refuses a second person with a taken email, and records nothing of them', async () => {
    const { people } = await setUp();
    const first = person();
    const second = person({ email: first.email });
    await people.create(first);

    await expect(people.create(second)).rejects.toBeInstanceOf(EmailTaken);

    await expect(people.get(second.id)).resolves.toBeNull();
    await expect(people.findByEmail(first.email)).resolves.toEqual(first);
  });

  test('of eight people created at once with one email, exactly one is recorded', async () => {
    const { people } = await setUp();
    const email = `${id('race')}@example.com`;
    const racers = Array.from({ length: 8 }, () => person({ email }));

    const results = await Promise.allSettled(racers.map((racer) => people.create(racer)));

    const won = results.flatMap((result, i) => (result.status === 'fulfilled' ? [racers[i]] : []));
    expect(won).toHaveLength(1);
    for (const result of results)
      if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(EmailTaken);
    await expect(people.findByEmail(email)).resolves.toEqual(won[0]);
    const recorded = await Promise.all(racers.map((racer) => people.get(racer.id)));
    expect(recorded.filter((found) => found !== null)).toEqual(won);
  });
});

describe('signing up and in', () => {
  test('sign-up keeps the email normalised and only a hash of the password', async () => {
    const { people, services } = await setUp();

    const created = await signUp(
      services,
      { email: '  Maria@Example.COM ', password: 'twelve chars!' },
      ADDRESS,
    );

    const stored = await people.get(created.id);
    expect(stored).toMatchObject({ email: 'maria@example.com', organisationId: null });
    expect(created.id).toMatch(/^per_[A-Za-z0-9]{22}$/);
    expect(JSON.stringify(stored)).not.toContain('twelve chars!');
    expect(await verifyPassword('twelve chars!', stored?.passwordHash ?? '')).toBe(true);
  });

  test('two sign-ups with one email at once: one wins, the other is told the email is taken', async () => {
    const { people, services } = await setUp();
    const email = `${id('race')}@example.com`;

    const results = await Promise.allSettled([
      signUp(services, { email, password: 'first password!' }, ADDRESS),
      signUp(services, { email, password: 'second password' }, ADDRESS),
    ]);

    const won = results.filter((result) => result.status === 'fulfilled');
    const lost = results.filter((result) => result.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]?.reason).toBeInstanceOf(SignUpRefused);
    expect(lost[0]?.reason).toMatchObject({
      field: 'email',
      message: 'An account with this email exists already. Sign in instead.',
    });
    await expect(people.findByEmail(email)).resolves.toEqual(won[0]?.value);
  });

  test.each([
    ['no email', { email: '', password: 'long enough password' }, 'email', 'Enter your email address'],
    ['a malformed email', { email: 'maria@', password: 'long enough password' }, 'email', 'Enter your email'],
    ['a short password', { email: 'x@example.com', password: 'eleven char' }, 'password', 'at least 12'],
  ])('sign-up with %s is refused, saying which field and why', async (_, typed, field, says) => {
    const { services } = await setUp();
    const refused = await signUp(services, typed, ADDRESS).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SignUpRefused);
    expect(refused).toMatchObject({ field, message: expect.stringContaining(says) });
  });

  test('sign-ups are limited per address: 10 at once, then refused with when to try again; another address is not', async () => {
    const { services } = await setUp(true);
    const typed = () => ({ email: `${id('bulk')}@example.com`, password: 'long enough password' });
    for (let i = 0; i < 10; i++) await signUp(services, typed(), ADDRESS);

    const refused = await signUp(services, typed(), ADDRESS).catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(SignUpRefused);
    expect(refused).toMatchObject({
      field: 'email',
      message: expect.stringMatching(
        /^Too many accounts were made from your network just now\. Try again in \d+ minutes?\.$/,
      ),
      retryAfterSeconds: expect.any(Number),
    });
    await expect(signUp(services, typed(), '198.51.100.1')).resolves.toMatchObject({
      id: expect.stringMatching(/^per_/),
    });
  });

  test('sign-in takes the right password, the email however typed; anything else is the same refusal', async () => {
    const { services } = await setUp();
    const created = await signUp(
      services,
      { email: 'luca@example.com', password: 'a good password' },
      ADDRESS,
    );

    await expect(
      signIn(services, { email: ' LUCA@example.com', password: 'a good password' }, ADDRESS),
    ).resolves.toEqual(created);
    for (const typed of [
      { email: 'luca@example.com', password: 'a good passworD' },
      { email: 'nobody@example.com', password: 'a good password' },
      { email: 'not an email', password: 'a good password' },
    ]) {
      const refused = await signIn(services, typed, ADDRESS).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SignInRefused);
      expect(refused).toMatchObject({ message: WRONG_CREDENTIALS, retryAfterSeconds: undefined });
    }
  });

  test('guesses at one email from one address wait ever longer, never locked; the owner elsewhere signs in at once', async () => {
    const { services, clock, people } = await setUp(true, CHEAP);
    const aiko: Person = { ...person(), passwordHash: await hashPassword('the right password', CHEAP) };
    await people.create(aiko);
    const guess = (attempt: number, from = ADDRESS) =>
      signIn(services, { email: aiko.email, password: `guess ${attempt}` }, from).catch(
        (error: unknown) => error,
      );

    // Five at once, then each waits twice as long as the one before: 1 s, 2 s, 4 s, … (none hashed early).
    for (let attempt = 1; attempt <= 5; attempt++)
      expect(await guess(attempt)).toMatchObject({ message: WRONG_CREDENTIALS });
    const waits: unknown[] = [];
    for (let attempt = 6; attempt <= 12; attempt++) {
      const early = await guess(attempt);
      expect(early).toBeInstanceOf(SignInRefused);
      waits.push((early as SignInRefused).retryAfterSeconds);
      clock.advance(((early as SignInRefused).retryAfterSeconds ?? 0) * SECOND);
      expect(await guess(attempt)).toMatchObject({ message: WRONG_CREDENTIALS });
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64]);

    // The owner, from their own network, is not held up by the guesses.
    await expect(
      signIn(services, { email: aiko.email, password: 'the right password' }, ELSEWHERE),
    ).resolves.toEqual(aiko);
    // From the guesser's address even the right password waits, but only for the delay, never longer.
    const delayed = await signIn(
      services,
      { email: aiko.email, password: 'the right password' },
      ADDRESS,
    ).catch((error: unknown) => error);
    expect(delayed).toBeInstanceOf(SignInRefused);
    expect(delayed).toMatchObject({
      message: 'Too many attempts to sign in with this email. Try again in 3 minutes.',
      retryAfterSeconds: 128,
    });
    clock.advance(128 * SECOND);
    await expect(
      signIn(services, { email: aiko.email, password: 'the right password' }, ADDRESS),
    ).resolves.toEqual(aiko);
    // A success forgets the attempts: the next wrong one is answered at once.
    expect(await guess(13)).toMatchObject({ message: WRONG_CREDENTIALS, retryAfterSeconds: undefined });
  });

  test('the delay grows from one second to at most 15 minutes', () => {
    expect([1, 4, 5, 6, 14, 15, 40].map((counted) => signInDelay(counted) / SECOND)).toEqual([
      0, 0, 1, 2, 512, 900, 900,
    ]);
  });

  test('sign-ins from one address, whatever the emails, are limited: 20 at once, then refused with when', async () => {
    const { services } = await setUp(true, CHEAP);
    const rotating = (n: number, from = ADDRESS) =>
      signIn(services, { email: `guess-${n}@example.com`, password: 'a password to try' }, from).catch(
        (error: unknown) => error,
      );
    for (let n = 1; n <= 20; n++) expect(await rotating(n)).toMatchObject({ message: WRONG_CREDENTIALS });

    const limited = await rotating(21);

    expect(limited).toBeInstanceOf(SignInRefused);
    expect(limited).toMatchObject({
      message: 'Too many attempts to sign in from your network just now. Try again in 1 minute.',
      retryAfterSeconds: 60,
      busy: false,
    });
    expect(await rotating(22, ELSEWHERE)).toMatchObject({ message: WRONG_CREDENTIALS });
  });

  test('with every hashing slot taken and its line full, sign-in and sign-up are refused at once as busy', async () => {
    const { services, people } = await setUp(true, CHEAP);
    const mei: Person = { ...person(), passwordHash: await hashPassword('the right password', CHEAP) };
    await people.create(mei);
    // Two hashes running and eight waiting (HASHING's size), held until released.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holders = Array.from({ length: HASHING.size + HASHING.waiting }, () => HASHING.run(() => held));

    const busySignIn = await signIn(
      services,
      { email: mei.email, password: 'the right password' },
      ADDRESS,
    ).catch((error: unknown) => error);
    const busySignUp = await signUp(
      services,
      { email: `${id('new')}@example.com`, password: 'long enough password' },
      ELSEWHERE,
    ).catch((error: unknown) => error);

    const busy = 'Too many people are signing in just now. Try again in a few seconds.';
    expect(busySignIn).toBeInstanceOf(SignInRefused);
    expect(busySignIn).toMatchObject({ message: busy, retryAfterSeconds: 2, busy: true });
    expect(busySignUp).toBeInstanceOf(SignUpRefused);
    expect(busySignUp).toMatchObject({ message: busy, retryAfterSeconds: 2, busy: true });
    release();
    await Promise.all(holders);
    await expect(
      signIn(services, { email: mei.email, password: 'the right password' }, ADDRESS),
    ).resolves.toEqual(mei);
  });
});
