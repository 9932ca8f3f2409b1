// host -> the access-token ports of a deployed host over the KMS key: the verifier over its public half
// (`TOKEN_KEY_ARN`), for the hosts that check tokens, and the issuer that signs with it
// (`TOKEN_SIGNING_KEY_ARN`, the token function alone, lib/wiring.ts). Only the entries whose code calls
// them wire them (functions/, bin/ingest.ts), so no other bundle carries the KMS client.
import { KMSClient } from '@aws-sdk/client-kms';
import * as z from 'zod/mini';
import { tokenIssuerOver, tokenVerifierOver } from '../../adapters/compose';
import { kmsEs256Signer, kmsPublicKey } from '../../adapters/kms-token-signer';
import type { TokenIssuer, TokenVerifier } from '../../core/ports';
import type { AwsHost } from './services';

const TokenKeyConfig = z.object({
  TOKEN_KEY_ARN: z.optional(z.string().check(z.minLength(1))),
  TOKEN_SIGNING_KEY_ARN: z.optional(z.string().check(z.minLength(1))),
});

/** The verifier of the environment's access tokens, the KMS public key read on first use. */
export const kmsTokenVerifier = ({ config }: AwsHost): TokenVerifier => {
  const { TOKEN_KEY_ARN: publicKey } = TokenKeyConfig.parse(process.env);
  const kms = new KMSClient({});
  return tokenVerifierOver(config.SERVICE_ENVIRONMENT, async () => {
    if (!publicKey) throw new Error('TOKEN_KEY_ARN is not set: this function checks no access token');
    return kmsPublicKey(kms, publicKey);
  });
};

/** The issuer of the environment's access tokens, signing with the KMS key. */
export const kmsTokenIssuer = ({ config }: AwsHost): TokenIssuer => {
  const { TOKEN_SIGNING_KEY_ARN: signingKey } = TokenKeyConfig.parse(process.env);
  const kms = new KMSClient({});
  return tokenIssuerOver(
    config.SERVICE_ENVIRONMENT,
    signingKey
      ? kmsEs256Signer(kms, signingKey)
      : async () => {
          throw new Error('TOKEN_SIGNING_KEY_ARN is not set: only the token function issues access tokens');
        },
  );
};
