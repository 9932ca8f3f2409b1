// local -> the local twin of S3: a small S3-compatible server on loopback, keeping objects under a
// directory. It serves the calls the S3 blob store makes (path-style): CreateBucket, HeadBucket,
// PutObject, CopyObject, GetObject (with Range), HeadObject, DeleteObject and the multipart upload calls.
//
// Why not s3rver: its CompleteMultipartUpload copies every part into one new file, which doubles the
// disk work of a 100 MB upload. Here an object is a manifest naming its data files, so completing a
// multipart upload renames the part files and writes a few hundred bytes. No signature is checked
// (loopback only) and no checksum is kept: the service verifies SHA-256 itself.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { type FileHandle, link, mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface LocalS3 {
  /** `http://127.0.0.1:<port>`, for the S3 client's `endpoint` (with `forcePathStyle`). */
  endpoint: string;
  /** The process serving it. */
  pid: number;
  stop(): Promise<void>;
}

/** One stored object: its data is the concatenation of `parts`, each a file under the bucket's `data/`. */
interface Manifest {
  key: string;
  size: number;
  etag: string;
  contentType: string;
  lastModified: string;
  parts: { file: string; size: number }[];
}

interface UploadMeta {
  key: string;
  contentType: string;
}

class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** How long the twin may take to start (it loads TypeScript through tsx) and to stop before SIGKILL. */
const START_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 5_000;

/**
 * Starts the local S3 twin as a process of its own (local/emulators/s3-process.ts, run by this Node with tsx),
 * on 127.0.0.1:`port` (0 picks a free port), storing buckets as directories under `directory`. Like
 * DynamoDB Local, it works beside the API rather than inside it: a 100 MB upload's disk writes then
 * take the other core instead of the API's event loop. The process ends with `stop()`, when this
 * process exits, and on its own when this process dies without exiting (its IPC channel closes).
 */
