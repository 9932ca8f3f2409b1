// api -> reading a web-standard request's body up to a limit, for every surface that takes one whole (JSON
// endpoints, the portal's routes, MCP messages). Stopping early releases the stream without cancelling it:
// the request stays whole, so the host still answers on the connection and drains the rest. And the JSON
// object a change of the portal or the back office carries.
import { fail } from '../../core/errors';

export interface BodyRead {
  bytes: Uint8Array<ArrayBuffer>;
  /** False when the body went on past the limit (`bytes` then holds what came before it). */
  whole: boolean;
}

const NONE = new Uint8Array(0);

export const readBodyUpTo = async (request: Request, limit: number): Promise<BodyRead> => {
  if (request.body === null) return { bytes: NONE, whole: true };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes: Buffer.concat(chunks, size), whole: true };
      if (size + value.length > limit) return { bytes: Buffer.concat(chunks, size), whole: false };
      size += value.length;
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
};

/**
 * Bodies a host hands over as they arrive, with no web stream between the socket and the reader: the Node
 * adapter's (a `ReadableStream` over Node's request cost the 100 MB upload half again its CPU time and
 * buffered tens of MiB ahead of the reader). Keyed by the request the host made.
 */
const arrivingBodies = new WeakMap<Request, AsyncIterable<Uint8Array>>();

/** `request`, whose body its reader takes from `body` instead of `request.body` (one reader, once). */
export const withArrivingBody = (request: Request, body: AsyncIterable<Uint8Array>): Request => {
  arrivingBodies.set(request, body);
  return request;
};

/** The body as it arrives: the host's own, when it gave one, else the request's web stream. */
export const arrivingBodyOf = (request: Request): AsyncIterable<Uint8Array> | undefined =>
  arrivingBodies.get(request);

/** A change's body as a JSON object (`{}` when empty); anything else is `request_invalid`. */
export const jsonObjectBody = (text: string): Record<string, unknown> => {
  if (text === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    fail('request_invalid', 'The body is not JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    fail('request_invalid', 'The body must be a JSON object.');
  return parsed as Record<string, unknown>;
};
