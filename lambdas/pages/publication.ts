// pages -> writing a hosted page's files to its publication's folder (core/publications.ts)
// through the BlobStore port, and which paths and kinds of file a publication serves; `index.html` is the
// folder itself.
//
// Versions switch atomically: a version's files all live under `v{n}/` and are written first, and the
// single `index.html` write then points the stable link at them. A marker blob `withdrawn` makes every
// path of the publication answer 410.
import { bytesOnce } from '../core/blobs';
import type { BlobStore } from '../core/ports';
import { isSlug, publicationKey } from '../core/publications';
import type { ViewerOutput } from './viewer';

/** The only kinds of file a publication serves, by extension; any other path is not found. */
export const PUBLICATION_CONTENT_TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  png: 'image/png',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  woff2: 'font/woff2',
};

/** A path within a publication: segments of safe characters, none starting with a dot (no `..`). */
export const isPublicationPath = (value: string): boolean =>
  value.length <= 512 && value.split('/').every((segment) => /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(segment));

/** A path whose content never changes once written (a version's own folder): cacheable for good. */
export const isImmutablePath = (path: string): boolean => /^v\d+\//.test(path);

/** At most this many blobs copied at once (each one request to the store; no bytes through here). */
const COPY_CONCURRENCY = 8;

/**
 * Writes a rendered viewer to `published/{slug}/`: the copied blobs (page images, the PDF: copied within
 * the store) and the stylesheet first, then `index.html`, which makes the version live. Repeating it
 * repeats the same writes (idempotent).
 */
export const writeViewer = async (blobs: BlobStore, slug: string, output: ViewerOutput): Promise<void> => {
  if (!isSlug(slug)) throw new Error(`not a publication slug: ${slug}`);
  const queue = [...output.copies];
  const worker = async (): Promise<void> => {
    for (let copy = queue.shift(); copy; copy = queue.shift()) {
      await blobs.copy(copy.fromKey, publicationKey(slug, copy.path), copy.contentType);
    }
  };
  await Promise.all(Array.from({ length: Math.min(COPY_CONCURRENCY, queue.length) }, worker));
  // In order: `files` ends with index.html.
  for (const file of output.files) {
    const bytes = typeof file.body === 'string' ? Buffer.from(file.body, 'utf8') : file.body;
    await blobs.put(publicationKey(slug, file.path), bytesOnce(bytes), file.contentType);
  }
};
