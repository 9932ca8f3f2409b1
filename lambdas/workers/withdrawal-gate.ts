// workers -> the withdrawal gate of the hosted pages (deployed only): keeps the CloudFront KeyValueStore
// of withdrawn slugs, which the pages' viewer-request function reads (lib/hosted-pages.ts), in step with
// the marker blobs `published/{slug}/withdrawn` that lambdas/pages/publication.ts writes and deletes,
// and invalidates the publication's cached files. EventBridge delivers S3's "Object Created" and
// "Object Deleted" events of marker keys; each says which marker changed, and the bucket says whether it
// is there now, so events delivered late or out of order still leave the store as the bucket is.
//
// The store is the stateless stack's, the markers the stateful stack's bucket: a store made afresh (the
// stateless stack destroyed and deployed again) is filled from the markers by `backfillWithdrawals`, run
// once by each deployment that creates or changes it, so no withdrawn page comes back.
// Its ports over the AWS SDK are adapters/cloudfront/withdrawal-gate-ports.ts; its Lambda's entry is
// hosts/aws/functions/withdrawal-gate.ts.
import * as z from 'zod/mini';
import { ConcurrentChange } from '../core/errors';
import { isSlug, withdrawnKey } from '../core/publications';
import { type BackfillPorts, type GatePorts, MARKER_EVENT_TYPES } from '../core/withdrawal-gate-ports';

/** The slug whose withdrawal marker `key` is, or null for any other key. */
export const slugOfMarker = (key: string): string | null => {
  const slug = key.split('/')[1] ?? '';
  return isSlug(slug) && key === withdrawnKey(slug) ? slug : null;
};

/** The paths invalidated when a publication is withdrawn or comes back: all of its files. */
export const publicationPaths = (slug: string): string[] => [`/${slug}/*`];

// ---------------------------------------------------------------------------------------------------
// The gate, over its ports.

/** Attempts of a conditional write before giving up (Lambda then retries the whole event). */
export const ETAG_ATTEMPTS = 5;

/**
 * Runs `write` with the store's current ETag, reading it again and retrying (after a short, growing,
 * jittered pause) while another writer changed the store in between.
 */
export const writeWithEtag = async (
  ports: Pick<GatePorts, 'store' | 'pause'>,
  write: (ifMatch: string) => Promise<void>,
  attempts = ETAG_ATTEMPTS,
): Promise<void> => {
  for (let attempt = 1; ; attempt++) {
    try {
      await write(await ports.store.etag());
      return;
    } catch (error) {
      // Another writer changed the store since its ETag was read; any other refusal would not change.
      if (!(error instanceof ConcurrentChange) || attempt >= attempts) throw error;
      await ports.pause(50 * 2 ** attempt * (0.5 + Math.random()));
    }
  }
};

const MarkerEvent = z.object({
  id: z.string().check(z.minLength(1)),
  source: z.literal('aws.s3'),
  'detail-type': z.enum(MARKER_EVENT_TYPES),
  detail: z.object({
    bucket: z.object({ name: z.string().check(z.minLength(1)) }),
    object: z.object({ key: z.string().check(z.minLength(1)) }),
  }),
});

export type GateOutcome = { slug: string; withdrawn: boolean } | { ignored: string };

/**
 * Handles one S3 event of a marker key: the slug goes into the store while its marker is present and
 * out of it when it is not, then the publication's files are invalidated. Repeating it is harmless.
 */
export const syncWithdrawal = async (event: unknown, ports: GatePorts): Promise<GateOutcome> => {
  const parsed = MarkerEvent.safeParse(event);
  if (!parsed.success) throw new Error(`not an S3 object event: ${z.prettifyError(parsed.error)}`);
  const { detail, id } = parsed.data;
  if (detail.bucket.name !== ports.bucket) throw new Error(`an event of bucket ${detail.bucket.name}`);
  const slug = slugOfMarker(detail.object.key);
  if (slug === null) return { ignored: 'not a withdrawal marker' };

  const withdrawn = await ports.markerPresent(withdrawnKey(slug));
  await writeWithEtag(ports, (ifMatch) =>
    withdrawn ? ports.store.put(slug, 'withdrawn', ifMatch) : ports.store.delete(slug, ifMatch),
  );
  // The event id names the invalidation: a retried event asks for the same one again.
  await ports.invalidate(publicationPaths(slug), `withdrawal-gate-${id}-${withdrawn ? 'put' : 'delete'}`);
  return { slug, withdrawn };
};

/**
 * Puts the slug of every marker in the bucket into the store: what a new store needs to answer 410 for
 * every publication withdrawn before it existed. Idempotent (a put of a slug already there changes
 * nothing a reader sees), and nothing is invalidated: a new distribution has nothing cached, and an
 * existing one was invalidated when each withdrawal happened.
 */
export const backfillWithdrawals = async (ports: BackfillPorts): Promise<{ withdrawn: string[] }> => {
  const withdrawn: string[] = [];
  for await (const key of ports.markerKeys()) {
    const slug = slugOfMarker(key);
    if (slug === null) continue;
    await writeWithEtag(ports, (ifMatch) => ports.store.put(slug, 'withdrawn', ifMatch));
    withdrawn.push(slug);
  }
  return { withdrawn };
};
