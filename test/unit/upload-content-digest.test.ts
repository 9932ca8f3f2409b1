import { createHash } from 'node:crypto';
import { formatContentDigest, parseContentDigest } from '../../lambdas/api/upload/content-digest';

const digest = createHash('sha256').update('hello').digest();
const b64 = digest.toString('base64');

describe('parseContentDigest', () => {
  it('returns the sha-256 member', () => {
    const parsed = parseContentDigest(`sha-256=:${b64}:`);
    expect(parsed).toEqual({ valid: true, sha256: digest });
  });

  it('round-trips formatContentDigest', () => {
    expect(parseContentDigest(formatContentDigest(digest))).toEqual({ valid: true, sha256: digest });
  });

  it('ignores other members, parameters and whitespace', () => {
    const sha512 = createHash('sha512').update('hello').digest('base64');
    const parsed = parseContentDigest(
      ` sha-512=:${sha512}:,  sha-256=:${b64}:;p=1 , x="a\\"b", y=?1, z=(a 1), t=tok/x `,
    );
    expect(parsed).toEqual({ valid: true, sha256: digest });
  });

  it('accepts base64 without padding', () => {
    expect(parseContentDigest(`sha-256=:${b64.replace(/=+$/, '')}:`)).toEqual({
      valid: true,
      sha256: digest,
    });
  });

  it.each([
    ['empty', ''],
    ['no sha-256 member', `sha-512=:${b64}:`],
    ['a token, not a dictionary', 'sha256'],
    ['an upper-case key', `SHA-256=:${b64}:`],
    ['a hex value', `sha-256=${digest.toString('hex')}`],
    ['a string', `sha-256="${b64}"`],
    ['unterminated bytes', `sha-256=:${b64}`],
    ['not base64', 'sha-256=:not*base64!:'],
    ['31 bytes', `sha-256=:${digest.subarray(1).toString('base64')}:`],
    ['33 bytes', `sha-256=:${Buffer.concat([digest, Buffer.from([1])]).toString('base64')}:`],
    ['an inner list', `sha-256=(:${b64}:)`],
    ['a bare key (boolean)', 'sha-256'],
    ['a trailing comma', `sha-256=:${b64}:,`],
    ['garbage after the value', `sha-256=:${b64}: x`],
  ])('refuses %s', (_name, header) => {
    const parsed = parseContentDigest(header);
    expect(parsed.valid).toBe(false);
    if (!parsed.valid) expect(parsed.reason).toMatch(/sha-256=:/);
  });
});
