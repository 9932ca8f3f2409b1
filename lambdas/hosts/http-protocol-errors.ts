// host -> the answers Node's HTTP layer would otherwise make itself, before any route sees the request
// (malformed framing, oversized headers, an `Expect` other than 100-continue, an HTTP/1.1 request without
// `Host`, which Node answers with a bare 400, and `CONNECT`, to which it answers nothing and closes),
// given in the service's own shape: the JSON error body and a `Service-Request-Id`. Deployed, CloudFront
// and API Gateway answer such requests themselves (README, "Answers made before the service").
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerOptions,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { Duplex } from 'node:stream';
import { errorAnswer } from '../api/http/answer';
import { ServiceError } from '../core/errors';
import { newRequestId } from '../core/request-ids';

/** What the parser's fault means to the sender, with the status Node itself gives it. */
const parserFault = (code: string | undefined): { status: number; message: string } => {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: 'The request headers are too large: send at most 16 KiB of headers.' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'The chunk extensions are too large: send at most 16 KiB of them.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'The request did not arrive in time: send its headers within 60 s.' };
    default:
      return { status: 400, message: 'The request is not well-formed HTTP/1.1.' };
  }
};

/** Whether an answer to an earlier request on this connection has begun (Node's own check, private). */
const answerUnderWay = (socket: Duplex): boolean =>
  (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage?.headersSent === true;

const onClientError = (error: NodeJS.ErrnoException, socket: Duplex): void => {
  // A connection that is already gone has nobody to answer; one whose answer has begun would be
  // corrupted by a second.
  if (error.code === 'ECONNRESET' || !socket.writable || answerUnderWay(socket)) {
    socket.destroy();
    return;
  }
  const fault = parserFault(error.code);
  const answer = errorAnswer(newRequestId(), new ServiceError('request_invalid', fault.message));
  const head = [
    `HTTP/1.1 ${fault.status} ${STATUS_CODES[fault.status]}`,
    ...Object.entries({ ...answer.headers, 'Content-Length': String(Buffer.byteLength(answer.body)) }).map(
      ([name, value]) => `${name}: ${value}`,
    ),
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${answer.body}`);
};

/** Answers `error` whole, at `status`, the request's body left unread. */
const refuse = (
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  error: ServiceError,
  headers: Record<string, string> = {},
): void => {
  const answer = errorAnswer(newRequestId(), error);
  request.resume();
  response.writeHead(status, {
    ...answer.headers,
    ...headers,
    'Content-Length': String(Buffer.byteLength(answer.body)),
  });
  response.end(answer.body);
};

/** `Expect` other than `100-continue`: 417, as Node would, but in the service's shape. */
const onUnmetExpectation = (request: IncomingMessage, response: ServerResponse): void =>
  refuse(
    request,
    response,
    417,
    new ServiceError('request_invalid', 'Only `Expect: 100-continue` is understood; send no other Expect.'),
  );

/** `CONNECT`: no tunnel is offered here. Node would close the connection without a word. */
const onConnect = (request: IncomingMessage, socket: Duplex): void => {
  const answer = errorAnswer(
    newRequestId(),
    new ServiceError('method_not_allowed', 'CONNECT is not served here: no tunnel is offered.'),
  );
  const head = [
    'HTTP/1.1 405 Method Not Allowed',
    ...Object.entries({ ...answer.headers, 'Content-Length': String(Buffer.byteLength(answer.body)) }).map(
      ([name, value]) => `${name}: ${value}`,
    ),
    'Connection: close',
  ];
  request.resume();
  if (socket.writable) socket.end(`${head.join('\r\n')}\r\n\r\n${answer.body}`);
  else socket.destroy();
};

/**
 * An HTTP/1.1 request without `Host` (RFC 9112 §3.2 makes it a 400): refused in the service's shape.
 * Node's own check (`requireHostHeader`) answers before any listener with no body, so it is turned off
 * where this one runs.
 */
const requiringHost =
  (listener: RequestListener): RequestListener =>
  (request, response) => {
    if (request.httpVersion === '1.1' && request.headers.host === undefined)
      return refuse(
        request,
        response,
        400,
        new ServiceError('request_invalid', 'Send a Host header: every HTTP/1.1 request needs one.'),
        { Connection: 'close' },
      );
    return listener(request, response);
  };

/** Makes `server` answer protocol faults with the JSON error body and a `Service-Request-Id`. */
export const answerProtocolErrorsAsJson = (server: Server): Server =>
  server.on('clientError', onClientError).on('checkExpectation', onUnmetExpectation).on('connect', onConnect);

/** A server of an API address: every answer in the service's shape, whatever stage refuses the request. */
export const createJsonServer = (options: ServerOptions, listener: RequestListener): Server =>
  answerProtocolErrorsAsJson(createServer({ ...options, requireHostHeader: false }, requiringHost(listener)));
