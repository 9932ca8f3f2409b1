// test support -> the one poller for "this becomes true": probes every 100 ms until the answer is done
// or a generous deadline passes (a loaded 2-core machine is slow, not wrong), then fails saying what it
// last saw. A test never waits a fixed time for something to happen.
import { setTimeout as sleep } from 'node:timers/promises';

export interface EventuallyOptions {
  /** What is awaited, for the failure message. */
  what?: string;
  timeoutMs?: number;
}

const POLL_MS = 100;

/** Polls `probe` until `done` holds for its answer; resolves with that answer. */
export const eventually = async <T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  { what = 'the condition', timeoutMs = 90_000 }: EventuallyOptions = {},
): Promise<T> => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > until)
      throw new Error(`${what} did not hold within ${timeoutMs} ms; last seen: ${JSON.stringify(value)}`);
    await sleep(POLL_MS);
  }
};

/** Whether a list is empty: `eventually(unfinishedRuns, isEmpty)`. */
export const isEmpty = (values: readonly unknown[]): boolean => values.length === 0;

/**
 * Waits until the wall clock has passed `instant`: a deadline a test gave the code under test, which the
 * code itself measures against this clock. Not a pause: the state awaited is the deadline having passed.
 */
export const clockPasses = (instant: number, timeoutMs = 90_000): Promise<number> =>
  eventually(
    async () => Date.now(),
    (now) => now > instant,
    {
      what: `the clock to pass ${new Date(instant).toISOString()}`,
      timeoutMs: Math.max(0, instant - Date.now()) + timeoutMs,
    },
  );
