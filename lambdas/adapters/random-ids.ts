// adapter -> the ids port: 22 base62 characters from the CSPRNG (about 131 random bits) for ids,
// 32 characters (about 190 bits) for secrets.
import { randomInt } from 'node:crypto';
import type { Ids } from '../core/ports';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const randomText = (length: number): string => {
  let text = '';
  for (let i = 0; i < length; i++) text += ALPHABET[randomInt(ALPHABET.length)];
  return text;
};

export const randomIds = (): Ids => ({
  id: (prefix) => `${prefix}_${randomText(22)}`,
  secret: (prefix) => `${prefix}${randomText(32)}`,
});
