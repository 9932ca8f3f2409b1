// local -> serves the MCP server's HTTP face (lambdas/mcp/http.ts) through the one Node adapter: the local
// stack's two API addresses route `/mcp` and its metadata here. Its body is read whole, up to the limit
// a deployed API Gateway keeps.
import type { RequestListener } from 'node:http';
import { errorAnswer, responseOf } from '../lambdas/api/http/answer';
import { readBodyUpTo } from '../lambdas/api/http/body';
import { ServiceError } from '../lambdas/core/errors';
import { newRequestId } from '../lambdas/core/request-ids';
import type { FetchHandler } from '../lambdas/hosts/http/fetch-handler';
import { nodeListener } from '../lambdas/hosts/http/node-adapter';
import { isMcpPath } from '../lambdas/mcp/http';
import { requestTarget } from './request-target';

/** API Gateway's own limit on a request body; MCP messages are far smaller. */
const MAX_BODY = 10 * 1024 * 1024;

/** `handle` given the body whole (or a 413 once it passes API Gateway's limit), its answer read whole. */
const whole =
  (handle: FetchHandler): FetchHandler =>
  async (request) => {
    const { bytes, whole } = await readBodyUpTo(request, MAX_BODY);
    if (!whole) {
      const tooLarge = new ServiceError('payload_too_large', 'A request body here may be up to 10 MB.');
      return responseOf(errorAnswer(newRequestId(), tooLarge));
    }
    const { method, headers } = request;
    const answer = await handle(
      new Request(request.url, { method, headers, ...(bytes.length > 0 && { body: bytes }) }),
    );
    // Read whole, as a Lambda's answer is: stateless answers end when their one exchange does.
    const body = new Uint8Array(await answer.arrayBuffer());
    return new Response(body, { status: answer.status, headers: answer.headers });
  };

/** A listener over a fetch-shaped handler, at `origin` (the address clients use). */
export const fetchListener = (handle: FetchHandler, origin: string): RequestListener =>
  nodeListener(whole(handle), origin);

/** Sends the MCP server's paths to `mcp`, everything else to `next`. */
export const withMcp =
  (mcp: RequestListener, next: RequestListener): RequestListener =>
  (request, response) => {
    // Only a target naming `mcp` can resolve to one of its paths (dot segments keep the name; a
    // percent-encoded letter does not decode): every other request skips the URL parse.
    if (!request.url?.includes('mcp')) return next(request, response);
    const { pathname } = requestTarget(request.url);
    return isMcpPath(pathname) ? mcp(request, response) : next(request, response);
  };
