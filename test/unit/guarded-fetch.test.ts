// unit -> the identity provider's SSRF guard on what clients name (lambdas/identity-provider/guarded-fetch.ts):
// an address that is not https, or whose host is, or resolves to, anything but public addresses, is
// refused before any connection (a resolver stands in for DNS, as the webhook sender's tests do).
import { describe, expect, test } from '@jest/globals';
import { guardedFetch } from '../../lambdas/identity-provider/guarded-fetch';

const resolving =
  (answers: Record<string, string[]>) =>
  async (hostname: string): Promise<string[]> =>
    answers[hostname] ?? [];

describe('guardedFetch', () => {
  const fetch = guardedFetch(
    resolving({
      'private.example.com': ['10.0.0.7'],
      'mixed.example.com': ['93.184.215.14', '192.168.1.1'],
      'metadata.example.com': ['169.254.169.254'],
      'ula.example.com': ['fd12::1'],
      'mapped.example.com': ['::ffff:127.0.0.1'],
    }),
  );

  test.each([
    ['http://agent.example.com/client.json', /not https/],
    ['https://127.0.0.1/client.json', /loopback/],
    ['https://[::1]/client.json', /loopback/],
    ['https://private.example.com/client.json', /private/],
    ['https://mixed.example.com/client.json', /private/],
    ['https://metadata.example.com/client.json', /metadata/],
    ['https://ula.example.com/client.json', /unique-local/],
    ['https://mapped.example.com/client.json', /loopback/],
    ['https://nowhere.example.com/client.json', /no address/],
  ])('refuses %s', async (address, reason) => {
    await expect(fetch(address, { method: 'GET' })).rejects.toThrow(reason);
  });
});
