// core -> the service's one logger: structured JSON lines (log-json.ts; Lambda's JSON log format reads
// them), info and debug to stdout, warnings and errors to stderr, each with the keys of the work under
// way: a request's `service_request_id` and environment, a run's id. The keys travel with the async
// context, so that the local stack, which serves many requests at once, never mixes them. The level is
// the stricter of `POWERTOOLS_LOG_LEVEL` (or `LOG_LEVEL`) and Lambda's own `AWS_LAMBDA_LOG_LEVEL`, INFO
// when neither is set. The local stack run by a person at a terminal writes lines for people instead
// (`writeLinesForPeople`, log-lines.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import { inspect } from 'node:util';
import { type JsonLevel, jsonLine, xrayRoot } from './log-json';
import { formatLine, isLevel, type Level, type LineOptions, LEVEL_RANK as RANK } from './log-lines';

type Fields = Record<string, unknown>;

const SERVICE = 'contract-service';
const JSON_LEVEL: Record<Level, JsonLevel> = { debug: 'DEBUG', info: 'INFO', warn: 'WARN', error: 'ERROR' };

const context = new AsyncLocalStorage<Fields>();
let persistent: Fields = {};

/** A level named in the environment (Powertools' names: TRACE is debug, CRITICAL error), or none. */
const namedLevel = (name: string | undefined): Level | undefined => {
  const lower = name?.trim().toLowerCase();
  if (lower === undefined || lower === '') return undefined;
  if (lower === 'trace') return 'debug';
  if (lower === 'critical' || lower === 'fatal') return 'error';
  return isLevel(lower) ? lower : undefined;
};

/** The lowest level written: the stricter of ours (INFO when unset) and Lambda's, when Lambda sets one. */
export const levelFromEnvironment = (env: Record<string, string | undefined>): Level => {
  const ours = namedLevel(env.POWERTOOLS_LOG_LEVEL ?? env.LOG_LEVEL) ?? 'info';
  const lambdas = namedLevel(env.AWS_LAMBDA_LOG_LEVEL);
  return lambdas !== undefined && RANK[lambdas] > RANK[ours] ? lambdas : ours;
};

let threshold: number | undefined;

/** Read on first use, so that a host can set the environment first. */
const lowestRank = (): number => {
  threshold ??= RANK[levelFromEnvironment(process.env)];
  return threshold;
};

/**
 * An `error` field as the line shows it: an Error with its name, message and stack; a string or null
 * (no error) as it is; anything else thrown, as text (`inspect`: an object keeps its fields, and no
 * value can break the JSON line).
 */
const withError = (fields: Fields): Fields => {
  const { error } = fields;
  // Most lines (a request's) have no error: they are taken as they are, not copied.
  if (error === undefined || error === null || error instanceof Error || typeof error === 'string')
    return fields;
  return { ...fields, error: inspect(error) };
};

/**
 * Now as ISO 8601, made once a millisecond: a busy host logs many lines in one (a request's line each),
 * and formatting the time was a third of building a line.
 */
let stampedAt = Number.NaN;
let stamp = '';
const timestampNow = (): string => {
  const now = Date.now();
  if (now !== stampedAt) {
    stampedAt = now;
    stamp = new Date(now).toISOString();
  }
  return stamp;
};

/** Set when the log is read by a person at a terminal: each entry is written as a line for people. */
let lines: (LineOptions & { write: (line: string) => void }) | undefined;

const write =
  (level: Level) =>
  (message: string, fields: Fields = {}): void => {
    if (lines === undefined) {
      if (RANK[level] < lowestRank()) return;
      const line = jsonLine(
        JSON_LEVEL[level],
        message,
        [persistent, context.getStore() ?? {}, withError(fields)],
        {
          service: SERVICE,
          xrayTraceId: xrayRoot(process.env._X_AMZN_TRACE_ID),
          timestamp: timestampNow(),
        },
      );
      (RANK[level] >= RANK.warn ? process.stderr : process.stdout).write(`${line}\n`);
      return;
    }
    const line = formatLine(level, message, { ...context.getStore(), ...fields }, lines);
    if (line !== null) lines.write(line);
  };

/** Hands every entry from now on to `write` as a line for people (log-lines.ts) instead of JSON. */
export const writeLinesForPeople = (options: LineOptions, write: (line: string) => void): void => {
  lines = { ...options, write };
};

export const log = {
  debug: write('debug'),
  info: write('info'),
  warn: write('warn'),
  error: write('error'),
};

/** Runs `work` with `keys` on every line it logs (added to those already under way). */
export const withLogKeys = <T>(keys: Fields, work: () => T): T =>
  context.run({ ...context.getStore(), ...keys }, work);

/** Keys on every line of this process (a deployed function's name); set by its host at start. */
export const setPersistentLogKeys = (keys: Fields): void => {
  persistent = { ...persistent, ...keys };
};
