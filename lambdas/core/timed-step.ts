// core -> the answer of a workflow step that acts when something is due (a webhook attempt, a sandbox
// sign-up's acceptance): done, or the time to wait until, which the state machine's Wait state takes
// (`TimestampPath`). The due time lives in the record, so a re-driven run waits out only what is left.
import type { Micros } from './model';

export type TimedStep = { done: true } | { done: false; dueAt: string };

/** `micros` as the ISO 8601 time a Wait state takes, rounded up to the millisecond (never early). */
export const dueTime = (micros: Micros): string => new Date(Math.ceil(micros / 1000)).toISOString();

/** A due time (`dueTime`'s, or a Wait state's) back in epoch microseconds. */
export const dueMicros = (time: string): Micros => Date.parse(time) * 1000;

/** Wait until `micros`. */
export const waitUntil = (micros: Micros): TimedStep => ({ done: false, dueAt: dueTime(micros) });
