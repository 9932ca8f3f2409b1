// local -> whether this process's event loop is saturated by its work: the share of the last window
// (at least WINDOW_MS, measured when asked) that it spent running callbacks rather than waiting for I/O.
// The local stack holds its request-history writes while it is: DynamoDB Local writes them on the same
// cores as the answers (~0.5 ms of its CPU a record), where deployed DynamoDB takes none of the service's.
import { performance } from 'node:perf_hooks';

/** The shortest window judged; asked sooner, the last judgement stands. */
const WINDOW_MS = 250;
/**
 * Busy at least this share of the window: saturated. Under the bench's GET flood nine windows in ten were
 * 0.97 or more; idle, the stack's pollers keep it near 0.1.
 */
const SATURATED = 0.9;

/** A judge of saturation, its window starting now. */
export const eventLoopSaturation = (): (() => boolean) => {
  let mark = performance.eventLoopUtilization();
  let saturated = false;
  return () => {
    const now = performance.eventLoopUtilization();
    const window = performance.eventLoopUtilization(now, mark);
    if (window.idle + window.active < WINDOW_MS) return saturated;
    saturated = window.utilization >= SATURATED;
    mark = now;
    return saturated;
  };
};
