// frontend/pages -> where a hosted page's files live in the blob store, and writing and withdrawing
// them through the BlobStore port. A publication is the folder `published/{slug}/`, served as
// `/{slug}/` (by the pages host locally, by CloudFront from S3 deployed): public path = blob key
// without the `published/` prefix, `index.html` for the folder itself.
//
// Versions switch atomically: a version's files all live under `v{n}/` and are written first, and the
// single `index.html` write then points the stable link at them. A marker blob `withdrawn` makes every
// path of the publication answer 410.
import type { BlobStore } from '../../lambdas/core/ports';
import type { ViewerOutput } from './viewer';

const PREFIX = 'published/';

/** The only kinds of file a publication serves, by extension; any other path is not found. */
export const PUBLICATION_CONTENT_TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  webp: 'image/webp',
  png: 'image/png',
  pdf: 'application/pdf',
  woff2: 'font/woff2',
};

/** A publication's slug as the pages host accepts it: URL-safe characters only (no dots, no slashes). */
export const isSlug = (value: string): boolean => /^[A-Za-z0-9_-]{1,128}$/.test(value);

/** A path within a publication: segments of safe characters, none starting with a dot (no `..`). */
export const isPublicationPath = (value: string): boolean =>
  value.length <= 512 && value.split('/').every((segment) => /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(segment));

export const publicationKey = (slug: string, path: string): string => `${PREFIX}${slug}/${path}`;

/** The marker whose presence means the publication was withdrawn. */
export const withdrawnKey = (slug: string): string => publicationKey(slug, 'withdrawn');

/** A path whose content never changes once written (a version's own folder): cacheable for good. */
export const isImmutablePath = (path: string): boolean => /^v\d+\//.test(path);

/** Bytes asked of the store at a time when reading a whole blob. */
export const READ_CHUNK = 1024 * 1024;

/**
 * A whole blob in chunks, without knowing its size: the port's `readRange` answers fewer bytes (or none)
 * past the end, so a short chunk is the last. Throws whatever the store throws for a missing key.
 */
export async function* readBlob(
  blobs: BlobStore,
  key: string,
  chunk = READ_CHUNK,
): AsyncGenerator<Uint8Array> {
  for (let offset = 0; ; offset += chunk) {
    const bytes = await blobs.readRange(key, offset, offset + chunk);
    if (bytes.byteLength > 0) yield bytes;
    if (bytes.byteLength < chunk) return;
  }
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** At most this many blobs copied at once. */
const COPY_CONCURRENCY = 8;

/**
 * Writes a rendered viewer to `published/{slug}/`: the copied blobs and the stylesheet first, then
 * `index.html`, which makes the version live. Repeating it repeats the same writes (idempotent).
 */
export const writeViewer = async (blobs: BlobStore, slug: string, output: ViewerOutput): Promise<void> => {
  if (!isSlug(slug)) throw new Error(`not a publication slug: ${slug}`);
  const queue = [...output.copies];
  const worker = async (): Promise<void> => {
    for (let copy = queue.shift(); copy; copy = queue.shift()) {
      await blobs.put(publicationKey(slug, copy.path), readBlob(blobs, copy.fromKey), copy.contentType);
    }
  };
  await Promise.all(Array.from({ length: Math.min(COPY_CONCURRENCY, queue.length) }, worker));
  // In order: `files` ends with index.html.
  for (const file of output.files) {
    const bytes = typeof file.body === 'string' ? Buffer.from(file.body, 'utf8') : file.body;
    await blobs.put(publicationKey(slug, file.path), once(bytes), file.contentType);
  }
};

/** Withdraws a publication: from now on each of its paths answers 410. */
export const withdrawPublication = async (blobs: BlobStore, slug: string): Promise<void> => {
  if (!isSlug(slug)) throw new Error(`not a publication slug: ${slug}`);
  // A few bytes rather than none: a range read of an empty object is refused rather than answered.
  await blobs.put(withdrawnKey(slug), once(Buffer.from('withdrawn\n')), 'text/plain; charset=utf-8');
};
