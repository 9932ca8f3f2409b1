// adapters -> the S3 client of the blob store, deployed and against the local twin, and bucket creation.
import { BucketAlreadyOwnedByYou, CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';

export interface S3ClientOptions {
  region: string;
  /** The local twin's address (`startLocalS3(...).endpoint`); omitted for AWS. */
  endpoint?: string;
}

/**
 * An S3 client for the blob store. Checksums only when an operation requires them: the SDK's default
 * (CRC32 on every request) frames streamed bodies as `aws-chunked`, which the local twin would store
 * verbatim, and the service checks SHA-256 itself. Path-style addressing for the local twin.
 */
export const createS3Client = ({ region, endpoint }: S3ClientOptions): S3Client =>
  new S3Client({
    region,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(endpoint
      ? {
          endpoint,
          forcePathStyle: true,
          // The local twin checks no signature, but the SDK signs every request.
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
  });

/** Creates `bucket` unless it already exists (local stack start-up and tests; CDK makes the deployed one). */
export const ensureBucket = async (client: S3Client, bucket: string): Promise<void> => {
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (error) {
    if (error instanceof BucketAlreadyOwnedByYou) return;
    throw error;
  }
};
