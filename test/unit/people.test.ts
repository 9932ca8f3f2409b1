// unit -> what a person types to sign up or in (lambdas/core/people): emails normalised and checked for
// form, the password rules, and the slow hash (real scrypt at the service's cost: each hash takes a few
// hundred milliseconds, which is the point).
import { describe, expect, test } from '@jest/globals';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb';
import { systemClock } from '../../lambdas/adapters/system-clock';
import {
  MIN_PASSWORD_CHARACTERS,
  newPasswordProblem,
  normaliseEmail,
} from '../../lambdas/core/people/credentials';
import { hashPassword, SCRYPT_COST, verifyPassword } from '../../lambdas/core/people/password-hash';
import { awsPeopleServices } from '../../lambdas/hosts/aws/identity-provider-services';
import { LOCAL_PASSWORD_COST } from '../../local/config';

describe('normaliseEmail', () => {
  test.each([
    ['dev@localhost.test', 'dev@localhost.test'],
    ['  Maria.Rossi@Example.COM\t', 'maria.rossi@example.com'],
    ['a+tag@sub.example.co.uk', 'a+tag@sub.example.co.uk'],
    ['ÉLÈVE@exemple.fr', 'élève@exemple.fr'],
  ])('%j is kept as %j', (typed, stored) => {
    expect(normaliseEmail(typed)).toBe(stored);
  });

  test.each([
    [''],
    ['   '],
    ['maria'],
    ['maria@'],
    ['@example.com'],
    ['maria@example'],
    ['maria@@example.com'],
    ['maria rossi@example.com'],
    ['maria@example..com'],
    ['maria@.example.com'],
    ['maria@example.com.'],
    ['ma\u0000ria@example.com'],
  ])('%j is not an email', (typed) => {
    expect(normaliseEmail(typed)).toBeNull();
  });

  test('an address over 254 characters is not one', () => {
    expect(normaliseEmail(`${'a'.repeat(242)}@example.com`)).toBe(`${'a'.repeat(242)}@example.com`);
    expect(normaliseEmail(`${'a'.repeat(243)}@example.com`)).toBeNull();
  });
});

describe('newPasswordProblem', () => {
  test('12 characters is enough, 11 is not, and the message says how many', () => {
    expect(MIN_PASSWORD_CHARACTERS).toBe(12);
    expect(newPasswordProblem('a'.repeat(12))).toBeNull();
    expect(newPasswordProblem('a'.repeat(11))).toBe('Use a password of at least 12 characters.');
    expect(newPasswordProblem('')).toBe('Use a password of at least 12 characters.');
  });

  test('characters are counted, not UTF-16 units: 11 emoji are too few, 12 enough', () => {
    expect(newPasswordProblem('🔑'.repeat(11))).not.toBeNull();
    expect(newPasswordProblem('🔑'.repeat(12))).toBeNull();
  });

  test('a decomposed accent counts as the one character it is once composed', () => {
    // "e" + combining acute, 6 times over: 12 code points typed, 6 characters after NFC.
    expect(newPasswordProblem('e\u0301'.repeat(6))).not.toBeNull();
  });

  test('no password is too long to type, but a request cannot ask for an unbounded hash', () => {
    expect(newPasswordProblem('x'.repeat(1024))).toBeNull();
    expect(newPasswordProblem('x'.repeat(1025))).toBe('Use a password of at most 1024 characters.');
  });
});

describe('password hash', () => {
  test('verifies the password it was made from, and not another', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterz', hash)).toBe(false);
    expect(await verifyPassword('Correct horse battery', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  test('names its parameters, holds no password, and salts each hash anew', async () => {
    const [first, second] = await Promise.all([
      hashPassword('local-dev-password'),
      hashPassword('local-dev-password'),
    ]);
    expect(first).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(SCRYPT_COST).toEqual({ logN: 17, r: 8, p: 1 });
    expect(first).not.toContain('local-dev-password');
    expect(first).not.toBe(second);
  });

  test('the same password typed composed or decomposed verifies', async () => {
    const hash = await hashPassword('caf\u00e9 au lait, please');
    expect(await verifyPassword('cafe\u0301 au lait, please', hash)).toBe(true);
  });

  test('deployed, passwords hash at the service cost; only the local stack (published passwords) hashes cheaper', async () => {
    const dynamo = createDocumentClient('http://127.0.0.1:9');
    try {
      // No cost of its own: hashPassword's default, SCRYPT_COST.
      expect(awsPeopleServices(dynamo, 'identity', systemClock()).passwordCost).toBeUndefined();
    } finally {
      dynamo.destroy();
    }
    expect(LOCAL_PASSWORD_COST.logN).toBeLessThan(SCRYPT_COST.logN);
    const local = await hashPassword('local-dev-password', LOCAL_PASSWORD_COST);
    expect(local).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$/);
    expect(await verifyPassword('local-dev-password', local)).toBe(true);
    expect(await verifyPassword('not the password', local)).toBe(false);
  });

  test('a hash made at another cost still verifies (the cost can be raised later)', async () => {
    const cheaper = await hashPassword('an older password', { logN: 14, r: 8, p: 1 });
    expect(cheaper).toMatch(/^\$scrypt\$ln=14,/);
    expect(await verifyPassword('an older password', cheaper)).toBe(true);
  });

  test.each([
    ['not a hash'],
    ['$scrypt$ln=30,r=8,p=1$o+YHTVsdih/EFG3o+a1KwQ$bAsT044WvPWQa/500ftAf+jKJpiVCUyjBCZ7V+3iJhg'],
    ['$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG'],
  ])('refuses to verify against %j, which it did not make', async (hash) => {
    await expect(verifyPassword('anything at all', hash)).rejects.toThrow('not a password hash');
  });
});
