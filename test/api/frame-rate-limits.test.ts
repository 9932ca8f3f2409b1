// The frame API's write limits (lambdas/core/onboarding-frame.ts FRAME_WRITE_LIMITS), with the local
// stack's limits on: drafts and submissions each per session token and per browser binding, then 429
// `rate_limited` with Retry-After. Each bucket is shown apart: a fresh browser on a spent token is
// refused, as is a spent browser on a fresh token, while a fresh browser on a fresh token is not.
import { randomUUID } from 'node:crypto';
import { FRAME_WRITE_LIMITS } from '../../lambdas/core/onboarding-frame';
import { type Answer, bearer, call, exchange, expectRateLimited } from '../support/api-client';
import { type FrameBrowser, frameRequest, newBrowser } from '../support/frame-client';
import { devBootstrap, type RunningStack, useLocalStack } from '../support/local-stack';

let stack: RunningStack;
let accessToken: string;

useLocalStack((started) => {
  stack = started;
});

beforeAll(async () => {
  const keys = (await devBootstrap(stack)).keys;
  accessToken = await exchange(stack.production, keys.production);
}, 120_000);

const openSession = async (): Promise<string> => {
  const answer = await call(`${stack.production}/v1/clients/onboardings/sessions`, {
    method: 'POST',
    headers: { ...bearer(accessToken), 'content-type': 'application/json' },
    body: JSON.stringify({ reference: `limits-${randomUUID()}` }),
  });
  if (answer.status !== 200) throw new Error(`session: ${answer.status} ${answer.text}`);
  return answer.body.session_token as string;
};

const bound = async (token: string): Promise<FrameBrowser> => {
  const browser = newBrowser();
  await frameRequest(`${stack.frame.production}/api/form`, 'GET', { token, browser });
  if (browser.cookie === undefined) throw new Error('the form gave the browser no binding');
  return browser;
};

const ANSWERS = {
  buyers: [
    {
      first_name: 'Maria',
      last_name: 'Rossi',
      email: 'maria@example.com',
      mobile: '0400 000 001',
      date_of_birth: '1988-07-31',
      address: {
        line1: '12 Acacia Street',
        suburb: 'Carlton',
        state: 'VIC',
        postcode: '3053',
        country: 'Australia',
      },
    },
  ],
  property: { address: { line1: '3 High Street', suburb: 'Kew', state: 'VIC', postcode: '3101' } },
  payment: { method: 'cash' },
  consents: { privacy: true, terms: true },
};

type Write = 'draft' | 'submit';

const write = (kind: Write, token: string, browser: FrameBrowser): Promise<Answer> =>
  kind === 'draft'
    ? frameRequest(`${stack.frame.production}/api/draft`, 'PUT', {
        token,
        browser,
        body: { answers: { step: 1 } },
      })
    : frameRequest(`${stack.frame.production}/api/submit`, 'POST', {
        token,
        browser,
        body: { answers: ANSWERS },
      });

/** Writes until the first refusal (at most `most` tries): the statuses before it, and the refusal. */
const untilRefused = async (kind: Write, token: string, browser: FrameBrowser, most: number) => {
  const accepted: number[] = [];
  for (let i = 0; i < most; i++) {
    const answer = await write(kind, token, browser);
    if (answer.status === 429) return { accepted, refusal: answer };
    accepted.push(answer.status);
  }
  throw new Error(`${kind}: no 429 in ${most} tries`);
};

describe.each(['draft', 'submit'] as const)('%s: per session token and per browser', (kind) => {
  test(`a burst of ${FRAME_WRITE_LIMITS[kind].burst}, then 429 rate_limited with Retry-After, on each bucket apart`, async () => {
    const { burst } = FRAME_WRITE_LIMITS[kind];
    const [spentToken, freshToken] = [await openSession(), await openSession()];
    const spentBrowser = await bound(spentToken);
    const freshBrowser = await bound(freshToken);

    // The whole burst is taken (a little more if the bucket refilled meanwhile), then refused.
    const { accepted, refusal } = await untilRefused(kind, spentToken, spentBrowser, burst * 2);
    expect(accepted.length).toBeGreaterThanOrEqual(burst);
    expect(new Set(accepted)).toEqual(new Set([kind === 'draft' ? 204 : 200]));
    expectRateLimited(refusal);

    // The token's bucket: a fresh browser on the spent token is refused within a few tries.
    expectRateLimited((await untilRefused(kind, spentToken, freshBrowser, 3)).refusal);
    // The browser's bucket: the spent browser on a fresh token is refused within a few tries.
    expectRateLimited((await untilRefused(kind, freshToken, spentBrowser, 3)).refusal);
    // Neither spent: accepted.
    const other = await bound(await openSession());
    expect((await write(kind, await openSession(), other)).status).toBe(kind === 'draft' ? 204 : 200);
  }, 120_000);
});
