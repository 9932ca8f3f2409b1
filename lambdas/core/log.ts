// core -> the service's one logger: structured JSON lines from Powertools for AWS Lambda's Logger (a JSON
// logger that makes no AWS call; Lambda's JSON log format reads its lines), each with the keys of the
// work under way: a request's `service_request_id` and environment, a run's id. The keys travel with
// the async context, so that the local stack, which serves many requests at once, never mixes them.
// `POWERTOOLS_DEV=true` pretty-prints (the local stack sets it when a person runs it in a terminal);
// `POWERTOOLS_LOG_LEVEL` (or Lambda's own log level) sets the level.
import { AsyncLocalStorage } from 'node:async_hooks';
import { inspect } from 'node:util';
import { Logger } from '@aws-lambda-powertools/logger';

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

const write =
  (level: 'debug' | 'info' | 'warn' | 'error') =>
  (message: string, fields: Fields = {}): void => {
    instance()[level](message, { ...context.getStore(), ...withError(fields) });
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
