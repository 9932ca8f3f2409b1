// adapters -> people in a table of DynamoDB Local (the identity table's schema): one person per email,
// kept by a transaction even when sign-ups race, and signing up and in (the core's accounts over the
// real store, with real scrypt and the real rate limiter).
import { describe, expect, test } from '@jest/globals';
import { DynamoDbPeopleStore } from '../../lambdas/adapters/dynamodb/people-store';
import { DynamoDbRateLimiter } from '../../lambdas/adapters/dynamodb/rate-limiter';
import { randomIds } from '../../lambdas/adapters/random-ids';
import { type PeopleServices, signIn, signUp } from '../../lambdas/core/people/accounts';
import { SignInRefused, SignUpRefused, WRONG_CREDENTIALS } from '../../lambdas/core/people/credentials';
import { hashPassword, verifyPassword } from '../../lambdas/core/people/password-hash';
import { EmailTaken, type Person } from '../../lambdas/core/people/person';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { id, TestClock } from '../support/fixtures';

const db = useTestDynamoDb();

/** Where the sign-ups come from. */
const ADDRESS = '203.0.113.7';

const setUp = async (rateLimits = false) => {
  const tableName = await db.freshTable();
  const clock = new TestClock();
  const people = new DynamoDbPeopleStore(db.doc, tableName);
  const services: PeopleServices = {
    people,
    ids: randomIds(),
    clock,
    rateLimiter: new DynamoDbRateLimiter(db.doc, tableName, clock),
    rateLimits,
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
      signIn(services, { email: ' LUCA@example.com', password: 'a good password' }),
    ).resolves.toEqual(created);
    for (const typed of [
      { email: 'luca@example.com', password: 'a good passworD' },
      { email: 'nobody@example.com', password: 'a good password' },
      { email: 'not an email', password: 'a good password' },
    ]) {
      const refused = await signIn(services, typed).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SignInRefused);
      expect(refused).toMatchObject({ message: WRONG_CREDENTIALS, retryAfterSeconds: undefined });
    }
  });

  test('after 10 attempts for one email, sign-in waits, even with the right password; a minute later it may try again', async () => {
    const { services, clock, people } = await setUp(true);
    const aiko: Person = { ...person(), passwordHash: await hashPassword('the right password') };
    await people.create(aiko);

    for (let attempt = 1; attempt <= 10; attempt++)
      await expect(
        signIn(services, { email: aiko.email, password: `guess ${attempt}` }),
      ).rejects.toMatchObject({
        message: WRONG_CREDENTIALS,
      });
    const limited = await signIn(services, { email: aiko.email, password: 'the right password' }).catch(
      (error: unknown) => error,
    );

    expect(limited).toBeInstanceOf(SignInRefused);
    expect(limited).toMatchObject({
      message: 'Too many attempts to sign in with this email. Try again in 1 minute.',
      retryAfterSeconds: 60,
    });
    clock.advance(60_000_000);
    await expect(signIn(services, { email: aiko.email, password: 'the right password' })).resolves.toEqual(
      aiko,
    );
  });
});
