// adapter -> the answer vault: AES-256-GCM under one 32-byte key per environment (a key file under
// DATA_DIR locally, a Secrets Manager secret deployed), the context (the onboarding id) as additional
// authenticated data. Sealed text: `v1.` and the base64url of a 12-byte nonce, the ciphertext and the
// 16-byte tag.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { AnswerVault } from '../core/ports';

const VERSION = 'v1.';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const ANSWER_KEY_BYTES = 32;

/**
 * A vault whose key is read on first use (`loadKey`, retried after a failure), so that hosts which never
 * seal or open answers never fetch it.
 */
export const aesGcmAnswerVault = (loadKey: () => Promise<Uint8Array>): AnswerVault => {
  let key: Promise<Uint8Array> | undefined;
  const currentKey = (): Promise<Uint8Array> => {
    key ??= loadKey().then(
      (bytes) => {
        if (bytes.length !== ANSWER_KEY_BYTES)
          throw new Error(`the answers key must be ${ANSWER_KEY_BYTES} bytes, not ${bytes.length}`);
        return bytes;
      },
      (error: unknown) => {
        key = undefined;
        throw error;
      },
    );
    return key;
  };
  return {
    seal: async (plaintext, context) => {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', await currentKey(), nonce, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return VERSION + Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url');
    },
    open: async (sealed, context) => {
      if (!sealed.startsWith(VERSION)) throw new Error('sealed answers of an unknown version');
      const bytes = Buffer.from(sealed.slice(VERSION.length), 'base64url');
      if (bytes.length < NONCE_BYTES + TAG_BYTES) throw new Error('sealed answers too short');
      const decipher = createDecipheriv('aes-256-gcm', await currentKey(), bytes.subarray(0, NONCE_BYTES), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      const body = bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    },
  };
};

/** A key as a secret or key file holds it: the base64 of 32 random bytes. */
export const decodeAnswerKey = (text: string): Uint8Array => Buffer.from(text.trim(), 'base64');

/** A new key, as `decodeAnswerKey` reads it. */
export const newAnswerKey = (): string => randomBytes(ANSWER_KEY_BYTES).toString('base64');
