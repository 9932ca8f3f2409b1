// api -> the body of `POST /v1/contract-reviews` and `.../versions`, read as it arrives: the SHA-256
// and size of the whole body, the `file` part streamed to the blob store (hashed on the way) and the
// `request` part collected. Nothing of the file is held in memory, and back-pressure reaches the
// sender: a slow blob store slows the reading of the body.
import { createHash, type Hash } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import busboy from 'busboy';
import { ServiceError } from '../../core/errors';
import type { BlobStore } from '../../core/ports';

/**
 * "Up to 100 MB" of PDF, read generously as 100 MiB (104,857,600 bytes): a file of 100 MB in
 * either sense is accepted.
 */
export const MAX_PDF_BYTES = 100 * 1024 * 1024;
/** What the body may add to the PDF: multipart framing and the `request` JSON (decisions.md §1). */
export const MULTIPART_ALLOWANCE_BYTES = 1024 * 1024;
/** The largest body read; a body over it is answered 413 `payload_too_large`. */
export const MAX_UPLOAD_BODY_BYTES = MAX_PDF_BYTES + MULTIPART_ALLOWANCE_BYTES;
/** The largest `request` part. */
export const MAX_REQUEST_PART_BYTES = 64 * 1024;

export interface ReadUploadInput {
  /** The request's `Content-Type` header. */
  contentType: string | undefined;
  /** The declared `Content-Length`, when there is one. */
  contentLength: number | undefined;
  body: AsyncIterable<Uint8Array>;
  blobs: BlobStore;
  /** Where the PDF is stored. */
  blobKey: string;
  /** Defaults to `MAX_UPLOAD_BODY_BYTES`. */
  maxBodyBytes?: number;
  /** Defaults to `MAX_PDF_BYTES`. */
  maxFileBytes?: number;
}

export type UploadParts =
  | { ok: true; requestJson: string; file: { blobKey: string; size: number; sha256Hex: string } }
  | { ok: false; message: string };

export interface ReadUploadResult {
  /** SHA-256 of the whole body exactly as received, to compare with `Content-Digest`. */
  bodySha256: Buffer;
  bodySize: number;
  /** The two parts, or what is wrong with the multipart structure (400 `multipart_invalid`). */
  parts: UploadParts;
}

const SEND =
  'Send multipart/form-data with exactly two parts: `file`, the PDF as a file part ' +
  '(Content-Disposition: form-data; name="file"; filename="contract.pdf"), and `request`, the JSON object.';

export const payloadTooLarge = (): ServiceError =>
  new ServiceError(
    'payload_too_large',
    'The PDF may be up to 100 MB (104,857,600 bytes) and the whole body at most 1 MB more for the multipart framing and `request`.',
  );

/**
 * Reads an upload body to its end. Throws 413 `payload_too_large` at once when the declared length or
 * the bytes counted pass the limit (the rest is not read). A multipart structure fault does not throw:
 * the body is still read to the end, so that the caller can check the digest first, and `parts.ok` is
 * false. When `parts.ok` is false or anything throws, nothing stays in the blob store; when it is true
 * the PDF is at `blobKey` and the caller owns it (it deletes it if the request is refused later).
 */
export const readUpload = async (input: ReadUploadInput): Promise<ReadUploadResult> => {
  const maxBodyBytes = input.maxBodyBytes ?? MAX_UPLOAD_BODY_BYTES;
  if (input.contentLength !== undefined && input.contentLength > maxBodyBytes) throw payloadTooLarge();

  const bodyHash = createHash('sha256');
  let bodySize = 0;
  const reader = new MultipartReader(
    input.contentType,
    input.blobs,
    input.blobKey,
    input.maxFileBytes ?? MAX_PDF_BYTES,
  );
  try {
    for await (const chunk of input.body) {
      bodySize += chunk.byteLength;
      if (bodySize > maxBodyBytes) throw payloadTooLarge();
      bodyHash.update(chunk);
      await reader.write(chunk);
    }
    const parts = await reader.end();
    if (!parts.ok) await reader.discard();
    return { bodySha256: bodyHash.digest(), bodySize, parts };
  } catch (error) {
    await reader.discard();
    throw error;
  }
};

/** Feeds the body to busboy and routes its parts: the first `file` to the blob store, `request` to memory. */
class MultipartReader {
  private readonly parser: busboy.Busboy | null = null;
  private fault: string | null = null;
  private requestJson: string | null = null;
  private fileSeen = false;
  private fileTooLarge = false;
  private file: { size: number; sha256Hex: string } | null = null;
  /** The running put; it never rejects (its error is kept in `putError`). */
  private put: Promise<void> | null = null;
  private putError: unknown = null;
  private putFailed: Promise<never> | null = null;

  constructor(
    contentType: string | undefined,
    private readonly blobs: BlobStore,
    private readonly blobKey: string,
    private readonly maxFileBytes: number,
  ) {
    if (!contentType || !/^\s*multipart\/form-data\s*(;|$)/i.test(contentType)) {
      this.fault = `The body is not multipart/form-data (Content-Type: ${contentType ?? 'none'}). ${SEND}`;
      return;
    }
    try {
      this.parser = busboy({
        headers: { 'content-type': contentType },
        limits: { fieldSize: MAX_REQUEST_PART_BYTES },
      });
    } catch (error) {
      this.fault = `The multipart Content-Type cannot be read (${(error as Error).message}). ${SEND}`;
      return;
    }
    this.parser.on('file', (name, stream, info) => this.onFile(name, stream, info.filename));
    this.parser.on('field', (name, value, info) => this.onField(name, value, info.valueTruncated));
    this.parser.on('error', (error: Error) =>
      this.setFault(`The multipart body is malformed (${error.message}). ${SEND}`),
    );
  }

