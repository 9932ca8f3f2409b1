// core -> how times are shown: UTC, ISO 8601, six fractional digits, `Z` (decisions.md §5).
import type { Micros } from './model';

export const formatTime = (micros: Micros): string => {
  const millis = Math.floor(micros / 1000);
  const iso = new Date(millis).toISOString(); // 2026-11-21T09:30:00.123Z
  const fraction = String(micros % 1_000_000).padStart(6, '0');
  return `${iso.slice(0, 19)}.${fraction}Z`;
};

export const formatTimeOrNull = (micros: Micros | null): string | null =>
  micros === null ? null : formatTime(micros);

export const SECOND: Micros = 1_000_000;
export const MINUTE: Micros = 60 * SECOND;
export const HOUR: Micros = 60 * MINUTE;
