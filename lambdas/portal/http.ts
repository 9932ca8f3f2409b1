// portal -> the portal's backend (app.ts) as the fetch handler both adapters serve (hosts/http/node-adapter.ts
// locally, hosts/aws/lambda-adapter.ts deployed): its body read whole up to the portal's limit, a body over
// it refused before the portal is built.
import { readBodyUpTo } from '../api/http/body';

/** What the portal's backend is to its hosts: a web-standard handler (a Hono app is one). */
export interface PortalApp {
  fetch(request: Request): Response | Promise<Response>;
}

/** The largest JSON body a route reads (a webhook endpoint's address and events, a name). */
export const MAX_BODY_BYTES = 16 * 1024;

const tooLarge = (): Response =>
  new Response(
    JSON.stringify({
      error: {
        code: 'payload_too_large',
        message: `The portal reads bodies of up to ${MAX_BODY_BYTES} bytes.`,
      },
    }),
    {
      status: 413,
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
    },
  );

/** The portal (built on first use by `app`), handed each request with its body read whole. */
export const portalFetch =
  (app: () => Promise<PortalApp>) =>
  async (request: Request): Promise<Response> => {
    const { bytes, whole } = await readBodyUpTo(request, MAX_BODY_BYTES);
    if (!whole) return tooLarge();
    const { method, headers } = request;
    const read = new Request(request.url, { method, headers, ...(bytes.length > 0 && { body: bytes }) });
    return (await app()).fetch(read);
  };
