// api -> one request type for every host: built from the API Gateway (HTTP API, payload 2.0) event a
// Lambda receives, or from a Node request whose body streams (local stack, upload ingest service).
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { QueryPairs } from '../../core/lists';

export interface ApiRequest {
  method: string;
  path: string;
  pathParameters: Readonly<Record<string, string | undefined>>;
  query: QueryPairs;
  /** A header by lower-case name. */
  header(name: string): string | undefined;
  /** The declared `Content-Length`, when there is one. */
  contentLength: number | undefined;
  /** The whole body as text (JSON endpoints). */
  text(): Promise<string>;
  /** The body as it arrives (uploads). */
  stream(): AsyncIterable<Uint8Array>;
  /** Whether the client went away before its body was whole (a closed connection, a broken chunk). */
  clientGone(): boolean;
}

const queryPairs = (rawQuery: string): QueryPairs => [...new URLSearchParams(rawQuery)];

const declaredLength = (value: string | undefined): number | undefined =>
  value !== undefined && /^[0-9]+$/.test(value) ? Number(value) : undefined;

export const fromApiGatewayEvent = (event: APIGatewayProxyEventV2): ApiRequest => {
  const headers = new Map(
    Object.entries(event.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  // Decoded once, on first use: the length and the reading both need it.
  let decoded: Buffer | undefined;
  const body = (): Buffer => {
    decoded ??= Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
    return decoded;
  };
  return {
    method: event.requestContext.http.method.toUpperCase(),
    path: event.rawPath,
    pathParameters: event.pathParameters ?? {},
    query: queryPairs(event.rawQueryString ?? ''),
    header: (name) => headers.get(name),
    contentLength: declaredLength(headers.get('content-length')) ?? body().length,
    text: async () => body().toString('utf8'),
    stream: async function* () {
      yield body();
    },
    // API Gateway hands a Lambda only whole requests.
    clientGone: () => false,
  };
};

/** The largest JSON body a non-upload endpoint reads. */
const MAX_JSON_BODY = 64 * 1024;

/**
 * The body's chunks, for a reader that may stop early (a 413 mid-body, a fault of its own): stopping
 * leaves the request whole instead of destroying it, so the host still answers on the connection and
 * drains the rest, and `readableAborted` stays the sign that the client itself went away.
 */
export const unreadOnReturn = (request: IncomingMessage): AsyncIterable<Uint8Array> => ({
  [Symbol.asyncIterator]: () => request.iterator({ destroyOnReturn: false }),
});

export const fromNodeRequest = (
  request: IncomingMessage,
  url: URL,
  pathParameters: Readonly<Record<string, string>>,
): ApiRequest => ({
  method: (request.method ?? 'GET').toUpperCase(),
  path: url.pathname,
  pathParameters,
  query: queryPairs(url.search),
  header: (name) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  },
  contentLength: declaredLength(request.headers['content-length']),
  text: async () => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of unreadOnReturn(request)) {
      size += (chunk as Buffer).length;
      if (size > MAX_JSON_BODY) break;
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  },
  stream: () => unreadOnReturn(request),
  clientGone: () => request.readableAborted,
});
