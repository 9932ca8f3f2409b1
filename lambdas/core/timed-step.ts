// core -> the answer of a workflow step that acts when something is due (a webhook attempt, a sandbox
// sign-up's acceptance): done, or the time to wait until, which the state machine's Wait state takes
// (`TimestampPath`). The due time lives in the record, so a re-driven run waits out only what is left.
import type { Micros } from './model';

export type TimedStep = { done: true } | { done: false; dueAt: string };

/** Wait until `micros`, as an ISO 8601 time (rounded up to the millisecond, never early). */
export const waitUntil = (micros: Micros): TimedStep => ({
  done: false,
  dueAt: new Date(Math.ceil(micros / 1000)).toISOString(),
});
