// host -> serves the MCP server's HTTP face (lambdas/mcp/http.ts) on a Node HTTP server: the local
// stack's two API addresses route `/mcp` and its metadata here. A Node request becomes the web-standard
// Request the face takes (its body read whole, up to the limit a deployed API Gateway keeps), and the
// Response is written back.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { errorAnswer, type HttpAnswer } from '../api/http/answer';
import { ServiceError } from '../core/errors';
import { newRequestId } from '../core/request-ids';
import { MCP_PATHS } from '../mcp/http';
import { requestTarget } from './request-target';

/** API Gateway's own limit on a request body; MCP messages are far smaller. */
const MAX_BODY = 10 * 1024 * 1024;

const readBody = async (request: IncomingMessage): Promise<Buffer | null> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
};

const toRequest = (request: IncomingMessage, origin: string, body: Buffer): Request => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const method = (request.method ?? 'GET').toUpperCase();
  const target = requestTarget(request.url);
  return new Request(new URL(target.pathname + target.search, origin), {
    method,
    headers,
    ...(method !== 'GET' && method !== 'HEAD' && body.length > 0 && { body: new Uint8Array(body) }),
  });
};

const writeAnswer = (response: ServerResponse, answer: HttpAnswer, headers: Record<string, string> = {}) => {
  response.writeHead(answer.status, {
    ...answer.headers,
    ...headers,
    'Content-Length': String(Buffer.byteLength(answer.body)),
  });
  response.end(answer.body);
};

/** A listener over a fetch-shaped handler, at `origin` (the address clients use). */
export const fetchListener =
  (handle: (request: Request) => Promise<Response>, origin: string): RequestListener =>
  async (request: IncomingMessage, response: ServerResponse) => {
    try {
      const body = await readBody(request);
      if (body === null) {
        const tooLarge = new ServiceError('payload_too_large', 'A request body here may be up to 10 MB.');
        return writeAnswer(response, errorAnswer(newRequestId(), tooLarge), { Connection: 'close' });
      }
      const answer = await handle(toRequest(request, origin, body));
      // Read whole, as a Lambda's answer is: stateless answers end when their one exchange does.
      const bytes = Buffer.from(await answer.arrayBuffer());
      const headers: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        headers[name] = value;
      });
      response.writeHead(answer.status, { ...headers, 'Content-Length': bytes.length });
      response.end(bytes);
    } catch (error) {
      // errorAnswer logs the fault and answers internal_error without its details.
      if (!response.headersSent) writeAnswer(response, errorAnswer(newRequestId(), error));
      else response.destroy(error as Error);
    }
  };

/** Sends the MCP server's paths to `mcp`, everything else to `next`. */
export const withMcp =
  (mcp: RequestListener, next: RequestListener): RequestListener =>
  (request, response) => {
    const { pathname } = requestTarget(request.url);
    return MCP_PATHS.includes(pathname) ? mcp(request, response) : next(request, response);
  };
