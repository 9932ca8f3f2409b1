// frontend/portal -> how the portal's built files are served (by its local host, and as CloudFront will
// serve them deployed): its content security policy (its own script and stylesheet only, nothing inline,
// no frame, no other origin), caching (content-hashed assets for good, the page checked on every load)
// and the headers of its JSON answers.
import { createHash } from 'node:crypto';

/** The portal's built files (build.ts): `index.html` first, then `assets/…`, by path without a leading slash. */
export interface PortalAssets {
  files: Array<{ path: string; contentType: string; body: Uint8Array }>;
}

export const PORTAL_CSP = [
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
  'Content-Security-Policy': PORTAL_CSP,
};

/** JSON answers: never cached (they hold a person's data, and once a secret). */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  ...COMMON,
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Cache-Control': 'no-store',
};

export interface PortalFile {
  body: Uint8Array;
  contentType: string;
  etag: string;
  cacheControl: string;
}

/** The portal's files by request path: `/index.html` and `/assets/…`. */
export type PortalFiles = ReadonlyMap<string, PortalFile>;

const etagOf = (body: Uint8Array): string =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;

export const portalFiles = (assets: PortalAssets): PortalFiles =>
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
