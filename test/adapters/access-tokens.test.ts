// adapters -> the ES256 access tokens (lambdas/adapters/es256-access-tokens.ts) with real P-256 keys, and
// the KMS signer at its edge (kms-token-signer.ts): a fake KMS client that signs with a real key and
// answers DER, as KMS does; the token it makes must verify with jose from the public key alone.
import { createPublicKey, generateKeyPairSync, type KeyObject, sign, webcrypto } from 'node:crypto';
import {
  GetPublicKeyCommand,
  type GetPublicKeyCommandOutput,
  type KMSClient,
  SignCommand,
  type SignCommandInput,
  type SignCommandOutput,
} from '@aws-sdk/client-kms';
import { describe, expect, test } from '@jest/globals';
import { derToJose } from 'ecdsa-sig-formatter';
import { decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import {
  ACCESS_TOKEN_SECONDS,
  es256TokenIssuer,
  es256TokenVerifier,
  localEs256Signer,
} from '../../lambdas/adapters/es256-access-tokens';
import { kmsEs256Signer, kmsPublicKey } from '../../lambdas/adapters/kms-token-signer';
import type { AccessTokenClaims } from '../../lambdas/core/ports';

const newKeyPair = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });

const claims = (environment: AccessTokenClaims['environment']): AccessTokenClaims => ({
  organisationId: 'org_a',
  integrationId: 'int_a',
  environment,
  apiKeyId: 'key_a',
});

const KEY_ARN = 'arn:aws:kms:eu-west-2:111122223333:key/0000-token';

/** KMS at the adapter's edge: Sign answers a DER signature made with a real private key. */
const fakeKms = (privateKey: KeyObject, keySpec = 'ECC_NIST_P256') => {
  const signed: SignCommandInput[] = [];
  const client = {
    send: async (command: unknown): Promise<Partial<SignCommandOutput | GetPublicKeyCommandOutput>> => {
      if (command instanceof SignCommand) {
        const { KeyId, Message, MessageType, SigningAlgorithm } = command.input;
        signed.push(command.input);
        if (KeyId !== KEY_ARN || MessageType !== 'RAW' || SigningAlgorithm !== 'ECDSA_SHA_256' || !Message)
          throw Object.assign(new Error('not as KMS signs'), { name: 'ValidationException' });
        // Node signs DER (ASN.1) by default: what KMS answers.
        return { Signature: sign('sha256', Message, privateKey), KeyId };
      }
      if (command instanceof GetPublicKeyCommand) {
        return {
          KeyId: command.input.KeyId,
          KeySpec: keySpec as GetPublicKeyCommandOutput['KeySpec'],
          KeyUsage: 'SIGN_VERIFY',
          PublicKey: createPublicKey(privateKey).export({ format: 'der', type: 'spki' }),
        };
      }
      throw new Error('no other KMS call is expected');
    },
  };
  return { client: client as unknown as KMSClient, signed };
};

