// adapter -> the withdrawal gate's ports (core/withdrawal-gate-ports.ts) over the AWS SDK, with the
// function role's credentials: S3's ListObjectsV2, the KeyValueStore API's DescribeKeyValueStore, PutKey
// and DeleteKey (SigV4A only, which the SDK signs once `@smithy/signature-v4a` is loaded) and
// CloudFront's CreateInvalidation. The SDK is loaded with the first event, not on import: the CDK app
// imports this module for the gate's settings.
import type { CloudFrontClientConfig } from '@aws-sdk/client-cloudfront';
import * as z from 'zod/mini';
import { ConcurrentChange } from '../../core/errors';
import { PUBLICATIONS_PREFIX, WITHDRAWN_MARKER } from '../../core/publications';
import type { BackfillPorts, GatePorts } from '../../core/withdrawal-gate-ports';

/** The settings the gate reads besides `BLOB_BUCKET` (lib/hosted-pages.ts sets them). */
export const GATE_SETTINGS = {
  store: 'WITHDRAWN_SLUGS_STORE_ARN',
  distribution: 'PAGES_DISTRIBUTION_ID',
} as const;

export const GateConfig = z.object({
  [GATE_SETTINGS.store]: z
    .string()
    .check(z.regex(/^arn:aws:cloudfront::\d{12}:key-value-store\/[A-Za-z0-9-]+$/)),
  [GATE_SETTINGS.distribution]: z.string().check(z.regex(/^[A-Z0-9]+$/)),
  BLOB_BUCKET: z.string().check(z.minLength(1)),
  AWS_REGION: z.string().check(z.minLength(1)),
});
export type GateConfig = z.infer<typeof GateConfig>;

/** Whether `error` is the SDK's service exception `name` (matched by name: the SDK is loaded lazily). */
const isSdkError = (error: unknown, name: string): boolean => error instanceof Error && error.name === name;

/**
 * A write refused because another writer changed the store since its ETag was read (the KeyValueStore
 * API's ConflictException, 409) is the core's `ConcurrentChange`; any other refusal is thrown as it is.
 */
const staleEtag = (error: unknown): never => {
  throw isSdkError(error, 'ConflictException')
    ? new ConcurrentChange('the withdrawn slugs store', { cause: error })
    : error;
};

/** Client settings besides the region: none deployed (the SDK's defaults); tests fake the HTTP handler. */
export type SdkOptions = Pick<CloudFrontClientConfig, 'credentials' | 'requestHandler' | 'maxAttempts'>;

/**
 * The gate's and the backfill's ports over the AWS SDK's clients (the role's credentials, from the SDK's
 * default chain). Each function's role allows only what its own part uses.
 */
export const sdkPorts = async (
  config: GateConfig,
  options: SdkOptions = {},
): Promise<GatePorts & BackfillPorts> => {
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
    markerPresent: async (key) => {
      const listed = await s3.send(
        new s3Sdk.ListObjectsV2Command({ Bucket: config.BLOB_BUCKET, Prefix: key, MaxKeys: 1 }),
      );
      return (listed.Contents ?? []).some((object) => object.Key === key);
    },
    // One listing of the whole folder (the current versions), pages of 1,000 keys: fewer requests than a
    // request per publication, since each has many files.
    markerKeys: async function* () {
      let ContinuationToken: string | undefined;
      do {
        const page = await s3.send(
          new s3Sdk.ListObjectsV2Command({
            Bucket: config.BLOB_BUCKET,
            Prefix: PUBLICATIONS_PREFIX,
            ContinuationToken,
          }),
        );
        for (const { Key } of page.Contents ?? []) if (Key?.endsWith(`/${WITHDRAWN_MARKER}`)) yield Key;
        ContinuationToken = page.NextContinuationToken;
      } while (ContinuationToken);
    },
    store: {
      etag: async () => {
        const { ETag } = await kvs.send(new kvsSdk.DescribeKeyValueStoreCommand({ KvsARN }));
        if (!ETag) throw new Error('DescribeKeyValueStore answered no ETag');
        return ETag;
      },
      put: async (Key, Value, IfMatch) => {
        await kvs.send(new kvsSdk.PutKeyCommand({ KvsARN, Key, Value, IfMatch })).catch(staleEtag);
      },
      delete: async (Key, IfMatch) => {
        try {
          await kvs.send(new kvsSdk.DeleteKeyCommand({ KvsARN, Key, IfMatch }));
        } catch (error) {
          if (!isSdkError(error, 'ResourceNotFoundException')) staleEtag(error);
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
