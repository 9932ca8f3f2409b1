// core -> the stack's log as a person at a terminal reads it: one line per entry, the time first; a
// request as `time environment METHOD path status duration request-id`, coloured by status; anything
// else as `time LEVEL message key=value…`, an error's stack indented below it. (Not a terminal: the
// JSON lines of log.ts, for machines.)
import { inspect } from 'node:util';

export type Level = 'debug' | 'info' | 'warn' | 'error';
type Fields = Record<string, unknown>;

/** Levels from the most to the least detailed. */
export const LEVEL_RANK: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export const isLevel = (value: string): value is Level => value in LEVEL_RANK;

const paint = (colour: boolean, code: number, text: string): string =>
  colour ? `\u001b[${code}m${text}\u001b[0m` : text;

const LEVEL_COLOUR: Record<Level, number> = { debug: 90, info: 36, warn: 33, error: 31 };

const statusColour = (status: number): number => (status >= 500 ? 31 : status >= 400 ? 33 : 32);

/** `HH:MM:SS.mmm`, local time: when a person reads it, beside their own clock. */
const clockTime = (date: Date): string => {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
};

/** A value as `key=value`: strings bare unless they hold spaces, anything else as compact JSON. */
const shown = (value: unknown): string => {
  if (typeof value === 'string') return /[\s"=]/.test(value) || value === '' ? JSON.stringify(value) : value;
  if (value instanceof Error) return JSON.stringify(`${value.name}: ${value.message}`);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return inspect(value, { breakLength: Number.POSITIVE_INFINITY });
  }
};

/** Longest path a request line shows: what a client sent to a wrong address can be long. */
const MAX_PATH = 120;

const requestLine = (time: string, fields: Fields, colour: boolean): string => {
  const status = Number(fields.status);
  const path = String(fields.path);
  return [
    paint(colour, 90, time),
    String(fields.environment ?? '').padEnd(10),
    String(fields.method).padEnd(6),
    path.length > MAX_PATH ? `${path.slice(0, MAX_PATH)}…` : path,
    paint(colour, statusColour(status), String(status)),
    `${fields.duration_ms} ms`,
    paint(colour, 90, String(fields.service_request_id ?? '')),
  ].join(' ');
};

/** The message a request is logged with (api/http/endpoint.ts): shown as a request line. */
export const REQUEST_MESSAGE = 'request';

export interface LineOptions {
  colour: boolean;
  /** Entries below this level are not shown. */
  level: Level;
}

/** The line (or lines, with a stack) for one entry; null when below the level shown. */
export const formatLine = (
  level: Level,
  message: string,
  fields: Fields,
  options: LineOptions,
  now = new Date(),
): string | null => {
  if (LEVEL_RANK[level] < LEVEL_RANK[options.level]) return null;
  const time = clockTime(now);
  if (message === REQUEST_MESSAGE && level === 'info') return requestLine(time, fields, options.colour);
  const { error, ...rest } = fields;
  const pairs = Object.entries(rest)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${paint(options.colour, 90, `${key}=`)}${shown(value)}`);
  const head = [
    paint(options.colour, 90, time),
    paint(options.colour, LEVEL_COLOUR[level], level.toUpperCase().padEnd(5)),
    message,
    ...pairs,
    ...(error === undefined ? [] : [`${paint(options.colour, 90, 'error=')}${shown(error)}`]),
  ].join(' ');
  const stack = error instanceof Error && error.stack ? error.stack.split('\n').slice(1) : [];
  return [head, ...stack.map((line) => `    ${line.trim()}`)].join('\n');
};
