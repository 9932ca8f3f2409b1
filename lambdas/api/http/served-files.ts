// api -> how a built web application's files (the portal's, the back office's) are served,
// by its local host and as CloudFront serves them deployed: its content security policy (its own script
// and stylesheet only, nothing inline, no frame, no other origin), caching (content-hashed assets for
// good, the page checked on every load), the answer to a GET of a page or an asset, and the headers of
// its backend's JSON answers.
import { createHash } from 'node:crypto';

/** An application's built files (build.ts): `index.html` first, then `assets/…`, by path without a leading slash. */
export interface AppAssets {
  files: Array<{ path: string; contentType: string; body: Uint8Array }>;
}

export const APP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const COMMON: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // Same-origin requests keep their `Origin`; nothing of a page's address leaves for another site.
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  ...COMMON,
  'Content-Security-Policy': APP_CSP,
};

/** JSON answers: never cached (they hold a person's data, and once a secret). */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  ...COMMON,
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Cache-Control': 'no-store',
};

export interface AppFile {
  body: Uint8Array;
  contentType: string;
  etag: string;
  cacheControl: string;
}

/** An application's files by request path: `/index.html` and `/assets/…`. */
export type AppFiles = ReadonlyMap<string, AppFile>;

const etagOf = (body: Uint8Array): string =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;

export const appFiles = (assets: AppAssets): AppFiles =>
  new Map(
    assets.files.map((file) => {
      const path = `/${file.path}`;
      return [
        path,
        {
          body: file.body,
          contentType: file.contentType,
          etag: etagOf(file.body),
          cacheControl: path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        },
      ];
    }),
  );

export interface FileAnswer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | string;
}

/**
 * The answer to `method` of a page path: `/assets/…` is that asset, any other path the one `index.html`
 * (the script shows the page of the path); a matching `If-None-Match` is 304; only GET and HEAD.
 */
export const fileAnswer = (
  files: AppFiles,
  method: string,
  path: string,
  ifNoneMatch: string | undefined,
): FileAnswer => {
  const text = { ...PAGE_SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' };
  if (method !== 'GET' && method !== 'HEAD')
    return {
      status: 405,
      headers: { ...text, Allow: 'GET, HEAD' },
      body: 'Only GET and HEAD are allowed here.\n',
    };
  const file = files.get(path.startsWith('/assets/') ? path : '/index.html');
  if (!file) return { status: 404, headers: text, body: 'Not found.\n' };
  const headers = {
    ...PAGE_SECURITY_HEADERS,
    'Content-Type': file.contentType,
    'Cache-Control': file.cacheControl,
    ETag: file.etag,
  };
  const etags = (ifNoneMatch ?? '').split(',').map((tag) => tag.trim());
  if (etags.includes(file.etag)) return { status: 304, headers, body: '' };
  return { status: 200, headers, body: method === 'HEAD' ? '' : file.body };
};
