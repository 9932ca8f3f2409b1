// api -> every answer: JSON with `Content-Type: application/json; charset=utf-8` and
// `Service-Request-Id`, errors as `{ error: { code, message } }`; unknown faults logged, never shown.
import { isDependencyUnavailable, isServiceError, ServiceError } from '../../core/errors';
import { log } from '../../core/log';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** An answer as a web-standard Response, what the adapters send; a 204 or 304 has no body. */
export const responseOf = (answer: HttpAnswer): Response =>
  new Response(answer.status === 204 || answer.status === 304 ? null : answer.body, {
    status: answer.status,
    headers: answer.headers,
  });

export const jsonAnswer = (
  requestId: string,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): HttpAnswer => ({
  status,
  headers: { 'Content-Type': 'application/json; charset=utf-8', 'Service-Request-Id': requestId, ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

/** Seconds a caller is asked to wait when a dependency is down. */
const UNAVAILABLE_RETRY_AFTER = 5;

export const errorAnswer = (requestId: string, error: unknown): HttpAnswer => {
  if (isServiceError(error)) return jsonAnswer(requestId, error.status, error.toJSON(), { ...error.headers });
  const unavailable = isDependencyUnavailable(error);
  log.error(unavailable ? 'dependency unavailable' : 'unhandled fault', {
    service_request_id: requestId,
    error,
  });
  const answer = unavailable
    ? new ServiceError(
        'service_unavailable',
        `The service cannot reach its storage just now; retry in ${UNAVAILABLE_RETRY_AFTER} s.`,
        {
          headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER) },
        },
      )
    : new ServiceError(
        'internal_error',
        `The service failed to answer; quote ${requestId} if you report it.`,
      );
  return jsonAnswer(requestId, answer.status, answer.toJSON(), { ...answer.headers });
};

/**
 * The answer to a request whose client went away before sending its whole body. Nobody reads it; what
 * matters is that it is logged as what it is, at info level (a client's doing, not an outage).
 */
export const clientGoneAnswer = (
  requestId: string,
  request: { method: string; path: string },
): HttpAnswer => {
  log.info('client gone before its request was whole', {
    service_request_id: requestId,
    method: request.method,
    path: request.path,
  });
  const answer = new ServiceError('request_invalid', 'The request ended before its body was complete.');
  return jsonAnswer(requestId, answer.status, answer.toJSON());
};