export const startLocalS3 = async (directory: string, port: number): Promise<LocalS3> => {
  await mkdir(directory, { recursive: true });
  const entry = fileURLToPath(new URL('./s3-process.ts', import.meta.url));
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const child = spawn(process.execPath, ['--import', tsx, entry, directory, String(port)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve()); // could not be spawned: there is nothing to stop
  });
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  void exited.then(() => process.off('exit', killOnExit));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }
  };

  let timer: NodeJS.Timeout | undefined;
  try {
    const endpoint = await new Promise<string>((resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`The local S3 twin did not start within ${START_TIMEOUT_MS} ms.`)),
        START_TIMEOUT_MS,
      );
      child.once('error', reject);
      child.once('exit', (code, signal) =>
        reject(new Error(`The local S3 twin exited while starting (${signal ?? `exit code ${code}`}).`)),
      );
      child.once('message', (message: { endpoint?: string; error?: string }) => {
        if (typeof message.endpoint === 'string') resolve(message.endpoint);
        else reject(new Error(`The local S3 twin did not start: ${message.error ?? 'no reason given'}`));
      });
    });
    // Neither the process nor its channel keeps this one alive; `stop()` or this process's end ends it.
    child.channel?.unref();
    child.unref();
    return { endpoint, pid: child.pid as number, stop };
  } catch (error) {
    await stop();
    throw error;
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Serves the local S3 twin in this process on 127.0.0.1:`port` (0 picks a free port), storing buckets
 * as directories under `directory`. The local stack and the tests run it as its own process instead
 * (`startLocalS3`, in local/emulators/s3-process.ts), so that the twin's disk writes get a core of their own.
 */
export const serveLocalS3 = async (directory: string, port: number): Promise<LocalS3> => {
  await mkdir(directory, { recursive: true });
  const store = new FileObjectStore(directory);
  const server = createServer((request, response) => {
    store.handle(request, response).catch((error: unknown) => sendError(response, error));
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    pid: process.pid,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
};

const newId = () => randomBytes(16).toString('hex');
const keyFile = (key: string) => `${createHash('sha256').update(key).digest('hex')}.json`;
const xmlEscape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const isNotFound = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

class FileObjectStore {
  constructor(private readonly root: string) {}

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const [, bucket = '', ...rest] = url.pathname.split('/');
    const key = rest.map(decodeURIComponent).join('/');
    const query = url.searchParams;
    const method = request.method ?? 'GET';
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
      throw new S3Error(400, 'InvalidBucketName', 'The bucket name is not valid.');
    }
    const bucketDir = join(this.root, bucket);
    if (key === '') {
      if (method === 'PUT') return this.createBucket(request, response, bucketDir);
      if (method === 'HEAD') return this.headBucket(response, bucketDir);
      throw new S3Error(501, 'NotImplemented', `${method} on a bucket is not served by the local twin.`);
    }
    await this.requireBucket(bucketDir, bucket);
    const uploadId = query.get('uploadId');
    if (method === 'PUT' && uploadId !== null)
      return this.uploadPart(request, response, bucketDir, uploadId, query);
    if (method === 'PUT') return this.putObject(request, response, bucketDir, key);
    if (method === 'POST' && query.has('uploads'))
      return this.createUpload(request, response, bucketDir, bucket, key);
    if (method === 'POST' && uploadId !== null)
      return this.completeUpload(request, response, bucketDir, bucket, key, uploadId);
    if (method === 'DELETE' && uploadId !== null)
      return this.abortUpload(request, response, bucketDir, uploadId);
    if (method === 'DELETE') return this.deleteObject(request, response, bucketDir, key);
    if (method === 'GET' || method === 'HEAD')
      return this.getObject(request, response, bucketDir, key, method === 'HEAD');
    throw new S3Error(501, 'NotImplemented', `${method} is not served by the local twin.`);
  }

  private async createBucket(request: IncomingMessage, response: ServerResponse, bucketDir: string) {
    await drain(request);
    if (await exists(bucketDir))
      throw new S3Error(409, 'BucketAlreadyOwnedByYou', 'The bucket exists and is yours.');
    await Promise.all(
      ['data', 'objects', 'uploads'].map((d) => mkdir(join(bucketDir, d), { recursive: true })),
    );
    response.writeHead(200, { 'content-length': 0 }).end();
  }

  private async headBucket(response: ServerResponse, bucketDir: string) {
    response.writeHead((await exists(bucketDir)) ? 200 : 404, { 'content-length': 0 }).end();
  }

  private async requireBucket(bucketDir: string, bucket: string) {
    if (!(await exists(bucketDir))) throw new S3Error(404, 'NoSuchBucket', `No bucket ${bucket}.`);
  }

  private async putObject(
    request: IncomingMessage,
    response: ServerResponse,
    bucketDir: string,
    key: string,
  ) {
    const copySource = request.headers['x-amz-copy-source'];
    if (typeof copySource === 'string') return this.copyObject(request, response, bucketDir, key, copySource);
    const file = newId();
    const size = await receive(request, join(bucketDir, 'data', file));
    const etag = `"${newId()}"`;
    const contentType = request.headers['content-type'] ?? 'application/octet-stream';
    await this.replaceObject(bucketDir, {
      key,
      size,
      etag,
      contentType,
      lastModified: new Date().toUTCString(),
      parts: [{ file, size }],
    });
    response.writeHead(200, { etag, 'content-length': 0 }).end();
  }

  /**
   * CopyObject within a bucket. A data file is never changed once written, so the copy links the
   * source's files rather than copying their bytes; deleting either object removes only its own links.
   */
  private async copyObject(
    request: IncomingMessage,
    response: ServerResponse,
    bucketDir: string,
    key: string,
    copySource: string,
  ) {
    await drain(request);
    const [sourceBucket = '', ...sourcePath] = copySource.replace(/^\//, '').split('?')[0]?.split('/') ?? [];
    if (join(this.root, sourceBucket) !== bucketDir)
      throw new S3Error(501, 'NotImplemented', 'CopyObject between buckets is not served by the local twin.');
    const source = await this.readManifest(bucketDir, sourcePath.map(decodeURIComponent).join('/'));
    if (!source) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.');
    const parts: Manifest['parts'] = [];
    for (const part of source.parts) {
      const file = newId();
      await link(join(bucketDir, 'data', part.file), join(bucketDir, 'data', file));
      parts.push({ file, size: part.size });
    }
    const replace = request.headers['x-amz-metadata-directive'] === 'REPLACE';
    const manifest: Manifest = {
      key,
      size: source.size,
      etag: `"${newId()}"`,
      contentType: replace ? (request.headers['content-type'] ?? source.contentType) : source.contentType,
      lastModified: new Date().toUTCString(),
      parts,
    };
    await this.replaceObject(bucketDir, manifest);
    sendXml(
      response,
      `<CopyObjectResult><ETag>${xmlEscape(manifest.etag)}</ETag><LastModified>${new Date(manifest.lastModified).toISOString()}</LastModified></CopyObjectResult>`,
    );
  }

  private async createUpload(
    request: IncomingMessage,
    response: ServerResponse,
    bucketDir: string,
    bucket: string,
    key: string,
  ) {
    await drain(request);
    const uploadId = newId();
    const meta: UploadMeta = {
      key,
      contentType: request.headers['content-type'] ?? 'application/octet-stream',
    };
    await mkdir(join(bucketDir, 'uploads', uploadId));
    await writeFile(join(bucketDir, 'uploads', uploadId, 'meta.json'), JSON.stringify(meta));
    sendXml(
      response,
      `<InitiateMultipartUploadResult><Bucket>${xmlEscape(bucket)}</Bucket><Key>${xmlEscape(key)}</Key><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`,
    );
  }

  private async uploadPart(
    request: IncomingMessage,
    response: ServerResponse,
    bucketDir: string,
    uploadId: string,
    query: URLSearchParams,
  ) {
    const partNumber = Number(query.get('partNumber'));
    if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000) {
      throw new S3Error(400, 'InvalidArgument', 'partNumber must be an integer from 1 to 10000.');
    }
    const uploadDir = await this.uploadDir(bucketDir, uploadId);
    await receive(request, join(uploadDir, String(partNumber)));
    // The ETag names the part so that CompleteMultipartUpload can check the list it is sent.
    response.writeHead(200, { etag: `"${uploadId}-${partNumber}"`, 'content-length': 0 }).end();
  }

  private async completeUpload(
    request: IncomingMessage,
    response: ServerResponse,
    bucketDir: string,
    bucket: string,
    key: string,
    uploadId: string,
  ) {
    const uploadDir = await this.uploadDir(bucketDir, uploadId);
    const body = (await collect(request)).toString('utf8');
    const meta = JSON.parse(await readFile(join(uploadDir, 'meta.json'), 'utf8')) as UploadMeta;
    const numbers = [...body.matchAll(/<PartNumber>\s*(\d+)\s*<\/PartNumber>/g)].map((m) => Number(m[1]));
    if (numbers.length === 0 || meta.key !== key)
      throw new S3Error(400, 'MalformedXML', 'No parts to complete.');
    if (numbers.some((n, i) => i > 0 && n <= (numbers[i - 1] as number))) {
      throw new S3Error(400, 'InvalidPartOrder', 'Parts must be listed in ascending order.');
    }
    const parts: Manifest['parts'] = [];
    for (const n of numbers) {
      const file = newId();
      try {
        const { size } = await stat(join(uploadDir, String(n)));
        await rename(join(uploadDir, String(n)), join(bucketDir, 'data', file));
        parts.push({ file, size });
      } catch (error) {
        if (isNotFound(error)) throw new S3Error(400, 'InvalidPart', `Part ${n} was not uploaded.`);
        throw error;
      }
    }
    const size = parts.reduce((sum, p) => sum + p.size, 0);
    const etag = `"${newId()}-${parts.length}"`;
    await this.replaceObject(bucketDir, {
      key,
      size,
      etag,
      contentType: meta.contentType,
      lastModified: new Date().toUTCString(),
      parts,
    });
    await rm(uploadDir, { recursive: true, force: true });
    sendXml(
      response,
      `<CompleteMultipartUploadResult><Bucket>${xmlEscape(bucket)}</Bucket><Key>${xmlEscape(key)}</Key><ETag>${xmlEscape(etag)}</ETag></CompleteMultipartUploadResult>`,
    );
  }

  private async abortUpload(
    request: IncomingMessage,
    response: ServerResponse,
    bucketDir: string,
    uploadId: string,
  ) {
    await drain(request);
    const uploadDir = await this.uploadDir(bucketDir, uploadId);
    await rm(uploadDir, { recursive: true, force: true });
    response.writeHead(204).end();
  }

  private async deleteObject(
    request: IncomingMessage,
    response: ServerResponse,
    bucketDir: string,
    key: string,
  ) {
    await drain(request);
    const old = await this.readManifest(bucketDir, key);
    if (old) {
      await rm(join(bucketDir, 'objects', keyFile(key)), { force: true });
      await this.removeData(bucketDir, old);
    }
    response.writeHead(204).end();
  }

  private async getObject(
    request: IncomingMessage,
    response: ServerResponse,
    bucketDir: string,
    key: string,
    head: boolean,
  ) {
    const manifest = await this.readManifest(bucketDir, key);
    if (!manifest) {
      if (head) return void response.writeHead(404, { 'content-length': 0 }).end();
      throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.');
    }
    const headers: Record<string, string | number> = {
      etag: manifest.etag,
      'content-type': manifest.contentType,
      'last-modified': manifest.lastModified,
      'accept-ranges': 'bytes',
    };
    const range = parseRange(request.headers.range, manifest.size);
    if (range === 'unsatisfiable') {
      throw new S3Error(416, 'InvalidRange', 'The requested range is not satisfiable.');
    }
    const [start, end] = range ?? [0, manifest.size - 1];
    const length = Math.max(0, end - start + 1);
    headers['content-length'] = length;
    if (range) headers['content-range'] = `bytes ${start}-${end}/${manifest.size}`;
    response.writeHead(range ? 206 : 200, headers);
    if (head || length === 0) return void response.end();
    await pipeline(readSpan(bucketDir, manifest, start, end), response);
  }

  private async uploadDir(bucketDir: string, uploadId: string): Promise<string> {
    if (!/^[0-9a-f]{32}$/.test(uploadId) || !(await exists(join(bucketDir, 'uploads', uploadId)))) {
      throw new S3Error(404, 'NoSuchUpload', 'The specified multipart upload does not exist.');
    }
    return join(bucketDir, 'uploads', uploadId);
  }

  private async readManifest(bucketDir: string, key: string): Promise<Manifest | null> {
    try {
      return JSON.parse(await readFile(join(bucketDir, 'objects', keyFile(key)), 'utf8')) as Manifest;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  /** Writes the manifest atomically (rename), then drops the data of the object it replaced. */
  private async replaceObject(bucketDir: string, manifest: Manifest) {
    const old = await this.readManifest(bucketDir, manifest.key);
    const path = join(bucketDir, 'objects', keyFile(manifest.key));
    const temporary = `${path}.${newId()}.tmp`;
    await writeFile(temporary, JSON.stringify(manifest));
    await rename(temporary, path);
    if (old) await this.removeData(bucketDir, old);
  }

  private async removeData(bucketDir: string, manifest: Manifest) {
    await Promise.all(manifest.parts.map((p) => rm(join(bucketDir, 'data', p.file), { force: true })));
  }
}

/** The bytes [start, end] (inclusive, as in HTTP) of an object, read from its data files in turn. */
async function* readSpan(
  bucketDir: string,
  manifest: Manifest,
  start: number,
  end: number,
): AsyncGenerator<Buffer> {
  let offset = 0;
  for (const part of manifest.parts) {
    const partStart = offset;
    offset += part.size;
    if (offset <= start || partStart > end || part.size === 0) continue;
    const from = Math.max(start, partStart) - partStart;
    const to = Math.min(end, offset - 1) - partStart;
    yield* createReadStream(join(bucketDir, 'data', part.file), { start: from, end: to });
  }
}

/** Parses a single `bytes=` range into inclusive bounds; null when absent or not understood (whole object). */
const parseRange = (header: string | undefined, size: number): [number, number] | null | 'unsatisfiable' => {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return [start, end];
};

/** Bytes gathered from a request before they are written: few large writes, not one per socket read. */
const WRITE_BATCH_BYTES = 1024 * 1024;

/**
 * Writes a request's body to a new file at `path` and returns its size. The body is written in batches
 * of about 1 MiB, each while the next arrives (one write in flight); on failure the file is removed.
 */
const receive = async (request: IncomingMessage, path: string): Promise<number> => {
  const file = await open(path, 'w');
  let size = 0;
  try {
    let batch: Buffer[] = [];
    let batchBytes = 0;
    let writing: Promise<void> = Promise.resolve();
    for await (const chunk of request as AsyncIterable<Buffer>) {
      size += chunk.length;
      batch.push(chunk);
      batchBytes += chunk.length;
      if (batchBytes >= WRITE_BATCH_BYTES) {
        await writing;
        writing = writeAll(file, batch, batchBytes);
        writing.catch(() => {}); // awaited before the next batch or at the end
        batch = [];
        batchBytes = 0;
      }
    }
    await writing;
    if (batchBytes > 0) await writeAll(file, batch, batchBytes);
    await file.close();
  } catch (error) {
    await file.close().catch(() => {});
    await rm(path, { force: true });
    throw error;
  }
  return size;
};

const writeAll = async (file: FileHandle, chunks: Buffer[], total: number): Promise<void> => {
  const { bytesWritten } = await file.writev(chunks);
  if (bytesWritten === total) return;
  // A short write (not expected for a regular file): write the rest.
  const rest = Buffer.concat(chunks, total);
  for (let written = bytesWritten; written < total; ) {
    written += (await file.write(rest, written, total - written)).bytesWritten;
  }
};

const collect = async (request: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

const drain = async (request: IncomingMessage): Promise<void> => {
  for await (const _ of request);
};

const exists = async (path: string): Promise<boolean> => {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
};

const sendXml = (response: ServerResponse, body: string) => {
  const bytes = Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
  response.writeHead(200, { 'content-type': 'application/xml', 'content-length': bytes.length }).end(bytes);
};

const sendError = (response: ServerResponse, error: unknown) => {
  const known =
    error instanceof S3Error ? error : new S3Error(500, 'InternalError', (error as Error).message);
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const body = Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${known.code}</Code><Message>${xmlEscape(known.message)}</Message></Error>`,
  );
  response
    .writeHead(known.status, { 'content-type': 'application/xml', 'content-length': body.length })
    .end(body);
};
