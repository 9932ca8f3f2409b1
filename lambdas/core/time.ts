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

// RFC 3339 date-time: the API's own form, or any other offset and up to six fractional digits.
const DATE_TIME =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,6}))?(?:([Zz])|([+-])([0-9]{2}):([0-9]{2}))$/;

/**
 * A date-time a caller sent (a list's `since`, `until`) as epoch microseconds, or undefined when it is not
 * an RFC 3339 date-time of a real day and time (no 24:00, no 31 April, no leap second).
 */
export const parseTime = (text: string): Micros | undefined => {
  const match = DATE_TIME.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: the latter reads years 0-99 as 1900-1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second);
  const real =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  const offsetHours = Number(match[10] ?? 0);
  const offsetMinutes = Number(match[11] ?? 0);
  if (!real || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const offset = (match[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000_000;
  return date.getTime() * 1000 + Number((match[7] ?? '').padEnd(6, '0')) - offset;
};

export const SECOND: Micros = 1_000_000;
export const MINUTE: Micros = 60 * SECOND;
export const HOUR: Micros = 60 * MINUTE;