  /** Passes one chunk on, waiting while busboy (and through it the blob store) is full. */
  async write(chunk: Uint8Array): Promise<void> {
    const parser = this.parser;
    if (this.fault || !parser) return; // after a fault the rest of the body is only hashed
    if (parser.write(chunk) || parser.destroyed) return;
    try {
      await Promise.race([drainedOrClosed(parser), ...(this.putFailed ? [this.putFailed] : [])]);
    } catch {
      // the put failed: thrown below
    }
    this.throwIfPutFailed();
  }

  /** Ends the body: waits for busboy and the put, then judges the structure. */
  async end(): Promise<UploadParts> {
    const parser = this.parser;
    if (!this.fault && parser) {
      parser.end();
      try {
        await Promise.race([finished(parser), ...(this.putFailed ? [this.putFailed] : [])]);
      } catch {
        // as in write()
      }
    }
    await this.put;
    this.throwIfPutFailed();
    if (this.fault) return { ok: false, message: this.fault };
    if (!this.fileSeen || !this.file) return { ok: false, message: `The body has no \`file\` part. ${SEND}` };
    if (this.requestJson === null) return { ok: false, message: `The body has no \`request\` part. ${SEND}` };
    return { ok: true, requestJson: this.requestJson, file: { blobKey: this.blobKey, ...this.file } };
  }

  /** Stops reading and removes whatever was stored. */
  async discard(): Promise<void> {
    this.parser?.destroy();
    if (!this.put) return;
    await this.put;
    await this.blobs.delete(this.blobKey);
  }

  private throwIfPutFailed(): void {
    if (this.fileTooLarge) throw payloadTooLarge();
    if (this.putError !== null && !this.fault) throw this.putError;
  }

  private setFault(message: string): void {
    this.fault ??= message;
    // Stops the parser: an unfinished file part is destroyed, which aborts its put.
    this.parser?.destroy();
  }

  private onFile(name: string, stream: Readable, filename: string | undefined): void {
    if (this.fault) {
      ignore(stream);
      return;
    }
    if (name === 'file' && !this.fileSeen) {
      this.fileSeen = true;
      this.startPut(stream);
    } else if (name === 'request' && this.requestJson === null) {
      // Some clients send every part as a file; `request` is judged by whether it parses.
      this.collectRequest(stream);
    } else {
      ignore(stream);
      this.setFault(`${this.unexpected(name)} (a file part${filename ? ` named ${filename}` : ''}). ${SEND}`);
    }
  }

  private onField(name: string, value: string, truncated: boolean): void {
    if (this.fault) return;
    if (name === 'request' && this.requestJson === null) {
      if (truncated)
        this.setFault(`The \`request\` part is larger than ${MAX_REQUEST_PART_BYTES} bytes. ${SEND}`);
      else this.requestJson = value;
    } else if (name === 'file' && !this.fileSeen) {
      this.setFault(`The \`file\` part is not a file part: give it a filename. ${SEND}`);
    } else {
      this.setFault(`${this.unexpected(name)}. ${SEND}`);
    }
  }

  /** Why a part is not wanted. busboy gives no name (despite its types) to a part whose header names none. */
  private unexpected(name: string | undefined): string {
    if (name === undefined || name === '')
      return 'A part has no name: each part\'s header must be `Content-Disposition: form-data; name="…"`';
    if (name === 'file' || name === 'request') return `The \`${name}\` part is repeated`;
    return `The body has an extra part named ${JSON.stringify(name.slice(0, 100))}`;
  }

  private startPut(stream: Readable): void {
    const hash = createHash('sha256');
    const state = { size: 0 };
    const put = this.blobs.put(this.blobKey, this.hashed(stream, hash, state), 'application/pdf').then(
      () => {
        this.file = { size: state.size, sha256Hex: hash.digest('hex') };
      },
      (error: unknown) => {
        this.putError = error;
        ignore(stream); // the put stopped reading: let the parser go on without it
        throw error;
      },
    );
    this.putFailed = put.then(() => new Promise<never>(() => {}));
    this.putFailed.catch(() => {});
    this.put = put.catch(() => {});
  }

  private async *hashed(stream: Readable, hash: Hash, state: { size: number }): AsyncGenerator<Uint8Array> {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      state.size += chunk.length;
      if (state.size > this.maxFileBytes) {
        this.fileTooLarge = true;
        throw payloadTooLarge();
      }
      hash.update(chunk);
      yield chunk;
    }
  }

  private collectRequest(stream: Readable): void {
    const chunks: Buffer[] = [];
    let size = 0;
    this.requestJson = ''; // taken: a second `request` part is a repeat
    stream.on('error', () => {}); // busboy reports the fault itself
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REQUEST_PART_BYTES) chunks.push(chunk);
    });
    stream.on('end', () => {
      if (size > MAX_REQUEST_PART_BYTES) {
        this.setFault(`The \`request\` part is larger than ${MAX_REQUEST_PART_BYTES} bytes. ${SEND}`);
      } else {
        this.requestJson = Buffer.concat(chunks).toString('utf8');
      }
    });
  }
}

/** Drains a part that is not kept; its error (the parser stopped) is the parser's fault, reported there. */
const ignore = (stream: Readable): void => {
  stream.on('error', () => {});
  stream.resume();
};

/** Resolves when `stream` can take more, or will never take more (closed after an error or a fault). */
const drainedOrClosed = (stream: Writable): Promise<void> =>
  new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
