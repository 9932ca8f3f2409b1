// host -> the one Node adapter: a web-standard handler served over Node HTTP (@hono/node-server), its
// request body streaming as it arrives. An answer given before the body was read whole (401, 413, …)
// closes the connection once what is still coming has been discarded, so the client reads the answer
// instead of a reset.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { getRequestListener, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import { withArrivingBody } from '../../api/http/body';
import { atOrigin, type FetchHandler, guarded } from './fetch-handler';
import { collectingYoung } from './young-collection';

/** How long an early answer waits for the rest of an unread body before closing. */
const DRAIN_MS = 5_000;

/** A request with neither header has no body (RFC 9112 §6.3): nothing can be left unread. */
const hasBody = (request: IncomingMessage): boolean =>
  request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined;

const closingEarly =
  (listener: RequestListener): RequestListener =>
  (request: IncomingMessage, response: ServerResponse) => {
    // Most requests (every GET) have no body: they pay for no watch over one.
    if (!hasBody(request)) return listener(request, response);
    const writeHead = response.writeHead;
    response.writeHead = ((...args: Parameters<typeof writeHead>) => {
      if (!request.complete) response.setHeader('Connection', 'close');
      return writeHead.apply(response, args);
    }) as typeof writeHead;
    response.once('finish', () => {
      if (request.complete || request.destroyed) return;
      // Null once the client has gone; taken now, as Node detaches it from a finished exchange.
      const socket = request.socket;
      const hangUp = setTimeout(() => socket?.destroy(), DRAIN_MS).unref();
      request.once('end', () => clearTimeout(hangUp));
      // Nobody reads the rest: the body's stream (which pauses the request when its queue is full) lets go.
      request.removeAllListeners('data');
      request.resume();
    });
    return listener(request, response);
  };

/**
 * Node's request as the body's chunks, read by the upload endpoints without a web stream in between;
 * stopping early leaves it whole (not destroyed), for the answer and the drain above. Its read buffers
 * are freed as it goes (young-collection.ts).
 */
const arrivingChunks = (incoming: Readable): AsyncIterable<Uint8Array> => ({
  [Symbol.asyncIterator]: () => collectingYoung(incoming.iterator({ destroyOnReturn: false })),
});

/** `handle` as a Node listener; with `origin`, every request is at that address, whatever `Host` said. */
export const nodeListener = (handle: FetchHandler, origin?: string): RequestListener => {
  const safe = guarded(handle);
  return closingEarly(
    getRequestListener(
      (request: Request, { incoming }: HttpBindings | Http2Bindings) => {
        const served = origin === undefined ? request : atOrigin(request, origin);
        // A GET or HEAD has no body to read (and most requests are those: they pay for nothing here).
        const bodiless = request.method === 'GET' || request.method === 'HEAD';
        return safe(bodiless ? served : withArrivingBody(served, arrivingChunks(incoming)));
      },
      {
        hostname: 'localhost',
        // The drain above is the one this service gives: its own bound, and `Connection: close`.
        autoCleanupIncoming: false,
      },
    ) as RequestListener,
  );
};
