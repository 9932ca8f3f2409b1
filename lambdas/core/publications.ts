// core -> where a publication lives in the blob store, and withdrawing one. A publication is the folder
// `published/{slug}/`, served as `/{slug}/` (by the pages host locally, by CloudFront from S3 deployed):
// public path = blob key without the `published/` prefix. A marker blob `withdrawn` makes every path of
// the publication answer 410; the pages host, CloudFront's gate and the pipeline all read it here.
import { bytesOnce } from './blobs';
import type { BlobStore } from './ports';

/** The folder of every publication in the blob store. */
export const PUBLICATIONS_PREFIX = 'published/';
/** The name, in a publication's folder, of the marker blob of a withdrawal. */
export const WITHDRAWN_MARKER = 'withdrawn';

/** A publication's slug as the pages host accepts it: URL-safe characters only (no dots, no slashes). */
export const isSlug = (value: string): boolean => /^[A-Za-z0-9_-]{1,128}$/.test(value);

export const publicationKey = (slug: string, path: string): string => `${PUBLICATIONS_PREFIX}${slug}/${path}`;

/** The marker whose presence means the publication was withdrawn. */
export const withdrawnKey = (slug: string): string => publicationKey(slug, WITHDRAWN_MARKER);

/** Withdraws a publication: from now on each of its paths answers 410. */
export const withdrawPublication = async (blobs: BlobStore, slug: string): Promise<void> => {
  if (!isSlug(slug)) throw new Error(`not a publication slug: ${slug}`);
  // A few bytes rather than none: a range read of an empty object is refused rather than answered.
  await blobs.put(withdrawnKey(slug), bytesOnce(Buffer.from('withdrawn\n')), 'text/plain; charset=utf-8');
};
