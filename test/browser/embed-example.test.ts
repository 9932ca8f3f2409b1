// browser -> the README's embedding example as a newcomer runs it (`npm run example:embed`, examples/
// embed-server.ts) against a real local stack, in headless Chromium: the page opens a session through its
// own server, the form's frame mounts inside it and shows the form, nothing breaks the page's policy, and
// no credential but the session token reaches the page.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { eventually } from '../support/eventually';
import { devBootstrap, type RunningStack, useLocalStack } from '../support/local-stack';
import { launchChromium, RESULTS } from './harness';

let stack: RunningStack;
let browser: Browser;
let server: ChildProcess;
let output = '';

useLocalStack(
  (started) => {
    stack = started;
  },
  { env: { RATE_LIMITS: 'off' } },
);

const examplePort = () => stack.portBase + 20;

beforeAll(async () => {
  const { keys } = await devBootstrap(stack);
  server = spawn(join(process.cwd(), 'node_modules/.bin/tsx'), ['examples/embed-server.ts'], {
    env: { ...process.env, PORT_BASE: String(stack.portBase), SERVICE_API_KEY: keys.sandbox },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [server.stdout, server.stderr])
    stream?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
  await eventually(
    async () => output,
    (text) => text.includes('Embedding example: '),
    { what: 'the example server to start' },
  );
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  server?.kill();
  await browser?.close();
});

test('the example page mounts the sign-up form through its own server, within its policy', async () => {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  const sessionAnswers: string[] = [];
  page.on('response', async (response) => {
    if (response.url().endsWith('/my-server/signup-session')) sessionAnswers.push(await response.text());
  });

  await page.goto(`http://127.0.0.1:${examplePort()}/`);
  const form = page.frameLocator('iframe[title="Sign-up form"]');
  // The form's first step: how many buyers.
  await form.getByLabel('1 buyer', { exact: true }).waitFor({ timeout: 120_000 });
  await page.screenshot({ path: join(RESULTS, 'embed-example.png'), fullPage: true });

  expect(problems).toEqual([]);
  expect(sessionAnswers).toHaveLength(1);
  const answer = JSON.parse(sessionAnswers[0] ?? '{}') as Record<string, unknown>;
  expect(Object.keys(answer)).toEqual(['session_token']);
  expect(String(answer.session_token)).toMatch(/^onbs_/);
  expect(await page.content()).not.toMatch(/svc_test_|eyJ/);
  await page.close();
}, 180_000);
