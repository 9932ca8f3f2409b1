// workers -> the withdrawal gate of the hosted pages (deployed only): keeps the CloudFront KeyValueStore
// of withdrawn slugs, which the pages' viewer-request function reads (lib/hosted-pages.ts), in step with
// the marker blobs `published/{slug}/withdrawn` that frontend/pages/publication.ts writes and deletes,
// and invalidates the publication's cached files. EventBridge delivers S3's "Object Created" and
// "Object Deleted" events of marker keys; each says which marker changed, and the bucket says whether it
// is there now, so events delivered late or out of order still leave the store as the bucket is.
//
// The AWS SDK makes the calls, with the function role's credentials: S3's ListObjectsV2, the
// KeyValueStore API's DescribeKeyValueStore, PutKey and DeleteKey (SigV4A only, which the SDK signs once
// `@smithy/signature-v4a` is loaded) and CloudFront's CreateInvalidation. The SDK is loaded with the
// first event, not on import: the CDK app imports this module for its settings.
import type { CloudFrontClientConfig } from '@aws-sdk/client-cloudfront';
import * as z from 'zod/mini';
import { isSlug, withdrawnKey } from '../../frontend/pages/publication';

/** The settings the gate reads besides `BLOB_BUCKET` (lib/hosted-pages.ts sets them). */
export const GATE_SETTINGS = {
  store: 'WITHDRAWN_SLUGS_STORE_ARN',
  distribution: 'PAGES_DISTRIBUTION_ID',
} as const;

/** S3's EventBridge events the gate is sent (lib/hosted-pages.ts filters on them). */
export const MARKER_EVENT_TYPES = ['Object Created', 'Object Deleted'] as const;

/** The slug whose withdrawal marker `key` is, or null for any other key. */
export const slugOfMarker = (key: string): string | null => {
  const slug = key.split('/')[1] ?? '';
  return isSlug(slug) && key === withdrawnKey(slug) ? slug : null;
};

/** The paths invalidated when a publication is withdrawn or comes back: all of its files. */
export const publicationPaths = (slug: string): string[] => [`/${slug}/*`];

// ---------------------------------------------------------------------------------------------------
// The gate, over its ports.

/** The KeyValueStore as the gate uses it: every write names the store version (ETag) it expects. */
export interface KeyValueStore {
  /** The store's current version (DescribeKeyValueStore's ETag). */
  etag(): Promise<string>;
  /** PutKey: throws the SDK's ConflictException when `ifMatch` is no longer the store's version. */
  put(key: string, value: string, ifMatch: string): Promise<void>;
  /** DeleteKey, as `put`; deleting a key that is not there succeeds. */
  delete(key: string, ifMatch: string): Promise<void>;
}

export interface GatePorts {
  /** The bucket the markers live in (events of any other bucket are refused). */
  readonly bucket: string;
  /** Whether the withdrawal marker of `slug` is in the bucket now. */
  markerPresent(slug: string): Promise<boolean>;
  readonly store: KeyValueStore;
  /** Invalidates `paths` in the distribution; `reference` makes a repeated request a no-op. */
  invalidate(paths: string[], reference: string): Promise<void>;
  /** Waits before a retry (tests pass a no-op). */
  pause(milliseconds: number): Promise<void>;
}

/** Whether `error` is the SDK's service exception `name` (matched by name: the SDK is loaded lazily). */
const isSdkError = (error: unknown, name: string): boolean => error instanceof Error && error.name === name;

/**
 * Whether the store refused a write because another writer changed it since its ETag was read: the
 * KeyValueStore API's ConflictException (409). Other refusals (a ValidationException among them) would
 * not change on a retry with a fresh ETag.
 */
