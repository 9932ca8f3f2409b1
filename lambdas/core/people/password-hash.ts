// core -> passwords kept only as a slow hash: scrypt (node:crypto) with a random 16-byte salt and the
// cost OWASP gives as scrypt's minimum (N = 2^17, r = 8, p = 1: 128 MiB and a few hundred ms a hash,
// which is what makes guessing offline expensive). The hash is a PHC string that names its parameters,
// `$scrypt$ln=17,r=8,p=1$<salt>$<key>`, so the cost can be raised later and older hashes still verify.
// Compared in constant time. A hash runs on libuv's thread pool, not the event loop, and only in one of
// the process's few hashing slots (`HASHING`): past them, `HashingBusy`.
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import { normalisePassword } from './credentials';
import { HashSlots } from './hash-slots';

export interface ScryptCost {
  /** log2 of N, the CPU and memory cost. */
  logN: number;
  /** Block size. */
  r: number;
  /** Parallelisation. */
  p: number;
}

export const SCRYPT_COST: Readonly<ScryptCost> = { logN: 17, r: 8, p: 1 };

const SALT_BYTES = 16;
const KEY_BYTES = 32;
const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d)\$([A-Za-z0-9+/]{22,88})\$([A-Za-z0-9+/]{43,88})$/;

/**
 * Two hashes at once (libuv's pool has four threads, and a host has one or two cores), eight more in
 * line: one waits at most about four hashes' time (~1.5 s); a ninth in line is refused.
 */
export const HASHING = new HashSlots(2, 8);

const derive = (password: string, salt: Buffer, cost: ScryptCost, length: number): Promise<Buffer> => {
  const N = 2 ** cost.logN;
  // scrypt needs 128·N·r bytes; Node refuses above `maxmem` (32 MiB by default).
  const options: ScryptOptions = { N, r: cost.r, p: cost.p, maxmem: 2 * 128 * N * cost.r };
  return HASHING.run(
    () =>
      new Promise((resolve, reject) =>
        scrypt(normalisePassword(password), salt, length, options, (error, key) =>
          error ? reject(error) : resolve(key),
        ),
      ),
  );
};

const base64 = (bytes: Buffer): string => bytes.toString('base64').replace(/=+$/, '');

/** A new hash of `password` under a fresh salt. */
export const hashPassword = async (password: string, cost: ScryptCost = SCRYPT_COST): Promise<string> => {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, cost, KEY_BYTES);
  return `$scrypt$ln=${cost.logN},r=${cost.r},p=${cost.p}$${base64(salt)}$${base64(key)}`;
};

/** Whether `password` is the one `hash` was made from. Throws on a hash this module did not make. */
export const verifyPassword = async (password: string, hash: string): Promise<boolean> => {
  const match = PHC.exec(hash);
  const [, logN, r, p, salt, key] = match ?? [];
  const cost = { logN: Number(logN), r: Number(r), p: Number(p) };
  // Bounds on what a stored hash may ask of this process (2^20 · 8 · 128 B = 1 GiB at most).
  if (!match || !salt || !key || cost.logN < 10 || cost.logN > 20 || cost.r < 1 || cost.r > 16 || cost.p < 1)
    throw new Error('not a password hash this service made');
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), cost, expected.length);
  return timingSafeEqual(actual, expected);
};
