// portal -> a request to the portal's backend and its answer, as plain data, read from and written to the
// web-standard Request/Response both adapters serve (hosts/http/node-adapter.ts locally,
// hosts/aws/lambda-adapter.ts deployed): the portal's code is the same behind both.
import { readBodyUpTo } from '../api/http/body';

export interface PortalRequest {
  method: string;
  /** The path, not decoded, without the query. */
  path: string;
  query: URLSearchParams;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | undefined>>;
  /** The body as text (JSON routes); empty when there is none. */
  body: string;
}

export interface PortalAnswer {
  status: number;
  headers: Record<string, string>;
  /** `Set-Cookie` values, one each. */
  cookies: string[];
  body: string | Uint8Array;
}

export type PortalApp = (request: PortalRequest) => Promise<PortalAnswer>;

/** The largest JSON body a route reads (a webhook endpoint's address and events, a name). */
export const MAX_BODY_BYTES = 16 * 1024;

const TOO_LARGE: PortalAnswer = {
  status: 413,
  headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
  cookies: [],
  body: JSON.stringify({
    error: {
      code: 'payload_too_large',
      message: `The portal reads bodies of up to ${MAX_BODY_BYTES} bytes.`,
    },
  }),
};

const headersOf = (headers: Headers): Record<string, string> => {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
};

/** The request as the portal reads it, or null when its body passes MAX_BODY_BYTES. */
const portalRequestOf = async (request: Request): Promise<PortalRequest | null> => {
  const { bytes, whole } = await readBodyUpTo(request, MAX_BODY_BYTES);
  if (!whole) return null;
  const url = new URL(request.url);
  return {
    method: request.method.toUpperCase(),
    path: url.pathname,
    query: url.searchParams,
    headers: headersOf(request.headers),
    body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'),
  };
};

const responseOf = (answer: PortalAnswer): Response => {
  const headers = new Headers(answer.headers);
  for (const cookie of answer.cookies) headers.append('Set-Cookie', cookie);
  const empty = answer.status === 204 || answer.status === 304;
  return new Response(empty ? null : (answer.body as BodyInit), { status: answer.status, headers });
};

/**
 * The portal (built on first use by `app`) as the fetch handler both adapters serve; a body over the
 * limit is refused before the portal is built.
 */
export const portalFetch =
  (app: () => Promise<PortalApp>) =>
  async (request: Request): Promise<Response> => {
    const read = await portalRequestOf(request);
    return responseOf(read === null ? TOO_LARGE : await (await app())(read));
  };
