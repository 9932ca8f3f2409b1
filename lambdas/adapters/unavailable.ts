// adapter -> which faults mean a dependency is down or overloaded (DynamoDB, S3, Secrets Manager, the
// network to them), answered 503 `service_unavailable` with `Retry-After` rather than 500.

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
export const isDependencyUnavailable = (error: unknown, depth = 0): boolean => {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const fault = error as FaultShape;
  if (typeof fault.code === 'string' && NETWORK_CODES.has(fault.code)) return true;
  if (typeof fault.name === 'string' && OVERLOADED.has(fault.name)) return true;
  const status = fault.$metadata?.httpStatusCode;
  if (status !== undefined && status >= 500) return true;
  if (
    error instanceof AggregateError &&
    error.errors.some((inner) => isDependencyUnavailable(inner, depth + 1))
  )
    return true;
  return isDependencyUnavailable(fault.cause, depth + 1);
};
