// bench -> another process's resident memory from /proc/<pid>/status (Linux), sampled on a timer, plus
// the kernel's own high-water mark, which catches a peak between two samples.
import { readFileSync, writeFileSync } from 'node:fs';

const MIB = 1024 * 1024;

/** A field of /proc/<pid>/status given in kB (VmRSS, VmHWM), in bytes. */
const statusField = (pid: number, field: 'VmRSS' | 'VmHWM'): number => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
  if (!match?.[1]) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]) * 1024;
};

export const rss = (pid: number): number => statusField(pid, 'VmRSS');

/**
 * Resets the process's VmHWM to its current RSS (`echo 5 > clear_refs`, Linux 4.0+), so that VmHWM then
 * holds the peak of what follows. False where the kernel or permissions refuse.
 */
const resetPeak = (pid: number): boolean => {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
};

export interface MemoryWindow {
  /** RSS just before the window opened. */
  before: number;
  /** Highest RSS seen by the 20 ms samples. */
  sampledPeak: number;
  samples: number;
  /** The kernel's peak RSS over the window (VmHWM after a reset), or null if it could not be reset. */
  kernelPeak: number | null;
}

/** Starts sampling `pid`'s RSS every `intervalMs`; `stop()` ends the window and sums it up. */
export const watchMemory = (pid: number, intervalMs = 20) => {
  const hwmReset = resetPeak(pid);
  const before = rss(pid);
  let sampledPeak = before;
  let samples = 1;
  const sample = () => {
    sampledPeak = Math.max(sampledPeak, rss(pid));
    samples++;
  };
  const timer = setInterval(sample, intervalMs);
  let result: MemoryWindow | undefined;
  return {
    /** Ends the window (once; later calls answer the same figures). */
    stop: (): MemoryWindow => {
      if (!result) {
        clearInterval(timer);
        sample();
        result = { before, sampledPeak, samples, kernelPeak: hwmReset ? statusField(pid, 'VmHWM') : null };
      }
      return result;
    },
  };
};

export const toMiB = (bytes: number) => bytes / MIB;

/** How far the process grew over the window: the larger of the sampled and the kernel's peak, less the start. */
export const peakGrowth = (window: MemoryWindow): number =>
  Math.max(window.sampledPeak, window.kernelPeak ?? 0) - window.before;
