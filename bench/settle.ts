// bench -> waiting until the stack has no contract review in its pipeline, so that a section measures its
// own work and not an earlier section's contracts being read in the background of the same process.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Answer, bearer, call } from '../test/support/api-client';
import type { BenchStack } from './stack';

/** A stack that is still busy by then has its figures printed with a warning, not withheld. */
const SETTLE_TIMEOUT_MS = 300_000;

type Review = Answer['body'];

/** Every contract review of the integration (the bench's data directory is new, so they are few). */
const allReviews = async (stack: BenchStack, token: string): Promise<Review[]> => {
  const reviews: Review[] = [];
  let after: string | undefined;
  for (;;) {
    const query = `limit=100${after ? `&starting_after=${after}` : ''}`;
    const answer = await call(`${stack.production}/v1/contract-reviews?${query}`, { headers: bearer(token) });
    if (answer.status !== 200) throw new Error(`list answered ${answer.status}: ${answer.text}`);
    const items = answer.body.data as Review[];
    reviews.push(...items);
    if (!answer.body.has_more || items.length === 0) return reviews;
    after = items[items.length - 1]?.id as string;
  }
};

const unsettled = (review: Review) =>
  review.processing.state === 'pending' ||
  review.processing.state === 'running' ||
  (review.publications as Array<{ state: string }>).some((publication) => publication.state === 'pending');

export interface Settled {
  waitedMs: number;
  busyAtStart: number;
  stillBusy: number;
}

/** Waits until no contract review sent so far is still in the pipeline; answers how long that took. */
export const settle = async (
  stack: BenchStack,
  token: string,
  progress: (message: string) => void,
  section: string,
): Promise<Settled> => {
  const started = performance.now();
  let busy = (await allReviews(stack, token)).filter(unsettled);
  const busyAtStart = busy.length;
  if (busyAtStart > 0) progress(`${section}: waiting for ${busyAtStart} contract review(s) to finish…`);
  while (busy.length > 0 && performance.now() - started < SETTLE_TIMEOUT_MS) {
    await sleep(500);
    busy = (await allReviews(stack, token)).filter(unsettled);
  }
  return { waitedMs: performance.now() - started, busyAtStart, stillBusy: busy.length };
};

/** The line a section prints about its wait, or nothing when there was none. */
export const settledLine = (settled: Settled): string =>
  settled.busyAtStart === 0
    ? ''
    : `   waited ${Math.round(settled.waitedMs)} ms first for ${settled.busyAtStart} contract review(s) to finish` +
      `${settled.stillBusy > 0 ? ` (${settled.stillBusy} STILL BUSY: figures may be skewed)` : ''}\n`;
