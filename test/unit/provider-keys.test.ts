// unit -> the deployed identity provider's keys (lambdas/hosts/aws/provider-keys.ts) over a stand-in for
// Secrets Manager that keeps versions by request token as the service does (the same token with another
// value is refused with ResourceExistsException): instances starting at once on a fresh secret all end
// with the one signing JWKS written first, beside the generated cookie key, and a later start makes none.

import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceExistsException,
  type SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { describe, expect, test } from '@jest/globals';
import { providerKeys } from '../../lambdas/hosts/aws/provider-keys';

/** Secrets Manager at the adapter's edge: one secret, its current value, its versions by request token. */
const secretsStandIn = (initial: string) => {
  let current = initial;
  const versions = new Map<string, string>();
  let puts = 0;
  const client = {
    send: async (command: unknown) => {
      // A turn of the event loop, as a network call takes: racing callers interleave.
      await new Promise((resolve) => setImmediate(resolve));
      if (command instanceof GetSecretValueCommand) return { SecretString: current };
      if (command instanceof PutSecretValueCommand) {
        const { ClientRequestToken: token, SecretString: value } = command.input;
        if (!token || value === undefined) throw new Error('a put needs a token and a value');
        const existing = versions.get(token);
        if (existing !== undefined && existing !== value)
          throw new ResourceExistsException({ message: 'version exists', $metadata: {} });
        if (existing === undefined) {
          versions.set(token, value);
          current = value;
          puts += 1;
        }
        return {};
      }
      throw new Error('unexpected command');
    },
  } as unknown as SecretsManagerClient;
  return { client, current: () => current, puts: () => puts };
};

describe('providerKeys', () => {
  test('instances starting at once all use the one signing JWKS written first, and keep the cookie key', async () => {
    const secrets = secretsStandIn(JSON.stringify({ cookieKey: 'generated-cookie-key' }));
    const keys = await Promise.all([1, 2, 3].map(() => providerKeys(secrets.client, 'arn:secret')));
    expect(secrets.puts()).toBe(1);
    const stored = JSON.parse(secrets.current()) as {
      cookieKey: string;
      jwks: { keys: Array<{ kid: string }> };
    };
    expect(stored.cookieKey).toBe('generated-cookie-key');
    for (const each of keys) {
      expect(each.cookieKeys).toEqual(['generated-cookie-key']);
      expect(each.signingKeys).toEqual(stored.jwks.keys);
    }
    expect(stored.jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(stored.jwks.keys[0]).toHaveProperty('d');
    // A later instance reads them and writes nothing.
    expect((await providerKeys(secrets.client, 'arn:secret')).signingKeys).toEqual(stored.jwks.keys);
    expect(secrets.puts()).toBe(1);
  });

  test('refuses a secret without its cookie key', async () => {
    const secrets = secretsStandIn('{}');
    await expect(providerKeys(secrets.client, 'arn:secret')).rejects.toThrow('lacks cookieKey');
  });
});
