// host -> the answers Node's HTTP layer would otherwise make itself, before any route sees the request
// (malformed framing, oversized headers, an `Expect` other than 100-continue), given in the service's own
// shape: the JSON error body and a `Service-Request-Id`. Deployed, CloudFront and API Gateway answer
// such requests themselves (README, "Answers made before the service").
import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorAnswer, newRequestId } from '../api/http/answer';
import { ServiceError } from '../core/errors';

/** What the parser's fault means to the sender, and its status. */
const parserFault = (code: string | undefined): { status: number; message: string } =>
  code === 'HPE_HEADER_OVERFLOW'
    ? { status: 431, message: 'The request headers are too large: send at most 16 KiB of headers.' }
    : { status: 400, message: 'The request is not well-formed HTTP/1.1.' };

const onClientError = (error: NodeJS.ErrnoException, socket: Duplex): void => {
  // A connection that is already gone (or a parser timeout on one) has nobody to answer.
  if (error.code === 'ECONNRESET' || !socket.writable) {
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

/** `Expect` other than `100-continue`: 417, as Node would, but in the service's shape. */
const onUnmetExpectation = (request: IncomingMessage, response: ServerResponse): void => {
  const answer = errorAnswer(
    newRequestId(),
    new ServiceError('request_invalid', 'Only `Expect: 100-continue` is understood; send no other Expect.'),
  );
  request.resume();
  response.writeHead(417, { ...answer.headers, 'Content-Length': String(Buffer.byteLength(answer.body)) });
  response.end(answer.body);
};

/** Makes `server` answer protocol faults with the JSON error body and a `Service-Request-Id`. */
export const answerProtocolErrorsAsJson = (server: Server): Server =>
  server.on('clientError', onClientError).on('checkExpectation', onUnmetExpectation);
