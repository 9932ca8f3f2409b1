// local -> the sign-up form of one environment over Node HTTP (frontend/onboarding/README.md): on the
// frame address, the frame's built files (`GET /` the page, `GET /assets/…` its content-hashed files)
// under the frame's content security policy, and the frame API under `/api/` through the same endpoint
// handlers the deployed functions run; on each API address, the loader `/onboarding.js`. The files are
// built once at start-up; deployed, CloudFront serves the same files.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import {
  FRAME_SECURITY_HEADERS,
  type FrameFiles,
  type StaticFile,
} from '../frontend/onboarding/served-files';
import { FRAME_ENDPOINTS } from '../lambdas/api/frame-endpoints';
import { errorAnswer } from '../lambdas/api/http/answer';
import { ServiceError } from '../lambdas/core/errors';
import { newRequestId } from '../lambdas/core/request-ids';
import type { Services } from '../lambdas/core/services';
import { apiListener } from '../lambdas/hosts/api-host';
import { requestTarget } from './request-target';

/** Whether `If-None-Match` names the file's current ETag (weak comparison, as for GET). */
const notModified = (request: IncomingMessage, etag: string): boolean => {
  const header = request.headers['if-none-match'];
  if (header === undefined) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
};

const plain = (
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void => {
  const body = `${text}\n`;
  // Whatever body came with the request is not read: let it drain.
  request.resume();
  response.writeHead(status, {
    ...headers,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
  });
  response.end(request.method === 'HEAD' ? undefined : body);
};

const serveFile = (
  request: IncomingMessage,
  response: ServerResponse,
  file: StaticFile,
  headers: Record<string, string>,
): void => {
  const common = { ...headers, ETag: file.etag, 'Cache-Control': file.cacheControl };
  if (notModified(request, file.etag)) {
    response.writeHead(304, common);
    response.end();
    return;
  }
  response.writeHead(200, {
    ...common,
    'Content-Type': file.contentType,
    'Content-Length': String(file.body.length),
  });
  response.end(request.method === 'HEAD' ? undefined : file.body);
};

const isRead = (request: IncomingMessage): boolean => request.method === 'GET' || request.method === 'HEAD';

/** The frame address of one environment: its files, and the frame API under `/api/`. */
export const frameListener = (services: Services, files: FrameFiles): RequestListener => {
  const api = apiListener(services, FRAME_ENDPOINTS);
  return (request, response) => {
    const { pathname } = requestTarget(request.url);
    if (pathname === '/api' || pathname.startsWith('/api/')) return api(request, response);
    if (!isRead(request)) {
      plain(request, response, 405, 'Only GET and HEAD are allowed here.', {
        ...FRAME_SECURITY_HEADERS,
        Allow: 'GET, HEAD',
      });
      return;
    }
    const file = files.get(pathname === '/' ? '/index.html' : pathname);
    if (file === undefined) {
      plain(request, response, 404, 'Not found.', FRAME_SECURITY_HEADERS);
      return;
    }
    serveFile(request, response, file, FRAME_SECURITY_HEADERS);
  };
};

/** An API address: `/onboarding.js` served here, every other request to the API. */
export const withLoader =
  (loader: StaticFile, api: RequestListener): RequestListener =>
  (request, response) => {
    // Only a target naming the file can resolve to it (dot segments and backslashes keep the name; a
    // percent-encoded character does not decode): every other request skips the URL parse.
    if (!request.url?.includes('onboarding.js') || requestTarget(request.url).pathname !== '/onboarding.js')
      return api(request, response);
    const requestId = newRequestId();
    const headers = {
      'Service-Request-Id': requestId,
      'X-Content-Type-Options': 'nosniff',
      // Any page may load it, with or without `crossorigin` (and so with Subresource Integrity).
      'Access-Control-Allow-Origin': '*',
      'Cross-Origin-Resource-Policy': 'cross-origin',
    };
    if (!isRead(request)) {
      // On the API's address, in the API's shape.
      const answer = errorAnswer(
        requestId,
        new ServiceError('method_not_allowed', 'Only GET and HEAD are allowed on /onboarding.js.', {
          headers: { Allow: 'GET, HEAD' },
        }),
      );
      request.resume();
      response.writeHead(answer.status, {
        ...headers,
        ...answer.headers,
        'Content-Length': String(Buffer.byteLength(answer.body)),
        'Cache-Control': 'no-store',
      });
      response.end(answer.body);
      return;
    }
    serveFile(request, response, loader, headers);
  };
