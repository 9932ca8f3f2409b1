// adapters -> the blob store on S3 (deployed) or on the local S3 twin: one adapter for both.
//
// `put` speaks S3's multipart upload itself (CreateMultipartUpload, UploadPart, Complete, and Abort on
// failure) rather than through lib-storage's `Upload`, for a 100 MB PDF in well under a second:
// - each part is copied once into one of a few part buffers that the put reuses, where `Upload` makes
//   a new buffer per part (Buffer.concat): 100 MB of fresh allocation per upload, which kept the
//   garbage collector running through the whole upload;
// - parts are sent with `x-amz-content-sha256: UNSIGNED-PAYLOAD`, as the SDK itself does for streamed
//   bodies, where a buffer body is SHA-256 hashed again to sign it. The service hashes the file itself
//   (read-upload.ts) and the deployed connection is TLS.
// A part's buffer stays whole until its request is answered, so the SDK can retry it.
import {
  AbortMultipartUploadCommand,
  type CompletedPart,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  type S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { BlobStore } from '../../core/ports';

const MiB = 1024 * 1024;
/** S3's smallest part but the last. */
const MIN_PART_SIZE = 5 * MiB;

export interface S3BlobStoreOptions {
  client: S3Client;
  bucket: string;
  /** Bytes per multipart part (at least S3's minimum, 5 MiB); a body up to this size is one PutObject. */
  partSize?: number;
  /**
   * Parts uploaded at once. Memory held by one put is at most (queueSize + 1) * partSize: the parts in
   * flight and the next one filling.
   */
  queueSize?: number;
}

/** Thrown by `readRange` for a key that holds no blob. */
export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No blob at ${key}`);
    this.name = 'BlobNotFoundError';
  }
}

/** Signs a command's request without hashing its body (the header the SDK uses for streamed bodies). */
const unsignedPayload = <C extends PutObjectCommand | UploadPartCommand>(command: C): C => {
  // One stack type for both commands: the middleware only touches the request's headers.
  (command as UploadPartCommand).middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { headers?: Record<string, string> };
      if (request.headers) request.headers['x-amz-content-sha256'] = 'UNSIGNED-PAYLOAD';
      return next(args);
    },
    { step: 'build', name: 'unsignedPayloadMiddleware' },
  );
  return command;
};

export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly partSize: number;
  private readonly queueSize: number;

  constructor({ client, bucket, partSize = 8 * MiB, queueSize = 2 }: S3BlobStoreOptions) {
    if (!Number.isInteger(partSize) || partSize < MIN_PART_SIZE)
      throw new Error(`partSize must be at least ${MIN_PART_SIZE} bytes`);
    if (!Number.isInteger(queueSize) || queueSize < 1) throw new Error('queueSize must be at least 1');
    this.client = client;
    this.bucket = bucket;
    this.partSize = partSize;
    this.queueSize = queueSize;
  }

  /**
   * Streams a body of unknown length: a multipart upload of bounded memory, or one PutObject when the
   * body fits in a part. While `queueSize` parts are in flight the body is not read further, so a slow
   * store slows the sender. A failed put leaves nothing behind (the multipart upload is aborted).
   */
  async put(key: string, body: AsyncIterable<Uint8Array>, contentType: string): Promise<{ size: number }> {
    const { partSize } = this;
    const upload = new MultipartUpload(this.client, this.bucket, key, contentType, partSize, this.queueSize);
    // Each chunk is copied into the part filling at once and not kept: a chunk held until its part is
    // sent would outlive the young generation, and freeing such chunks takes full collections.
    let part: Buffer | null = null;
    let filled = 0;
    let size = 0;
    try {
      for await (const chunk of body) {
        upload.throwIfFailed();
        size += chunk.byteLength;
        for (let offset = 0; offset < chunk.byteLength; ) {
          part ??= upload.buffer();
          const take = Math.min(chunk.byteLength - offset, partSize - filled);
          part.set(take === chunk.byteLength ? chunk : chunk.subarray(offset, offset + take), filled);
          filled += take;
          offset += take;
          if (filled === partSize) {
            await upload.slot();
            await upload.send(part);
            part = null;
            filled = 0;
          }
        }
      }
      const rest = part ? part.subarray(0, filled) : Buffer.alloc(0);
      if (!upload.started) {
        await this.client.send(
          unsignedPayload(
            new PutObjectCommand({
              Bucket: this.bucket,
              Key: key,
              Body: rest,
              ContentLength: rest.byteLength,
              ContentType: contentType,
            }),
          ),
        );
        return { size };
      }
      if (rest.byteLength > 0) {
        await upload.slot();
        await upload.send(rest);
      }
      await upload.complete();
      return { size };
    } catch (error) {
      await upload.abort();
      throw error;
    }
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

  /** S3's CopyObject (up to 5 GB, far above any blob here), with the content type replaced. */
  async copy(fromKey: string, toKey: string, contentType: string): Promise<void> {
    const source = fromKey.split('/').map(encodeURIComponent).join('/');
    try {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: toKey,
          CopySource: `${this.bucket}/${source}`,
          ContentType: contentType,
          MetadataDirective: 'REPLACE',
        }),
      );
    } catch (error) {
      // CopyObject's missing source comes as the service's exception by name (NoSuchKey is one of them).
      if (error instanceof S3ServiceException && error.name === 'NoSuchKey')
        throw new BlobNotFoundError(fromKey);
      throw error;
    }
  }

  /** Deletes a blob; deleting a missing key succeeds. */
  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}

/**
 * One multipart upload as `put` drives it: created at its first part, at most `queueSize` parts in
 * flight, each in a buffer that is reused once its part is stored.
 */
class MultipartUpload {
  private uploadId: string | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly free: Buffer[] = [];
  private readonly parts: CompletedPart[] = [];
  private failure: { error: unknown } | null = null;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly key: string,
    private readonly contentType: string,
    private readonly partSize: number,
    private readonly queueSize: number,
  ) {}

  get started(): boolean {
    return this.uploadId !== undefined;
  }

  throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }

  /** Waits until another part may be sent. */
  async slot(): Promise<void> {
    while (this.inFlight.size >= this.queueSize) await Promise.race(this.inFlight);
    this.throwIfFailed();
  }

  /** A part buffer, reused when one is free (its content is stale). */
  buffer(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafeSlow(this.partSize);
  }

  /** Starts sending the next part; `part` is this upload's until its request is answered. */
  async send(part: Buffer): Promise<void> {
    if (this.uploadId === undefined) {
      const created = await this.client.send(
        new CreateMultipartUploadCommand({
          Bucket: this.bucket,
          Key: this.key,
          ContentType: this.contentType,
        }),
      );
      if (!created.UploadId) throw new Error('CreateMultipartUpload returned no UploadId');
      this.uploadId = created.UploadId;
    }
    const partNumber = this.parts.length + 1;
    const completed: CompletedPart = { PartNumber: partNumber };
    this.parts.push(completed);
    const sent = this.client
      .send(
        unsignedPayload(
          new UploadPartCommand({
            Bucket: this.bucket,
            Key: this.key,
            UploadId: this.uploadId,
            PartNumber: partNumber,
            Body: part,
            ContentLength: part.byteLength,
          }),
        ),
      )
      .then(
        (answer) => {
          completed.ETag = answer.ETag;
          if (part.byteLength === this.partSize) this.free.push(part);
        },
        (error: unknown) => {
          this.failure ??= { error };
        },
      )
      .finally(() => this.inFlight.delete(sent));
    this.inFlight.add(sent);
  }

  /** Waits for every part, then completes the upload. */
  async complete(): Promise<void> {
    await Promise.all(this.inFlight);
    this.throwIfFailed();
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: this.key,
        UploadId: this.uploadId,
        MultipartUpload: { Parts: this.parts },
      }),
    );
  }

  /** Lets the parts in flight settle, then aborts the upload, so that no part is left stored. */
  async abort(): Promise<void> {
    await Promise.all(this.inFlight);
    if (this.uploadId === undefined) return;
    try {
      await this.client.send(
        new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: this.key, UploadId: this.uploadId }),
      );
    } catch {
      // The original error is what the caller needs; a bucket lifecycle rule removes what is left.
    }
  }
}
