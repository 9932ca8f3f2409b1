// adapter -> which faults of the SDKs mean a dependency is down or overloaded (DynamoDB, S3, Secrets
// Manager, Step Functions, the network to them), and the port wrapper that raises them as the core's
// `DependencyUnavailable`, so that no layer above the adapters needs to know an SDK's faults.
import { DependencyUnavailable, someFaultBehind } from '../core/errors';

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

/** Whether one fault, as thrown, is a network failure or an AWS service unavailable, throttled or failing. */
const isUnavailableFault = (fault: FaultShape): boolean =>
  (typeof fault.code === 'string' && NETWORK_CODES.has(fault.code)) ||
  (typeof fault.name === 'string' && OVERLOADED.has(fault.name)) ||
  (fault.$metadata?.httpStatusCode ?? 0) >= 500;

/** True for a network failure or an AWS service saying it is unavailable, throttled or failing. */
export const isSdkUnavailable = (error: unknown): boolean => someFaultBehind(error, isUnavailableFault);

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
