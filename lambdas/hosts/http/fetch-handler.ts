// host -> what both adapters (node-adapter.ts, aws/lambda-adapter.ts) serve: a web-standard handler from
// Request to Response. A fault it lets through is answered in the API's shape (logged, never shown).
import { errorAnswer, responseOf } from '../../api/http/answer';
import { newRequestId } from '../../core/request-ids';

export type FetchHandler = (request: Request) => Response | Promise<Response>;

export const guarded =
  (handle: FetchHandler): FetchHandler =>
  async (request) => {
    try {
      return await handle(request);
    } catch (error) {
      return responseOf(errorAnswer(newRequestId(), error));
    }
  };

/**
 * The request at `origin` (the public address clients use), whatever host it arrived at: an API
 * Gateway domain, or the `Host` a client sent.
 */
export const atOrigin = (request: Request, origin: string): Request => {
  const url = new URL(request.url);
  return new Request(new URL(url.pathname + url.search, origin), {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: request.signal,
    ...(request.body && { duplex: 'half' }),
  } as RequestInit);
};
