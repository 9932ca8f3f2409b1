// adapter -> the deployed access-token keys: a KMS key (ECC_NIST_P256, SIGN_VERIFY) per environment whose
// private half never leaves KMS. Only the token function may call Sign (lib/wiring.ts); every verifier may
// only read the public key, once per instance.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { GetPublicKeyCommand, type KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { derToJose } from 'ecdsa-sig-formatter';
import type { Es256Signer } from './es256-access-tokens';

/** Signs with the KMS key; KMS answers a DER (ASN.1) ECDSA signature, and a JWS carries raw r||s. */
export const kmsEs256Signer =
  (kms: KMSClient, keyId: string): Es256Signer =>
  async (signingInput) => {
    const signed = await kms.send(
      new SignCommand({
        KeyId: keyId,
        // RAW: KMS hashes the input itself (a JWS signing input is far below its 4 KB limit).
        Message: Buffer.from(signingInput, 'ascii'),
        MessageType: 'RAW',
        SigningAlgorithm: 'ECDSA_SHA_256',
      }),
    );
    if (!signed.Signature) throw new Error('KMS answered Sign without a signature');
    return derToJose(Buffer.from(signed.Signature), 'ES256');
  };

/** The KMS key's public half (DER SubjectPublicKeyInfo), which anyone allowed GetPublicKey may read. */
export const kmsPublicKey = async (kms: KMSClient, keyId: string): Promise<KeyObject> => {
  const answer = await kms.send(new GetPublicKeyCommand({ KeyId: keyId }));
  if (!answer.PublicKey || answer.KeySpec !== 'ECC_NIST_P256' || answer.KeyUsage !== 'SIGN_VERIFY')
    throw new Error(`the access-token key ${keyId} is not a P-256 signing key`);
  return createPublicKey({ key: Buffer.from(answer.PublicKey), format: 'der', type: 'spki' });
};
