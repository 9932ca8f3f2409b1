// api -> the README's walk-through runs as written: its `sh walkthrough` blocks, in order, in one bash
// session against a local stack (with that stack's PORT_BASE and DATA_DIR, as a person's shell would
// have them), from the repository's folder. A block that no longer works fails here, not for a newcomer.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { type RunningStack, useLocalStack } from '../support/local-stack';

let stack: RunningStack;

useLocalStack(
  (started) => {
    stack = started;
  },
  // The sandbox accepts a sign-up a minute after it is submitted; nothing here waits for that.
  { env: { RATE_LIMITS: 'off' } },
);

/** The README's `sh walkthrough` blocks, in order. */
const walkthroughBlocks = async (): Promise<string[]> => {
  const readme = await readFile('README.md', 'utf8');
  return [...readme.matchAll(/^```sh walkthrough\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
};

test('the README has the walk-through, one block per step', async () => {
  const blocks = await walkthroughBlocks();
  expect(blocks.length).toBeGreaterThanOrEqual(10);
  for (const [i, block] of blocks.entries()) expect(block).toMatch(new RegExp(`^# ${i}\\. `));
});

test('its blocks run as written, in one shell, and end with each product published', async () => {
  const script = (await walkthroughBlocks()).join('\n');
  const { stdout, stderr } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], {
    env: { ...process.env, PORT_BASE: String(stack.portBase), DATA_DIR: stack.dataDir },
    maxBuffer: 16 * 1024 * 1024,
  });
  const pages = `http://127.0.0.1:${stack.portBase + 5}/`;
  const lines = stdout.trim().split('\n');
  expect(lines.filter((line) => line === '202')).toHaveLength(3);
  expect(lines.filter((line) => /^202 crv_\w+$/.test(line))).toHaveLength(1);
  expect(stdout).toMatch(/^onboarding onb_\w+, client cli_\w+$/m);
  // The viewer's address, legal_information's two publications, the advice's recipient and page, the client's viewer.
  expect(lines.filter((line) => line.startsWith(pages))).toHaveLength(3);
  expect(lines.filter((line) => /^(contract_viewer|review) http:/.test(line))).toHaveLength(2);
  expect(lines).toContain('priya.nair@example.com');
  expect(stdout).toMatch(/^verified clients\.submitted msg_\w+$/m);
  // `ops listen`, stopped, deleted its endpoint.
  expect(lines).toContain('true');
  expect(lines.slice(-4).map((line) => line.split(' ')[1])).toEqual([
    'contract_viewer',
    'legal_advice',
    'legal_information',
    'contract_viewer',
  ]);
  expect(stderr).toBe('');
}, 900_000);

test('the README shows examples/send-contract.ts as it is in the repository', async () => {
  const [readme, example] = await Promise.all([
    readFile('README.md', 'utf8'),
    readFile('examples/send-contract.ts', 'utf8'),
  ]);
  expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
});
