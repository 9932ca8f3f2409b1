// core -> the service's one logger: structured JSON lines from Powertools for AWS Lambda's Logger (a JSON
// logger that makes no AWS call; Lambda's JSON log format reads its lines), each with the keys of the
// work under way: a request's `service_request_id` and environment, a run's id. The keys travel with
// the async context, so that the local stack, which serves many requests at once, never mixes them.
// `POWERTOOLS_LOG_LEVEL` (or Lambda's own log level) sets the level. The local stack run by a person at a
// terminal writes lines for people instead (`writeLinesForPeople`, log-lines.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import { inspect } from 'node:util';
import { Logger } from '@aws-lambda-powertools/logger';
import { formatLine, type Level, type LineOptions } from './log-lines';

type Fields = Record<string, unknown>;

const context = new AsyncLocalStorage<Fields>();
let logger: Logger | undefined;
let persistent: Fields = {};

/** Built on first use, so that a host can set the environment it reads first. */
const instance = (): Logger => {
  logger ??= new Logger({ serviceName: 'contract-service', persistentKeys: persistent });
  return logger;
};

/**
 * An `error` field as Powertools formats it: an Error with its name, message and stack; a string or
 * null (no error) as it is; anything else thrown, as text (`inspect`: an object keeps its fields, and no
 * value can break the JSON line).
 */
const withError = ({ error, ...fields }: Fields): Fields => {
  if (error === undefined || error === null || error instanceof Error || typeof error === 'string')
    return error === undefined ? fields : { ...fields, error };
  return { ...fields, error: inspect(error) };
};

/** Set when the log is read by a person at a terminal: each entry is written as a line for people. */
let lines: (LineOptions & { write: (line: string) => void }) | undefined;

const write =
  (level: Level) =>
  (message: string, fields: Fields = {}): void => {
    if (lines === undefined) {
      instance()[level](message, { ...context.getStore(), ...withError(fields) });
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
  logger?.appendPersistentKeys(keys);
};
