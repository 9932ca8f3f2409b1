// adapter -> which faults of the SDKs mean a dependency is down or overloaded (DynamoDB, S3, Secrets
// Manager, Step Functions, the network to them), and the port wrapper that raises them as the core's
// `DependencyUnavailable`, so that no layer above the adapters needs to know an SDK's faults.
import { DependencyUnavailable } from '../core/errors';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const OVERLOADED = new Set([
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'ThrottlingException',
  'ServiceUnavailable',
  'SlowDown',
  'InternalServerError',
  'TimeoutError',
]);

interface FaultShape {
  name?: unknown;
  code?: unknown;
  cause?: unknown;
  $metadata?: { httpStatusCode?: number };
}

/** True for a network failure or an AWS service saying it is unavailable, throttled or failing. */
export const isSdkUnavailable = (error: unknown, depth = 0): boolean => {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const fault = error as FaultShape;
  if (typeof fault.code === 'string' && NETWORK_CODES.has(fault.code)) return true;
  if (typeof fault.name === 'string' && OVERLOADED.has(fault.name)) return true;
  const status = fault.$metadata?.httpStatusCode;
  if (status !== undefined && status >= 500) return true;
  if (error instanceof AggregateError && error.errors.some((inner) => isSdkUnavailable(inner, depth + 1)))
    return true;
  return isSdkUnavailable(fault.cause, depth + 1);
};

/** `error` as the core sees it: an SDK's unavailability becomes `DependencyUnavailable`. */
export const translateFault = (error: unknown): unknown =>
  error instanceof DependencyUnavailable || !isSdkUnavailable(error)
    ? error
    : new DependencyUnavailable(error);

/**
 * `port` with every method's failure translated (`translateFault`), thrown or rejected. Methods are
 * called on the port itself, so classes with private state work through it.
 */
export const translatingFaults = <T extends object>(port: T): T =>
  new Proxy(port, {
    get: (target, property) => {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        try {
          const result = value.apply(target, args);
          return result instanceof Promise
            ? result.catch((error: unknown) => {
                throw translateFault(error);
              })
            : result;
        } catch (error) {
          throw translateFault(error);
        }
      };
    },
  });
