// browser -> the README's embedding example as a newcomer runs it (`npm run example:embed`, examples/
// embed-server.ts) against a real local stack, in headless Chromium: the page opens a session through its
// own server, the form's frame mounts inside it and shows the form, nothing breaks the page's policy, and
// no credential but the session token reaches the page or any frame in it (nor the frame's binding cookie,
// which no script reads). Once at 1280 px on the frame's site, once at 320 px on another site
// (`localhost`) in a browser that blocks third-party cookies.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { eventually } from '../support/eventually';
import { type RunningStack, randomPortBase } from '../support/local-stack';
import { useSharedStack } from '../support/shared-stacks';
import { createTenant } from '../support/tenants';
import { DESKTOP, launchChromium, launchChromiumWithoutThirdPartyCookies, PHONE, RESULTS } from './harness';

let stack: RunningStack;
let browser: Browser;
let blocking: Browser;
let server: ChildProcess;
let output = '';

useSharedStack(
  (started) => {
    stack = started;
  },
  { env: { RATE_LIMITS: 'off' } },
);

/** In this worker's own range of ports: the shared stack's neighbours may be another file's. */
const examplePort = randomPortBase();

beforeAll(async () => {
  // A tenant of its own: the stack is shared with other files.
  const { keys } = await createTenant(stack, 'embedding example');
  server = spawn(join(process.cwd(), 'node_modules/.bin/tsx'), ['examples/embed-server.ts'], {
    env: {
      ...process.env,
      PORT_BASE: String(stack.portBase),
      EXAMPLE_PORT: String(examplePort),
      SERVICE_API_KEY: keys.sandbox,
    },
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
  [browser, blocking] = await Promise.all([launchChromium(), launchChromiumWithoutThirdPartyCookies()]);
}, 180_000);

afterAll(async () => {
  server?.kill();
  await browser?.close();
  await blocking?.close();
});

const CASES: Array<[string, () => Browser, '127.0.0.1' | 'localhost', BrowserContextOptions]> = [
  ['at 1280 px', () => browser, '127.0.0.1', DESKTOP],
  [
    'at 320 px, on another site than the frame, third-party cookies blocked',
    () => blocking,
    'localhost',
    PHONE,
  ],
];

test.each(CASES)(
  'the example page mounts the sign-up form through its own server, within its policy, %s',
  async (name, inBrowser, hostname, options) => {
    const context = await inBrowser().newContext(options);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    const sessionRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/my-server/signup-session')) sessionRequests.push(request.url());
    });
    const sessionAnswer = page.waitForResponse((r) => r.url().endsWith('/my-server/signup-session'));

    await page.goto(`http://${hostname}:${examplePort}/`);
    const form = page.frameLocator('iframe[title="Sign-up form"]');
    // The form's first step: how many buyers.
    await form.getByLabel('1 buyer', { exact: true }).waitFor({ timeout: 120_000 });
    await page.screenshot({
      path: join(RESULTS, `embed-example-${options.viewport?.width}.png`),
      fullPage: true,
    });

    expect(problems).toEqual([]);
    expect(sessionRequests).toHaveLength(1);
    const answer = JSON.parse(await (await sessionAnswer).text()) as Record<string, unknown>;
    expect(Object.keys(answer)).toEqual(['session_token']);
    expect(String(answer.session_token)).toMatch(/^onbs_/);
    // In every frame (the page and the form's): no API key, no access token, no binding cookie.
    const frames = page.frames();
    expect(frames.map((frame) => new URL(frame.url()).hostname)).toEqual([hostname, '127.0.0.1']);
    for (const frame of frames) {
      expect({ name, url: frame.url(), content: await frame.content() }).toEqual({
        name,
        url: expect.not.stringMatching(/svc_|eyJ|onbs_|onbb_/),
        content: expect.not.stringMatching(/svc_test_|svc_live_|eyJ|onbb_/),
      });
      expect(await frame.evaluate(() => document.cookie)).not.toMatch(/onbb_/);
    }
    await context.close();
  },
  180_000,
);