describe('ES256 access tokens', () => {
  test('a token issued with the private key verifies with the public key, with its claims', async () => {
    const { privateKey, publicKey } = newKeyPair();
    const { token, expiresIn } = await es256TokenIssuer('sandbox', localEs256Signer(privateKey)).issue(
      claims('sandbox'),
    );
    expect(expiresIn).toBe(ACCESS_TOKEN_SECONDS);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'ES256', typ: 'JWT' });
    expect(await es256TokenVerifier('sandbox', publicKey).verify(token)).toEqual({
      valid: true,
      claims: claims('sandbox'),
    });
    const { payload } = await jwtVerify(token, publicKey, { algorithms: ['ES256'] });
    expect(payload.exp).toBe((payload.iat ?? 0) + ACCESS_TOKEN_SECONDS);
  });

  test("refuses the other environment's token (its own key) as of the wrong environment", async () => {
    const sandbox = newKeyPair();
    const production = newKeyPair();
    const { token } = await es256TokenIssuer('sandbox', localEs256Signer(sandbox.privateKey)).issue(
      claims('sandbox'),
    );
    expect(await es256TokenVerifier('production', production.publicKey).verify(token)).toEqual({
      valid: false,
      reason: 'wrong_environment',
    });
  });

  test('refuses a token of another key, a changed one, an expired one and an HS256 one', async () => {
    const { privateKey, publicKey } = newKeyPair();
    const verifier = es256TokenVerifier('production', publicKey);
    const stranger = await es256TokenIssuer('production', localEs256Signer(newKeyPair().privateKey)).issue(
      claims('production'),
    );
    expect(await verifier.verify(stranger.token)).toEqual({ valid: false, reason: 'invalid' });

    const { token } = await es256TokenIssuer('production', localEs256Signer(privateKey)).issue(
      claims('production'),
    );
    const [header, , signature] = token.split('.');
    const otherBody = Buffer.from(JSON.stringify({ ...claims('production'), org: 'org_b' })).toString(
      'base64url',
    );
    expect(await verifier.verify(`${header}.${otherBody}.${signature}`)).toEqual({
      valid: false,
      reason: 'invalid',
    });

    const past = Math.floor(Date.now() / 1000) - 2 * ACCESS_TOKEN_SECONDS;
    const expired = await new SignJWT({ org: 'org_a', env: 'production', key: 'key_a' })
      .setProtectedHeader({ alg: 'ES256' })
      .setSubject('int_a')
      .setIssuer('https://service/production')
      .setAudience('service-api')
      .setIssuedAt(past)
      .setExpirationTime(past + ACCESS_TOKEN_SECONDS)
      .sign(privateKey);
    expect(await verifier.verify(expired)).toEqual({ valid: false, reason: 'expired' });

    const hmac = await new SignJWT({ org: 'org_a', env: 'production', key: 'key_a' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('int_a')
      .setIssuer('https://service/production')
      .setAudience('service-api')
      .setExpirationTime('15m')
      .sign(new Uint8Array(32).fill(7));
    expect(await verifier.verify(hmac)).toEqual({ valid: false, reason: 'invalid' });
  });

  test('a verifier takes only a P-256 public key', () => {
    const { privateKey } = newKeyPair();
    expect(() => es256TokenVerifier('sandbox', privateKey)).toThrow('P-256 public key');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
    expect(() => es256TokenVerifier('sandbox', rsa)).toThrow('P-256 public key');
  });
});

describe('the KMS signer', () => {
  test('signs through KMS Sign (RAW, ECDSA_SHA_256), and its token verifies with jose from the public key', async () => {
    const { privateKey } = newKeyPair();
    const kms = fakeKms(privateKey);
    const { token } = await es256TokenIssuer('production', kmsEs256Signer(kms.client, KEY_ARN)).issue(
      claims('production'),
    );
    const [header, payload] = token.split('.');
    expect(kms.signed.map((input) => Buffer.from(input.Message as Uint8Array).toString('ascii'))).toEqual([
      `${header}.${payload}`,
    ]);
    const publicKey = await kmsPublicKey(kms.client, KEY_ARN);
    const { payload: verified } = await jwtVerify(token, publicKey, {
      algorithms: ['ES256'],
      issuer: 'https://service/production',
      audience: 'service-api',
    });
    expect(verified).toMatchObject({ sub: 'int_a', org: 'org_a', env: 'production', key: 'key_a' });
    expect(await es256TokenVerifier('production', publicKey).verify(token)).toEqual({
      valid: true,
      claims: claims('production'),
    });
  });

  test('refuses a KMS key that is not a P-256 signing key', async () => {
    const { client } = fakeKms(newKeyPair().privateKey, 'ECC_NIST_P384');
    await expect(kmsPublicKey(client, KEY_ARN)).rejects.toThrow('not a P-256 signing key');
  });

  test('turns DER signatures into the raw r||s WebCrypto verifies, short r and s included', async () => {
    const { privateKey, publicKey } = newKeyPair();
    const verifyKey = await webcrypto.subtle.importKey(
      'spki',
      publicKey.export({ format: 'der', type: 'spki' }),
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['verify'],
    );
    // About one signature in 128 has an r or s with a leading zero byte (a shorter DER integer, which
    // must be padded): signing goes on until three such have verified, and at least 200 in all.
    let padded = 0;
    for (let n = 0; padded < 3 || n < 200; n += 1) {
      const message = Buffer.from(`message ${n}`);
      const raw = Buffer.from(derToJose(sign('sha256', message, privateKey), 'ES256'), 'base64url');
      expect(raw.length).toBe(64);
      if (raw[0] === 0 || raw[32] === 0) padded += 1;
      const good = await webcrypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, verifyKey, raw, message);
      expect([n, good]).toEqual([n, true]);
    }
  });
});
