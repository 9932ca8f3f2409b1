// host -> the access-token keys of a deployed host that checks tokens: the KMS key's public half
// (`TOKEN_KEY_ARN`), and signing with it where `TOKEN_SIGNING_KEY_ARN` is set (the token function alone,
// lib/wiring.ts). Only the API's functions and the ingest service are wired with it (lambda.ts,
// bin/ingest.ts), so no worker's bundle carries the KMS client.
import { KMSClient } from '@aws-sdk/client-kms';
import * as z from 'zod/mini';
import { kmsEs256Signer, kmsPublicKey } from '../../adapters/kms-token-signer';
import type { TokenKeys } from './token-keys';

const TokenKeyConfig = z.object({
  // Absent for the frame API's functions, which check session tokens, never access tokens.
  TOKEN_KEY_ARN: z.optional(z.string().check(z.minLength(1))),
  TOKEN_SIGNING_KEY_ARN: z.optional(z.string().check(z.minLength(1))),
});

export const kmsTokenKeys = (): TokenKeys => {
  const config = TokenKeyConfig.parse(process.env);
  const kms = new KMSClient({});
  const { TOKEN_KEY_ARN: publicKey, TOKEN_SIGNING_KEY_ARN: signingKey } = config;
  return {
    tokenSigner: signingKey
      ? kmsEs256Signer(kms, signingKey)
      : async () => {
          throw new Error('TOKEN_SIGNING_KEY_ARN is not set: only the token function issues access tokens');
        },
    tokenPublicKey: async () => {
      if (!publicKey) throw new Error('TOKEN_KEY_ARN is not set: this function checks no access token');
      return kmsPublicKey(kms, publicKey);
    },
  };
};
