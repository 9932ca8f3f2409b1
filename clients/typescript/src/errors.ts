// client -> an error answer of the API, typed by its `code`, with the request id to quote.
import type { Answer } from './transport.js';
import type { ErrorCode } from './types.js';

export class ServiceApiError extends Error {
  /** The interface's error code: branch on it. */
  readonly code: ErrorCode;
  readonly status: number;
  /** The answer's `Service-Request-Id`, to quote when reporting a problem. */
  readonly requestId: string | undefined;
  /** Seconds to wait before retrying (`Retry-After`, on 429 and 503). */
  readonly retryAfter: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    status: number,
    requestId: string | undefined,
    retryAfter: number | undefined,
  ) {
    super(message);
    this.name = 'ServiceApiError';
    this.code = code;
    this.status = status;
    this.requestId = requestId;
    this.retryAfter = retryAfter;
  }
}

export const isServiceApiError = (error: unknown): error is ServiceApiError =>
  error instanceof ServiceApiError;

/** The error of an answer that is not 2xx; a body not in the API's shape (a proxy's page) says so. */
export const errorOfResponse = (response: Answer, text: string): ServiceApiError => {
  const requestId = response.header('service-request-id') ?? undefined;
  const retry = Number(response.header('retry-after'));
  const retryAfter = Number.isFinite(retry) && retry > 0 ? retry : undefined;
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code === 'string' && typeof body.error.message === 'string')
      return new ServiceApiError(
        body.error.code as ErrorCode,
        body.error.message,
        response.status,
        requestId,
        retryAfter,
      );
  } catch {
    // not JSON: below
  }
  return new ServiceApiError(
    'internal_error',
    `The service answered ${response.status} without an error body: ${text.slice(0, 200)}`,
    response.status,
    requestId,
    retryAfter,
  );
};
