// api -> one request type for every host: built from the API Gateway (HTTP API, payload 2.0) event a
// Lambda receives, or from a Node request whose body streams (local stack, upload ingest service).
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { CallCredential } from '../../core/auth';
import type { QueryPairs } from '../../core/lists';
import type { Scope } from '../../core/model';

/**
 * A request is its own credential for the core's auth (`authenticate(ports, settings, request)`), which
 * tells it the caller once the credential is accepted: the endpoint then records the call in that caller's
 * request history.
 */
export interface ApiRequest extends CallCredential {
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
  /** The caller whose credential the core accepted, once it has; undefined for a refused or absent one. */
  readonly caller: Scope | undefined;
}

const queryPairs = (rawQuery: string): QueryPairs => [...new URLSearchParams(rawQuery)];

const declaredLength = (value: string | undefined): number | undefined =>
  value !== undefined && /^[0-9]+$/.test(value) ? Number(value) : undefined;

// The requests are classes rather than objects of closures: one is made per request, and methods on a
// prototype cost nothing to make (a closure per method was a measurable share of a cached GET).

/** What both kinds of request share: the credential sent, and the caller it was accepted as. */
abstract class CredentialOfRequest implements CallCredential {
  caller: Scope | undefined = undefined;

  abstract header(name: string): string | undefined;

  get authorization(): string | undefined {
    return this.header('authorization');
  }

  accept(caller: Scope): void {
    this.caller = caller;
  }
}

/** A request as API Gateway hands it to a Lambda: the whole body in the event. */
class EventRequest extends CredentialOfRequest implements ApiRequest {
  readonly method: string;
  readonly path: string;
  readonly pathParameters: Readonly<Record<string, string | undefined>>;
  readonly contentLength: number | undefined;
  private readonly headers: Map<string, string | undefined>;
  /** Decoded once, on first use: the length and the reading both need it. */
  private decoded: Buffer | undefined;
  private pairs: QueryPairs | undefined;

  constructor(private readonly event: APIGatewayProxyEventV2) {
    super();
    this.headers = new Map(
      Object.entries(event.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
    );
    this.method = event.requestContext.http.method.toUpperCase();
    this.path = event.rawPath;
    this.pathParameters = event.pathParameters ?? {};
    this.contentLength = declaredLength(this.headers.get('content-length')) ?? this.body().length;
  }

  get query(): QueryPairs {
    this.pairs ??= queryPairs(this.event.rawQueryString ?? '');
    return this.pairs;
  }

  override header(name: string): string | undefined {
    return this.headers.get(name);
  }

  async text(): Promise<string> {
    return this.body().toString('utf8');
  }

  async *stream(): AsyncIterable<Uint8Array> {
    yield this.body();
  }

  /** API Gateway hands a Lambda only whole requests. */
  clientGone(): boolean {
    return false;
  }

  private body(): Buffer {
    this.decoded ??= Buffer.from(this.event.body ?? '', this.event.isBase64Encoded ? 'base64' : 'utf8');
    return this.decoded;
  }
}

export const fromApiGatewayEvent = (event: APIGatewayProxyEventV2): ApiRequest => new EventRequest(event);

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

/** A request read from Node HTTP, its body streaming. */
class NodeRequest extends CredentialOfRequest implements ApiRequest {
  readonly method: string;
  readonly path: string;
  readonly contentLength: number | undefined;
  private pairs: QueryPairs | undefined;

  constructor(
    private readonly request: IncomingMessage,
    private readonly url: URL,
    readonly pathParameters: Readonly<Record<string, string>>,
  ) {
    super();
    this.method = (request.method ?? 'GET').toUpperCase();
    this.path = url.pathname;
    this.contentLength = declaredLength(request.headers['content-length']);
  }

  get query(): QueryPairs {
    this.pairs ??= queryPairs(this.url.search);
    return this.pairs;
  }

  override header(name: string): string | undefined {
    const value = this.request.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  async text(): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of unreadOnReturn(this.request)) {
      size += (chunk as Buffer).length;
      if (size > MAX_JSON_BODY) break;
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  stream(): AsyncIterable<Uint8Array> {
    return unreadOnReturn(this.request);
  }

  clientGone(): boolean {
    return this.request.readableAborted;
  }
}

export const fromNodeRequest = (
  request: IncomingMessage,
  url: URL,
  pathParameters: Readonly<Record<string, string>>,
): ApiRequest => new NodeRequest(request, url, pathParameters);
