// The answer vault: AES-256-GCM sealing bound to its context, over the real Node crypto.
import { randomBytes } from 'node:crypto';
import { aesGcmAnswerVault } from '../../lambdas/adapters/answer-vault';

const key = randomBytes(32);
const vault = aesGcmAnswerVault(async () => key);

test('seals to text that opens under the same context, never the same twice, never as plain text', async () => {
  const plaintext = JSON.stringify({ line1: '12 Acacia Street', note: 'ünïcode ✓' });
  const first = await vault.seal(plaintext, 'onb_1');
  const second = await vault.seal(plaintext, 'onb_1');
  expect(first).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
  expect(first).not.toBe(second);
  expect(first).not.toContain('Acacia');
  await expect(vault.open(first, 'onb_1')).resolves.toBe(plaintext);
  await expect(vault.open(second, 'onb_1')).resolves.toBe(plaintext);
});

test('refuses another context, another key, an altered text and an unknown version', async () => {
  const sealed = await vault.seal('answers', 'onb_1');
  await expect(vault.open(sealed, 'onb_2')).rejects.toThrow();
  await expect(aesGcmAnswerVault(async () => randomBytes(32)).open(sealed, 'onb_1')).rejects.toThrow();
  const bytes = Buffer.from(sealed.slice(3), 'base64url');
  bytes[14] = (bytes[14] ?? 0) ^ 1;
  await expect(vault.open(`v1.${bytes.toString('base64url')}`, 'onb_1')).rejects.toThrow();
  await expect(vault.open(`v2.${sealed.slice(3)}`, 'onb_1')).rejects.toThrow(/unknown version/);
  await expect(vault.open('v1.AAAA', 'onb_1')).rejects.toThrow(/too short/);
});

test('reads its key once, on first use; refuses a key of the wrong size; reads again after a failed read', async () => {
  let reads = 0;
  const counted = aesGcmAnswerVault(async () => {
    reads += 1;
    return key;
  });
  expect(reads).toBe(0);
  await counted.open(await counted.seal('a', 'onb_1'), 'onb_1');
  expect(reads).toBe(1);

  const short = aesGcmAnswerVault(async () => randomBytes(16));
  await expect(short.seal('a', 'onb_1')).rejects.toThrow(/32 bytes/);

  let attempts = 0;
  const flaky = aesGcmAnswerVault(async () => {
    attempts += 1;
    if (attempts === 1) throw new Error('secret unavailable');
    return key;
  });
  await expect(flaky.seal('a', 'onb_1')).rejects.toThrow(/unavailable/);
  await expect(vault.open(await flaky.seal('a', 'onb_1'), 'onb_1')).resolves.toBe('a');
});
