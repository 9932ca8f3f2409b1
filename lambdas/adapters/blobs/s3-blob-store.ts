// adapters -> the blob store on S3 (deployed) or on the local S3 twin: one adapter for both.
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  type S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { BlobStore } from '../../core/ports';

export interface S3BlobStoreOptions {
  client: S3Client;
  bucket: string;
  /** Bytes buffered per multipart part (S3's minimum is 5 MiB). */
  partSize?: number;
  /** Parts uploaded at once. Memory held by one put is about (queueSize + 1) * partSize. */
  queueSize?: number;
}

/** Thrown by `readRange` for a key that holds no blob. */
export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No blob at ${key}`);
    this.name = 'BlobNotFoundError';
  }
}

export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly partSize: number;
  private readonly queueSize: number;

  constructor({ client, bucket, partSize = 5 * 1024 * 1024, queueSize = 4 }: S3BlobStoreOptions) {
    this.client = client;
    this.bucket = bucket;
    this.partSize = partSize;
    this.queueSize = queueSize;
  }

  /**
   * Streams a body of unknown length: a multipart upload of bounded memory, or one PutObject when the
   * body fits in a part. A failed put leaves nothing behind (the multipart upload is aborted).
   */
  async put(key: string, body: AsyncIterable<Uint8Array>, contentType: string): Promise<{ size: number }> {
    let size = 0;
    const counted = async function* () {
      for await (const chunk of body) {
        size += chunk.byteLength;
        yield chunk;
      }
    };
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: Readable.from(counted()), ContentType: contentType },
      partSize: this.partSize,
      queueSize: this.queueSize,
      leavePartsOnError: false,
    });
    await upload.done();
    return { size };
  }

  /** Bytes [start, end) of a blob; fewer when the blob ends before `end`. */
  async readRange(key: string, start: number, end: number): Promise<Uint8Array> {
    if (end <= start) return new Uint8Array(0);
    try {
      const response = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=${start}-${end - 1}` }),
      );
      if (!response.Body) return new Uint8Array(0);
      return await response.Body.transformToByteArray();
    } catch (error) {
      if (error instanceof NoSuchKey) throw new BlobNotFoundError(key);
      // A range starting at or past the end of an existing blob.
      if (error instanceof S3ServiceException && error.name === 'InvalidRange') return new Uint8Array(0);
      throw error;
    }
  }

  /** Deletes a blob; deleting a missing key succeeds. */
  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}
