// core -> "printable characters": any Unicode text without control characters (C0, DEL, C1) or
// unpaired surrogates, counted in characters (code points), not UTF-16 units; and names people type.
import { fail } from './errors';

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export const isPrintableText = (value: string, maxCharacters: number): boolean => {
  if (value.length === 0 || CONTROL.test(value) || !value.isWellFormed()) return false;
  return [...value].length <= maxCharacters;
};

/** Names people give things (an organisation, a key): at most this many characters. */
export const MAX_NAME_LENGTH = 100;

/** A name a person typed, trimmed; `request_invalid` saying what a name is, with an example. */
export const readName = (value: unknown, what: string, example: string): string => {
  const trimmed = typeof value === 'string' ? value.trim() : '';
  if (!isPrintableText(trimmed, MAX_NAME_LENGTH))
    fail(
      'request_invalid',
      `${what} is 1 to ${MAX_NAME_LENGTH} characters without control characters, such as "${example}".`,
    );
  return trimmed;
};
