// identity provider -> its token signing keys: a private JWKS of one RS256 key, made once by a host (the
// local stack under DATA_DIR/keys, the deployed function in its Secrets Manager secret) and kept.
import { createHash, generateKeyPairSync } from 'node:crypto';

/** RFC 7638: the SHA-256 of the key's required members in lexicographic order, as its `kid`. */
const thumbprint = (jwk: { e?: string; kty?: string; n?: string }): string =>
  createHash('sha256')
    .update(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n }))
    .digest('base64url');

/** A private JWKS (as JSON text) of one RS256 key (RSA 2048), the algorithm every client library verifies. */
export const newSigningJwks = (): string => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  return JSON.stringify({ keys: [{ ...jwk, kid: thumbprint(jwk), alg: 'RS256', use: 'sig' }] });
};
