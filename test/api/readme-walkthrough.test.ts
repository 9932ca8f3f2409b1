// api -> the README's walk-through runs as written: its `sh walkthrough` blocks, in order, in one bash
// session against a local stack (with that stack's PORT_BASE and DATA_DIR exported, as the README asks
// of a second terminal), from the repository's folder, under the system's Node (the oldest the README
// supports) with the project's node_modules/.bin last on PATH, as a reader's shell has them. A block
// that no longer works fails here, not for a newcomer.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { type RunningStack, useLocalStack } from '../support/local-stack';
import { readerEnv } from '../support/reader-shell';

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

/** How a script run as a reader ended. */
interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `script` as a reader pastes it: bash, stopping at the first failure, in the reader's environment,
 * with nothing on its stdin (a pipe or socket there would make bash think it is run by a remote shell
 * daemon and read /etc/bash.bashrc). Resolves with how it ended.
 */
const runAsReader = (script: string): Promise<Ran> =>
  new Promise((resolve, reject) => {
    const bash = spawn('bash', ['-euo', 'pipefail', '-c', script], {
      env: readerEnv(
        { PORT_BASE: String(stack.portBase), DATA_DIR: stack.dataDir },
        { withProjectBin: true },
      ),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    bash.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    bash.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    bash.once('error', reject);
    bash.once('close', (code) => resolve({ code, stdout, stderr }));
  });

/** What a failed run printed, for the failure message. */
const told = ({ code, stdout, stderr }: Ran) => `exit ${code}\nstdout:\n${stdout}\nstderr:\n${stderr}`;

test("the reader's shell runs the system's Node, not the project's", async () => {
  const { stdout } = await runAsReader('command -v node');
  expect(stdout.trim()).toMatch(/node$/);
  expect(stdout.trim()).not.toContain('node_modules');
});

test('every wait in the walk-through has a limit, and gives up with a message', async () => {
  const blocks = await walkthroughBlocks();
  // Only the helper of block 0 loops; every other wait goes through it.
  for (const block of blocks.slice(1)) expect(block).not.toMatch(/^\s*(until|while) /m);
  // The condition moves the shell's clock past the limit, so the first check is also the last.
  const waited = await runAsReader(`${blocks[0]}\nwaits 'the impossible' eval 'SECONDS=1000000; false'`);
  expect(waited.code).not.toBe(0);
  expect(waited.stderr).toBe('gave up after 2 minutes waiting for the impossible\n');
});

test('a run that fails leaves no folder of its files behind', async () => {
  const [first = ''] = await walkthroughBlocks();
  const failed = await runAsReader(`${first}\necho "$WORK"\nfalse`);
  expect(failed.code).toBe(1);
  const work = failed.stdout.trim();
  expect(work).toMatch(/^\//);
  expect(existsSync(work)).toBe(false);
});

test('its blocks run as written, in one shell, and end with each product published', async () => {
  const ran = await runAsReader((await walkthroughBlocks()).join('\n'));
  if (ran.code !== 0) throw new Error(`the walk-through failed: ${told(ran)}`);
  const { stdout, stderr } = ran;
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
