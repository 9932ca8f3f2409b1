// core/webhooks -> the delivery schedule (interface.md "Delivery", decisions.md §6): at once, then 1 min,
// 5 min, 30 min, 2 h, 6 h, 12 h and 24 h after each failure: 8 attempts, then given up.
import type { Micros } from '../model';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The pause after failed attempt n (1-based) before attempt n + 1. */
export const RETRY_DELAYS_MS: readonly number[] = [
  MINUTE,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  6 * HOUR,
  12 * HOUR,
  24 * HOUR,
];

export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** The receiver's time to answer. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

/**
 * When attempt `failed + 1` is due after attempt `failed` failed at `at`, or null after the last one.
 * `delayScale` (the local stack's DELAY_SCALE) divides the pause.
 */
export const nextAttemptAt = (failed: number, at: Micros, delayScale = 1): Micros | null => {
  const delay = RETRY_DELAYS_MS[failed - 1];
  if (delay === undefined) return null;
  return at + Math.round((delay * 1000) / delayScale);
};