export const isStaleEtag = (error: unknown): boolean => isSdkError(error, 'ConflictException');

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
      if (!isStaleEtag(error) || attempt >= attempts) throw error;
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

  const withdrawn = await ports.markerPresent(slug);
  await writeWithEtag(ports, (ifMatch) =>
    withdrawn ? ports.store.put(slug, 'withdrawn', ifMatch) : ports.store.delete(slug, ifMatch),
  );
  // The event id names the invalidation: a retried event asks for the same one again.
  await ports.invalidate(publicationPaths(slug), `withdrawal-gate-${id}-${withdrawn ? 'put' : 'delete'}`);
  return { slug, withdrawn };
};

// ---------------------------------------------------------------------------------------------------
// The ports over the AWS SDK, and the Lambda handler.

export const GateConfig = z.object({
  [GATE_SETTINGS.store]: z
    .string()
    .check(z.regex(/^arn:aws:cloudfront::\d{12}:key-value-store\/[A-Za-z0-9-]+$/)),
  [GATE_SETTINGS.distribution]: z.string().check(z.regex(/^[A-Z0-9]+$/)),
  BLOB_BUCKET: z.string().check(z.minLength(1)),
  AWS_REGION: z.string().check(z.minLength(1)),
});
export type GateConfig = z.infer<typeof GateConfig>;

/** Client settings besides the region: none deployed (the SDK's defaults); tests fake the HTTP handler. */
export type SdkOptions = Pick<CloudFrontClientConfig, 'credentials' | 'requestHandler' | 'maxAttempts'>;

/** The gate's ports over the AWS SDK's clients (the role's credentials, from the SDK's default chain). */
export const sdkPorts = async (config: GateConfig, options: SdkOptions = {}): Promise<GatePorts> => {
  const [s3Sdk, kvsSdk, cloudFrontSdk] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('@aws-sdk/client-cloudfront-keyvaluestore'),
    import('@aws-sdk/client-cloudfront'),
    // Registers the SDK's SigV4A signer, which the KeyValueStore client needs and does not load itself.
    import('@smithy/signature-v4a'),
  ]);
  const clientConfig = { region: config.AWS_REGION, ...options };
  const s3 = new s3Sdk.S3Client(clientConfig);
  const kvs = new kvsSdk.CloudFrontKeyValueStoreClient(clientConfig);
  const cloudFront = new cloudFrontSdk.CloudFrontClient(clientConfig);
  const KvsARN = config[GATE_SETTINGS.store];
  return {
    bucket: config.BLOB_BUCKET,
    // A listing of the marker's own key (the role may list nothing else): the current version only,
    // so a deleted marker (a delete marker in the versioned bucket) is absent.
    markerPresent: async (slug) => {
      const key = withdrawnKey(slug);
      const listed = await s3.send(
        new s3Sdk.ListObjectsV2Command({ Bucket: config.BLOB_BUCKET, Prefix: key, MaxKeys: 1 }),
      );
      return (listed.Contents ?? []).some((object) => object.Key === key);
    },
    store: {
      etag: async () => {
        const { ETag } = await kvs.send(new kvsSdk.DescribeKeyValueStoreCommand({ KvsARN }));
        if (!ETag) throw new Error('DescribeKeyValueStore answered no ETag');
        return ETag;
      },
      put: async (Key, Value, IfMatch) => {
        await kvs.send(new kvsSdk.PutKeyCommand({ KvsARN, Key, Value, IfMatch }));
      },
      delete: async (Key, IfMatch) => {
        try {
          await kvs.send(new kvsSdk.DeleteKeyCommand({ KvsARN, Key, IfMatch }));
        } catch (error) {
          if (!isSdkError(error, 'ResourceNotFoundException')) throw error;
        }
      },
    },
    invalidate: async (paths, CallerReference) => {
      await cloudFront.send(
        new cloudFrontSdk.CreateInvalidationCommand({
          DistributionId: config[GATE_SETTINGS.distribution],
          InvalidationBatch: { CallerReference, Paths: { Quantity: paths.length, Items: paths } },
        }),
      );
    },
    pause: (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds)),
  };
};
