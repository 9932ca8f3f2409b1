// api -> one request type for every host and surface: a web-standard Request, as the one Node adapter
// (hosts/http/node-adapter.ts, its body streaming) or the one Lambda adapter (hosts/aws/lambda-adapter.ts,
// from API Gateway's event) hands it, with the path parameters its router matched.
import type { CallCredential } from '../../core/auth';
import type { QueryPairs } from '../../core/lists';
import type { Scope } from '../../core/model';
import { arrivingBodyOf, readBodyUpTo } from './body';

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
  /** The whole body as text (JSON endpoints), up to the largest a JSON endpoint reads. */
  text(): Promise<string>;
  /** The body as it arrives (uploads). */
  stream(): AsyncIterable<Uint8Array>;
  /** Whether the client went away before its body was whole (a closed connection, a broken chunk). */
  clientGone(): boolean;
  /** The caller whose credential the core accepted, once it has; undefined for a refused or absent one. */
  readonly caller: Scope | undefined;
}

const declaredLength = (value: string | null): number | undefined =>
  value !== null && /^[0-9]+$/.test(value) ? Number(value) : undefined;

/** The largest JSON body a non-upload endpoint reads. */
const MAX_JSON_BODY = 64 * 1024;

// A class rather than an object of closures: one is made per request, and methods on a prototype cost
// nothing to make (a closure per method was a measurable share of a cached GET).
class FetchRequest implements ApiRequest {
  caller: Scope | undefined = undefined;
  readonly method: string;
  readonly path: string;
  readonly contentLength: number | undefined;
  private readonly url: URL;
  private pairs: QueryPairs | undefined;
  /** Set when reading the body failed: the client's connection broke under it. */
  private broken = false;

  constructor(
    private readonly request: Request,
    readonly pathParameters: Readonly<Record<string, string | undefined>>,
    url?: URL,
  ) {
    this.url = url ?? new URL(request.url);
    this.method = request.method.toUpperCase();
    this.path = this.url.pathname;
    this.contentLength = declaredLength(request.headers.get('content-length'));
  }

  get authorization(): string | undefined {
    return this.header('authorization');
  }

  accept(caller: Scope): void {
    this.caller = caller;
  }

  get query(): QueryPairs {
    this.pairs ??= [...this.url.searchParams];
    return this.pairs;
  }

  header(name: string): string | undefined {
    return this.request.headers.get(name) ?? undefined;
  }

  async text(): Promise<string> {
    const { bytes } = await this.noting(readBodyUpTo(this.request, MAX_JSON_BODY));
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  }

  /**
   * The body's chunks, for a reader that may stop early (a 413 mid-body, a fault of its own): stopping
   * releases the stream instead of cancelling it, so the host still answers on the connection and drains
   * the rest.
   */
  async *stream(): AsyncIterable<Uint8Array> {
    const arriving = arrivingBodyOf(this.request);
    if (arriving !== undefined) {
      const chunks = arriving[Symbol.asyncIterator]();
      for (;;) {
        const { done, value } = await this.noting(chunks.next());
        if (done) return;
        yield value;
      }
    }
    if (this.request.body === null) return;
    const reader = this.request.body.getReader();
    try {
      for (;;) {
        const { done, value } = await this.noting(reader.read());
        if (done) return;
        yield value;
      }
    } finally {
      reader.releaseLock();
    }
  }

  clientGone(): boolean {
    return this.broken || this.request.signal.aborted;
  }

  private async noting<T>(reading: Promise<T>): Promise<T> {
    try {
      return await reading;
    } catch (error) {
      this.broken = true;
      throw error;
    }
  }
}

/** `url`, when given, is `request.url` already parsed by the router (one parse per request). */
export const fromRequest = (
  request: Request,
  pathParameters: Readonly<Record<string, string | undefined>> = {},
  url?: URL,
): ApiRequest => new FetchRequest(request, pathParameters, url);
