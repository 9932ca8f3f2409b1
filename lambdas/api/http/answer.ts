// api -> every answer: JSON with `Content-Type: application/json; charset=utf-8` and
// `Service-Request-Id`, errors as `{ error: { code, message } }`; unknown faults logged, never shown.
import { randomFillSync } from 'node:crypto';
import { isDependencyUnavailable, isServiceError, ServiceError } from '../../core/errors';
import { log } from '../../core/log';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const ID_BYTES = 16;
// One CSPRNG call per 256 ids rather than one per answer: on a cached GET the call cost more than the
// rest of the answer. A request id names a request in logs; it is not a secret.
const pool = Buffer.alloc(ID_BYTES * 256);
let taken = pool.length;

export const newRequestId = (): string => {
  if (taken === pool.length) {
    randomFillSync(pool);
    taken = 0;
  }
  let id = 'rqs_';
  for (let i = taken; i < taken + ID_BYTES; i++) id += ALPHABET[(pool[i] as number) % ALPHABET.length];
  taken += ID_BYTES;
  return id;
};

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
