// api -> the `Content-Digest` header (RFC 9530): an RFC 8941 dictionary whose `sha-256` member is a
// byte sequence of 32 bytes. Other members (`sha-512`, …) are allowed and ignored.

export type ContentDigest = { valid: true; sha256: Buffer } | { valid: false; reason: string };

/** A bare item as far as this header needs it: only byte sequences matter, the rest is skipped. */
type BareItem = { type: 'bytes'; value: Buffer } | { type: 'other' };
type MemberValue = { type: 'item'; item: BareItem } | { type: 'inner-list' };

const EXAMPLE = 'sha-256=:<base64 of the 32-byte SHA-256 of the body>:';

/** Parses `Content-Digest` and returns its `sha-256` member, or why it cannot be used. */
export const parseContentDigest = (header: string): ContentDigest => {
  let members: Map<string, MemberValue>;
  try {
    members = new DictionaryParser(header).parse();
  } catch (error) {
    return {
      valid: false,
      reason: `Content-Digest is not a structured-field dictionary (${(error as Error).message}); send ${EXAMPLE}.`,
    };
  }
  const member = members.get('sha-256');
  if (!member) return { valid: false, reason: `Content-Digest has no sha-256 member; send ${EXAMPLE}.` };
  if (member.type !== 'item' || member.item.type !== 'bytes') {
    return { valid: false, reason: `Content-Digest sha-256 is not a byte sequence; send ${EXAMPLE}.` };
  }
  if (member.item.value.length !== 32) {
    return {
      valid: false,
      reason: `Content-Digest sha-256 holds ${member.item.value.length} bytes, not 32; send ${EXAMPLE}.`,
    };
  }
  return { valid: true, sha256: member.item.value };
};

/** Formats a SHA-256 as the header value, for clients and tests. */
export const formatContentDigest = (sha256: Uint8Array): string =>
  `sha-256=:${Buffer.from(sha256).toString('base64')}:`;

const isLcAlpha = (c: string) => c >= 'a' && c <= 'z';
const isAlpha = (c: string) => isLcAlpha(c) || (c >= 'A' && c <= 'Z');
const isDigit = (c: string) => c >= '0' && c <= '9';
const KEY_CHARS = /[a-z0-9_\-.*]/;
// tchar of RFC 9110, plus ":" and "/" (RFC 8941 §3.3.4)
const TOKEN_CHARS = /[!#$%&'*+\-.^_`|~0-9A-Za-z:/]/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The parsing algorithm of RFC 8941 §4.2, for a dictionary. */
class DictionaryParser {
  private pos = 0;

  constructor(private readonly input: string) {}

  parse(): Map<string, MemberValue> {
    this.skip(' ');
    const members = new Map<string, MemberValue>();
    while (!this.done()) {
      const key = this.key();
      if (this.peek() === '=') {
        this.pos++;
        members.set(key, this.itemOrInnerList());
      } else {
        this.parameters();
        members.set(key, { type: 'item', item: { type: 'other' } }); // boolean true
      }
      this.skipOws();
      if (this.done()) break;
      this.expect(',');
      this.skipOws();
      if (this.done()) throw new Error('trailing comma');
    }
    return members;
  }

  private itemOrInnerList(): MemberValue {
    if (this.peek() === '(') {
      this.innerList();
      return { type: 'inner-list' };
    }
    const item = this.bareItem();
    this.parameters();
    return { type: 'item', item };
  }

  private innerList(): void {
    this.expect('(');
    for (;;) {
      this.skip(' ');
      if (this.peek() === ')') {
        this.pos++;
        this.parameters();
        return;
      }
      this.bareItem();
      this.parameters();
      const next = this.peek();
      if (next !== ' ' && next !== ')') throw new Error('bad inner list');
    }
  }

  private parameters(): void {
    while (this.peek() === ';') {
      this.pos++;
      this.skip(' ');
      this.key();
      if (this.peek() === '=') {
        this.pos++;
        this.bareItem();
      }
    }
  }

  private key(): string {
    const first = this.peek();
    if (first === undefined || !(isLcAlpha(first) || first === '*'))
      throw new Error(`bad key at ${this.pos}`);
    const start = this.pos;
    while (!this.done() && KEY_CHARS.test(this.input[this.pos] as string)) this.pos++;
    return this.input.slice(start, this.pos);
  }

  private bareItem(): BareItem {
    const c = this.peek();
    if (c === undefined) throw new Error('missing value');
    if (c === ':') return { type: 'bytes', value: this.byteSequence() };
    if (c === '-' || isDigit(c)) this.number();
    else if (c === '"') this.string();
    else if (c === '?') this.boolean();
    else if (isAlpha(c) || c === '*') this.token();
    else throw new Error(`unexpected "${c}" at ${this.pos}`);
    return { type: 'other' };
  }

  private byteSequence(): Buffer {
    this.expect(':');
    const end = this.input.indexOf(':', this.pos);
    if (end < 0) throw new Error('unterminated byte sequence');
    const encoded = this.input.slice(this.pos, end);
    if (!BASE64.test(encoded)) throw new Error('byte sequence is not base64');
    this.pos = end + 1;
    return Buffer.from(encoded, 'base64');
  }

  private number(): void {
    const match = /^-?\d{1,15}(\.\d{1,3})?/.exec(this.input.slice(this.pos));
    if (!match) throw new Error('bad number');
    this.pos += match[0].length;
  }

  private string(): void {
    this.expect('"');
    for (;;) {
      const c = this.input[this.pos++];
      if (c === undefined) throw new Error('unterminated string');
      if (c === '"') return;
      if (c === '\\') {
        const escaped = this.input[this.pos++];
        if (escaped !== '"' && escaped !== '\\') throw new Error('bad escape');
      } else if (c < ' ' || c > '~') throw new Error('bad string character');
    }
  }

  private boolean(): void {
    this.expect('?');
    const c = this.input[this.pos++];
    if (c !== '0' && c !== '1') throw new Error('bad boolean');
  }

  private token(): void {
    this.pos++;
    while (!this.done() && TOKEN_CHARS.test(this.input[this.pos] as string)) this.pos++;
  }

  private peek(): string | undefined {
    return this.input[this.pos];
  }

  private done(): boolean {
    return this.pos >= this.input.length;
  }

  private expect(c: string): void {
    if (this.input[this.pos] !== c) throw new Error(`expected "${c}" at ${this.pos}`);
    this.pos++;
  }

  private skip(c: string): void {
    while (this.input[this.pos] === c) this.pos++;
  }

  private skipOws(): void {
    while (this.input[this.pos] === ' ' || this.input[this.pos] === '\t') this.pos++;
  }
}
