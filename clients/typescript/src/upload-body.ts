// client -> the multipart body of an upload, and its `Content-Digest`. The digest is a header, so it
// is known before the first byte of the body is sent: the body is hashed in a first pass (the file read
// once, streaming), then sent in a second, streaming again. A one-shot stream is first copied to a
// temporary file while it is hashed, so that it can be sent (and sent again after a token renewal).
// Memory holds a chunk at a time whatever the file's size.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';

/** The contract PDF to send: a file on disk, bytes in memory, or a stream read once. */
export type UploadFile =
  | { path: string; filename?: string }
  | { bytes: Uint8Array; filename?: string }
  | { stream: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>; filename?: string };

/** A body that can be sent more than once: its length, digest, and a fresh stream of it each time. */
export interface UploadBody {
  contentType: string;
  contentLength: number;
  contentDigest: string;
  chunks(): AsyncIterable<Uint8Array>;
  /** Removes the temporary copy of a streamed file, if one was made. */
  dispose(): Promise<void>;
}

const CHUNK_BYTES = 64 * 1024;
const encoder = new TextEncoder();

/** A part's filename as a quoted string: no quotes, backslashes or line breaks to break the header. */
const quotedFilename = (name: string): string => `"${name.replace(/["\\\r\n]/g, '_')}"`;

/**
 * The framing of the two parts. The boundary comes from the idempotency key, so that a request sent again
 * with its key (after a lost answer, by another process) is the same bytes, which the service replays;
 * a random boundary would make it "a different request" (422 `idempotency_key_reused`).
 */
const framing = (requestJson: string, filename: string, idempotencyKey: string) => {
  const boundary = `----contract-client-${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 32)}`;
  const head = encoder.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="request"\r\nContent-Type: application/json\r\n\r\n` +
      `${requestJson}\r\n--${boundary}\r\n` +
      `Content-Disposition: form-data; name="file"; filename=${quotedFilename(filename)}\r\n` +
      'Content-Type: application/pdf\r\n\r\n',
  );
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  return { contentType: `multipart/form-data; boundary=${boundary}`, head, tail };
};

/** The chunks of a file, a chunk at a time. */
const fileChunks = (path: string): AsyncIterable<Uint8Array> =>
  createReadStream(path, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Uint8Array>;

const iterate = (
  stream: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>,
): AsyncIterable<Uint8Array> =>
  Symbol.asyncIterator in stream ? stream : (stream as unknown as AsyncIterable<Uint8Array>);

/** Copies a one-shot stream to a temporary file; resolves with the file, its size, and whom to call to remove it. */
const spool = async (stream: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>) => {
  const directory = await mkdtemp(join(tmpdir(), 'contract-upload-'));
  const path = join(directory, 'contract.pdf');
  try {
    await pipeline(iterate(stream), createWriteStream(path));
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  return { path, remove: () => rm(directory, { recursive: true, force: true }) };
};

/** Builds an upload body: the `request` JSON and the file, framed, measured and hashed. */
export const uploadBody = async (
  request: unknown,
  file: UploadFile,
  idempotencyKey: string,
): Promise<UploadBody> => {
  let path: string | undefined;
  let dispose = async () => {};
  if ('stream' in file) {
    const spooled = await spool(file.stream);
    path = spooled.path;
    dispose = spooled.remove;
  } else if ('path' in file) {
    path = file.path;
  }
  try {
    const filename = file.filename ?? ('path' in file ? basename(file.path) : 'contract.pdf');
    const { contentType, head, tail } = framing(JSON.stringify(request), filename, idempotencyKey);
    const fileSize =
      path === undefined ? (file as { bytes: Uint8Array }).bytes.byteLength : (await stat(path)).size;
    const source = path;
    const bytes = (file as { bytes?: Uint8Array }).bytes;
    const content = async function* (): AsyncIterable<Uint8Array> {
      if (source !== undefined) yield* fileChunks(source);
      else if (bytes !== undefined) yield bytes;
    };
    // The first pass: the digest of exactly the bytes the second pass sends.
    const hash = createHash('sha256').update(head);
    for await (const chunk of content()) hash.update(chunk);
    hash.update(tail);
    return {
      contentType,
      contentLength: head.byteLength + fileSize + tail.byteLength,
      contentDigest: `sha-256=:${hash.digest('base64')}:`,
      chunks: async function* () {
        yield head;
        yield* content();
        yield tail;
      },
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
};
