// frontend/onboarding -> how the frame's built files are served, by the local frame host and by
// CloudFront as the CDK app deploys them: their security headers, caching and ETags, and the loader with
// its environment's frame address in place of the placeholder.
import { createHash } from 'node:crypto';
import { FRAME_CSP, FRAME_ORIGIN_PLACEHOLDER, type OnboardingAssets } from './build';

export const FRAME_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': FRAME_CSP,
  'X-Content-Type-Options': 'nosniff',
  // The frame's address and query say nothing, but nothing of a person's visit leaves it either.
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex, nofollow',
};

/** Files under `assets/` carry their content hash in their name: they never change. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The page itself is checked on every load (it names the current assets). */
const REVALIDATE = 'no-cache';
/** The loader is small and named by no version: caches keep it five minutes. */
export const LOADER_CACHE = 'public, max-age=300';
const LOADER_CONTENT_TYPE = 'text/javascript; charset=utf-8';

export interface StaticFile {
  body: Buffer;
  contentType: string;
  etag: string;
  cacheControl: string;
}

const etagOf = (body: Uint8Array): string =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;

/** The frame's files by request path (`/index.html` also answers `/`). */
export type FrameFiles = ReadonlyMap<string, StaticFile>;

export const frameFiles = (assets: OnboardingAssets): FrameFiles =>
  new Map(
    assets.frame.map((file) => {
      const path = `/${file.path.replace(/^\/+/, '')}`;
      const body = Buffer.from(file.body);
      return [
        path,
        {
          body,
          contentType: file.contentType,
          etag: etagOf(body),
          cacheControl: path.startsWith('/assets/') ? IMMUTABLE : REVALIDATE,
        },
      ];
    }),
  );

/** The loader with its environment's frame address in place of the placeholder. */
export const loaderFile = (assets: OnboardingAssets, frameOrigin: string): StaticFile => {
  const text = new TextDecoder().decode(assets.loader.body);
  if (!text.includes(FRAME_ORIGIN_PLACEHOLDER))
    throw new Error(
      `the built onboarding loader has no ${FRAME_ORIGIN_PLACEHOLDER} placeholder for its frame address`,
    );
  const body = Buffer.from(text.replaceAll(FRAME_ORIGIN_PLACEHOLDER, new URL(frameOrigin).origin), 'utf8');
  return { body, contentType: LOADER_CONTENT_TYPE, etag: etagOf(body), cacheControl: LOADER_CACHE };
};
