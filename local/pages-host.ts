// local -> serves the hosted pages (contract viewer, later review and snapshot) of one environment over
// Node HTTP, as CloudFront serves them from S3 deployed: `/{slug}/{path}` is the blob
// `published/{slug}/{path}` (`index.html` for `/{slug}/`), written by the publisher with
// lambdas/pages. A withdrawn publication answers 410, anything else not published 404, each with a
// plain page; every answer carries the pages' CSP and security headers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BlobNotFoundError } from '../lambdas/adapters/blobs/s3-blob-store';
import { READ_CHUNK, readBlob } from '../lambdas/core/blobs';
import { log } from '../lambdas/core/log';
import type { BlobStore } from '../lambdas/core/ports';
import { isSlug, publicationKey, withdrawnKey } from '../lambdas/core/publications';
import { renderNotAllowed, renderNotFound, renderUnavailable, renderWithdrawn } from '../lambdas/pages/plain';
import { ICON_PATH, ICON_SVG } from '../lambdas/pages/plain-style';
import { isImmutablePath, isPublicationPath, PUBLICATION_CONTENT_TYPES } from '../lambdas/pages/publication';
import { PAGE_SECURITY_HEADERS } from '../lambdas/pages/security';
import { INDEX_FILE } from '../lambdas/pages/viewer';

const HTML = 'text/html; charset=utf-8';

/** A version's own files never change; the page at the stable link is checked on every visit. */
const cacheControl = (path: string): string =>
  isImmutablePath(path) ? 'public, max-age=31536000, immutable' : 'no-cache';

type Target =
  | { kind: 'file'; slug: string; path: string; contentType: string }
  | { kind: 'redirect'; location: string }
  | { kind: 'not_found' };

/** What a request path names. The raw path is matched, undecoded: no published path needs escaping. */
const resolve = (rawPath: string): Target => {
  const match = /^\/([^/]+)(\/.*)?$/.exec(rawPath);
  const slug = match?.[1];
  if (slug === undefined || !isSlug(slug)) return { kind: 'not_found' };
  const rest = match?.[2];
  // Relative asset paths resolve against `/{slug}/`, so the bare slug moves there.
  if (rest === undefined) return { kind: 'redirect', location: `/${slug}/` };
  const path = rest === '/' ? INDEX_FILE : rest.slice(1);
  if (!isPublicationPath(path)) return { kind: 'not_found' };
  const contentType = PUBLICATION_CONTENT_TYPES[path.slice(path.lastIndexOf('.') + 1)];
  if (!path.includes('.') || contentType === undefined) return { kind: 'not_found' };
  return { kind: 'file', slug, path, contentType };
};

const exists = async (blobs: Pick<BlobStore, 'readRange'>, key: string): Promise<boolean> => {
  try {
    await blobs.readRange(key, 0, 1);
    return true;
  } catch (error) {
    if (error instanceof BlobNotFoundError) return false;
    throw error;
  }
};

const answer = (
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void => {
  response.writeHead(status, {
    ...PAGE_SECURITY_HEADERS,
    'Content-Type': HTML,
    'Cache-Control': 'no-store',
    'Content-Length': String(Buffer.byteLength(body)),
    ...headers,
  });
  response.end(request.method === 'HEAD' ? undefined : body);
};

const write = (response: ServerResponse, chunk: Uint8Array): Promise<void> =>
  response.write(chunk)
    ? Promise.resolve()
    : new Promise((resolve) => {
        // Resolves on close too, so a reader who leaves does not hold the loop forever.
        const done = (): void => {
          response.off('drain', done);
          response.off('close', done);
          resolve();
        };
        response.once('drain', done);
        response.once('close', done);
      });

const serveFile = async (
  blobs: Pick<BlobStore, 'readRange'>,
  request: IncomingMessage,
  response: ServerResponse,
  target: Extract<Target, { kind: 'file' }>,
): Promise<void> => {
  const chunks = readBlob(blobs, publicationKey(target.slug, target.path));
  // The withdrawal marker and the file's first chunk are read together: one round trip, not two.
  const [withdrawn, first] = await Promise.all([
    exists(blobs, withdrawnKey(target.slug)),
    chunks.next().then(
      (result) => ({ found: true as const, result }),
      (error: unknown) => {
        if (error instanceof BlobNotFoundError) return { found: false as const };
        throw error;
      },
    ),
  ]);
  if (withdrawn) {
    await chunks.return(undefined);
    answer(request, response, 410, renderWithdrawn());
    return;
  }
  if (!first.found) {
    answer(request, response, 404, renderNotFound());
    return;
  }
  const head = first.result.done ? new Uint8Array(0) : first.result.value;
  // A blob read in one chunk has a known length; a longer one goes out chunked.
  const whole = first.result.done || head.byteLength < READ_CHUNK;
  response.writeHead(200, {
    ...PAGE_SECURITY_HEADERS,
    'Content-Type': target.contentType,
    'Cache-Control': cacheControl(target.path),
    ...(whole && { 'Content-Length': String(head.byteLength) }),
    // The viewer's download link: save the PDF rather than open it under the page's CSP.
    ...(target.contentType === 'application/pdf' && { 'Content-Disposition': 'attachment' }),
  });
  if (request.method === 'HEAD') {
    await chunks.return(undefined);
    response.end();
    return;
  }
  if (head.byteLength > 0) await write(response, head);
  for await (const chunk of chunks) {
    if (response.destroyed) break;
    await write(response, chunk);
  }
  response.end();
};

/** A request listener serving the hosted pages kept in `blobs`; only GET and HEAD. */
export const pagesListener =
  (blobs: Pick<BlobStore, 'readRange'>) =>
  async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    try {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        answer(request, response, 405, renderNotAllowed(), { Allow: 'GET, HEAD' });
        return;
      }
      const rawPath = (request.url ?? '/').split('?')[0] ?? '/';
      // The pages' icon, for the plain pages and for a browser that asks the origin for one.
      if (rawPath === ICON_PATH || rawPath === '/favicon.ico') {
        answer(request, response, 200, ICON_SVG, {
          'Content-Type': 'image/svg+xml',
          'Cache-Control': 'public, max-age=86400',
        });
        return;
      }
      const target = resolve(rawPath);
      if (target.kind === 'not_found') answer(request, response, 404, renderNotFound());
      else if (target.kind === 'redirect') answer(request, response, 308, '', { Location: target.location });
      else await serveFile(blobs, request, response, target);
    } catch (error) {
      // Not the URL: its slug is the key to the page.
      log.error('pages host: could not serve a request', { error });
      if (!response.headersSent) answer(request, response, 503, renderUnavailable(), { 'Retry-After': '5' });
      else response.destroy();
    }
  };
