import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { BlobNotFoundError, S3BlobStore } from '../../lambdas/adapters/blobs/s3-blob-store';
import { createS3Client, ensureBucket } from '../../lambdas/adapters/blobs/s3-client';
import {
  MAX_PDF_BYTES,
  MAX_REQUEST_PART_BYTES,
  MAX_UPLOAD_BODY_BYTES,
  type ReadUploadInput,
  readUpload,
} from '../../lambdas/api/upload/read-upload';
import type { BlobStore } from '../../lambdas/core/ports';
import { type LocalS3, startLocalS3 } from '../../local/emulators/s3-server';
import { eventually } from '../support/eventually';
import { contractPdf } from '../support/pdfs';

const BOUNDARY = '----contract-upload-7MA4YWxkTrZu0gW';
const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
const REQUEST = JSON.stringify({ external_reference: 'sale-2291', product: 'contract_viewer' });

interface PartSpec {
  name: string;
  filename?: string;
  contentType?: string;
  body: Uint8Array | string;
}

const filePart = (body: Uint8Array): PartSpec => ({
  name: 'file',
  filename: 'contract.pdf',
  contentType: 'application/pdf',
  body,
});
const requestPart = (body = REQUEST): PartSpec => ({
  name: 'request',
  contentType: 'application/json',
  body,
});

/** A multipart/form-data body as a client builds it. */
const multipart = (parts: PartSpec[], { close = true } = {}): Buffer => {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    chunks.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${part.contentType ? `Content-Type: ${part.contentType}\r\n` : ''}\r\n`,
      ),
      Buffer.from(part.body),
      Buffer.from('\r\n'),
    );
  }
  if (close) chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
};

/** The body as a stream of odd-sized chunks (boundaries fall across chunks), counting what was read. */
const chunked = (bytes: Uint8Array, size = 7919) => {
  const reads = { bytes: 0 };
  const body = (async function* () {
    for (let offset = 0; offset < bytes.length; offset += size) {
      const chunk = bytes.subarray(offset, offset + size);
      reads.bytes += chunk.length;
      yield chunk;
    }
  })();
  return { body, reads };
};

/**
 * `store`, whose puts stop taking the body after `after` bytes until `release()`: a blob store that is
 * behind. `taken` counts what the puts took and says when one is held.
 */
const holding = (store: BlobStore, after: number) => {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const taken = { bytes: 0, holding: false };
  const blobs: BlobStore = {
    put: (key, body, contentType) =>
      store.put(
        key,
        (async function* () {
          for await (const chunk of body) {
            if (taken.bytes >= after) {
              taken.holding = true;
              await released;
            }
            taken.bytes += chunk.byteLength;
            yield chunk;
          }
        })(),
        contentType,
      ),
    readRange: (key, start, end) => store.readRange(key, start, end),
    delete: (key) => store.delete(key),
    copy: (fromKey, toKey, contentType) => store.copy(fromKey, toKey, contentType),
  };
  return { blobs, taken, release };
};

/** One turn of the event loop (after pending I/O callbacks and every queued microtask). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `value()` once it has not changed for 50 turns in a row (at most 100,000 turns, else it fails). */
const quiescent = async (value: () => number): Promise<number> => {
  let last = value();
  let still = 0;
  for (let turns = 0; turns < 100_000; turns++) {
    await turn();
    const now = value();
    still = now === last ? still + 1 : 0;
    last = now;
    if (still >= 50) return now;
  }
  throw new Error(`the value still changed after 100,000 turns (last ${last})`);
};

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

describe('readUpload with busboy and the local blob twin', () => {
  let directory: string;
  let s3: LocalS3;
  let client: S3Client;
  let blobs: BlobStore;
  let pdf: Uint8Array;
  let n = 0;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'upload-'));
    s3 = await startLocalS3(directory, 0);
    client = createS3Client({ region: 'us-east-1', endpoint: s3.endpoint });
    await ensureBucket(client, 'blobs');
    blobs = new S3BlobStore({ client, bucket: 'blobs' });
    pdf = await contractPdf(30);
  });

  afterAll(async () => {
    client.destroy();
    await s3.stop();
    await rm(directory, { recursive: true, force: true });
  });

  const read = (bytes: Uint8Array, overrides: Partial<ReadUploadInput> = {}) => {
    const blobKey = `uploads/${++n}.pdf`;
    const { body, reads } = chunked(bytes);
    const result = readUpload({
      contentType: CONTENT_TYPE,
      contentLength: bytes.length,
      body,
      blobs,
      blobKey,
      ...overrides,
    });
    return { result, blobKey, reads };
  };

  const expectNothingStored = async (blobKey: string) => {
    await expect(blobs.readRange(blobKey, 0, 10)).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(await readdir(join(directory, 'blobs', 'uploads'))).toEqual([]);
  };

  it.each([
    ['file then request', () => [filePart(pdf), requestPart()]],
    ['request then file', () => [requestPart(), filePart(pdf)]],
    [
      'request as a file part, file as octet-stream',
      () => [
        { name: 'request', filename: 'request.json', contentType: 'application/json', body: REQUEST },
        { name: 'file', filename: 'x', contentType: 'application/octet-stream', body: pdf },
      ],
    ],
  ])('reads a good body: %s', async (_name, parts) => {
    const bytes = multipart(parts());
    const { result, blobKey } = read(bytes);
    const { bodySha256, bodySize, parts: read_ } = await result;
    expect(bodySha256.equals(sha256(bytes))).toBe(true);
    expect(bodySize).toBe(bytes.length);
    expect(read_).toEqual({
      ok: true,
      requestJson: REQUEST,
      file: { blobKey, size: pdf.length, sha256Hex: sha256(pdf).toString('hex') },
    });
    expect(Buffer.from(await blobs.readRange(blobKey, 0, pdf.length)).equals(pdf)).toBe(true);
  });

  it('streams a 30 MB file to the blob store and hashes exactly the bytes sent (preamble and epilogue too)', async () => {
    const big = randomBytes(30 * 1024 * 1024);
    const bytes = Buffer.concat([
      Buffer.from('This is the preamble.\r\n'),
      multipart([requestPart(), filePart(big)]),
      Buffer.from('epilogue'),
    ]);
    const { result, blobKey } = read(bytes, { contentLength: undefined });
    const { bodySha256, bodySize, parts } = await result;
    expect(bodySha256.equals(sha256(bytes))).toBe(true);
    expect(bodySize).toBe(bytes.length);
    expect(parts.ok && parts.file).toEqual({
      blobKey,
      size: big.length,
      sha256Hex: sha256(big).toString('hex'),
    });
    const tail = await blobs.readRange(blobKey, big.length - 1000, big.length);
    expect(Buffer.from(tail).equals(big.subarray(big.length - 1000))).toBe(true);
  });

  const faults: [string, () => { bytes: Buffer; contentType?: string | undefined }, RegExp][] = [
    [
      'a JSON body',
      () => ({ bytes: Buffer.from(REQUEST), contentType: 'application/json' }),
      /not multipart\/form-data/,
    ],
    [
      'no Content-Type',
      () => ({ bytes: multipart([filePart(pdf), requestPart()]), contentType: undefined }),
      /not multipart/,
    ],
    [
      'urlencoded',
      () => ({ bytes: Buffer.from('a=b'), contentType: 'application/x-www-form-urlencoded' }),
      /not multipart/,
    ],
    [
      'no boundary',
      () => ({ bytes: multipart([filePart(pdf), requestPart()]), contentType: 'multipart/form-data' }),
      /Boundary/,
    ],
    ['no file part', () => ({ bytes: multipart([requestPart()]) }), /no `file` part/],
    ['no request part', () => ({ bytes: multipart([filePart(pdf)]) }), /no `request` part/],
    [
      'a repeated file',
      () => ({ bytes: multipart([filePart(pdf), filePart(pdf), requestPart()]) }),
      /`file` part is repeated/,
    ],
    [
      'a repeated request',
      () => ({ bytes: multipart([requestPart(), filePart(pdf), requestPart()]) }),
      /`request` part is repeated/,
    ],
    [
      'an extra field',
      () => ({ bytes: multipart([filePart(pdf), requestPart(), { name: 'note', body: 'hi' }]) }),
      /extra part named "note"/,
    ],
    [
      'an extra file',
      () => ({
        bytes: multipart([filePart(pdf), { name: 'scan', filename: 'a.pdf', body: pdf }, requestPart()]),
      }),
      /extra part named "scan"/,
    ],
    [
      'a file part without a filename',
      () => ({
        bytes: multipart([{ name: 'file', contentType: 'application/pdf', body: pdf }, requestPart()]),
      }),
      /not a file part/,
    ],
    [
      'a request over 64 KiB',
      () => ({ bytes: multipart([filePart(pdf), requestPart('x'.repeat(MAX_REQUEST_PART_BYTES + 1))]) }),
      /larger than 65536/,
    ],
    [
      'a request file part over 64 KiB',
      () => ({
        bytes: multipart([{ name: 'request', filename: 'r.json', body: 'x'.repeat(70_000) }, filePart(pdf)]),
      }),
      /larger than 65536/,
    ],
    [
      'a body cut short (no closing boundary)',
      () => ({ bytes: multipart([requestPart(), filePart(pdf)], { close: false }) }),
      /malformed/,
    ],
    [
      'a body cut inside the file',
      () => ({ bytes: multipart([requestPart(), filePart(pdf)]).subarray(0, 5000) }),
      /malformed/,
    ],
    ['garbage', () => ({ bytes: randomBytes(50_000) }), /malformed/],
    ['an empty body', () => ({ bytes: Buffer.alloc(0) }), /malformed/],
    [
      'a bad part header',
      () => ({ bytes: Buffer.from(`--${BOUNDARY}\r\nno colon here\r\n\r\nx\r\n--${BOUNDARY}--\r\n`) }),
      /malformed/,
    ],
  ];

  it.each(faults)(
    '%s: not ok, says what to send, body still read and hashed, nothing kept',
    async (_name, make, message) => {
      const { bytes, ...rest } = make();
      const contentType = 'contentType' in rest ? rest.contentType : CONTENT_TYPE;
      const { result, blobKey, reads } = read(bytes, { contentType });
      const { bodySha256, bodySize, parts } = await result;
      expect(parts.ok).toBe(false);
      if (!parts.ok) {
        expect(parts.message).toMatch(message);
        expect(parts.message).toMatch(/Send multipart\/form-data with exactly two parts/);
      }
      expect(reads.bytes).toBe(bytes.length);
      expect(bodySize).toBe(bytes.length);
      expect(bodySha256.equals(sha256(bytes))).toBe(true);
      await expectNothingStored(blobKey);
    },
  );

  it('a declared length over the limit is refused before reading', async () => {
    const { result, reads, blobKey } = read(multipart([filePart(pdf), requestPart()]), {
      contentLength: MAX_UPLOAD_BODY_BYTES + 1,
    });
    await expect(result).rejects.toMatchObject({ code: 'payload_too_large', status: 413 });
    expect(reads.bytes).toBe(0);
    await expectNothingStored(blobKey);
  });

  it('an undeclared body is refused as soon as it passes the limit, and nothing is kept', async () => {
    const limit = 2 * 1024 * 1024;
    const bytes = multipart([requestPart(), filePart(randomBytes(8 * 1024 * 1024))]);
    const { result, reads, blobKey } = read(bytes, { contentLength: undefined, maxBodyBytes: limit });
    await expect(result).rejects.toMatchObject({ code: 'payload_too_large' });
    expect(reads.bytes).toBeLessThan(limit + 8000);
    await expectNothingStored(blobKey);
  });

  it('a file over 100 MiB is refused even when the body is within the 1 MiB allowance', async () => {
    expect(MAX_UPLOAD_BODY_BYTES - MAX_PDF_BYTES).toBe(1024 * 1024);
    const head = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
    const size = MAX_PDF_BYTES + 10;
    const reads = { bytes: 0 };
    const body = (async function* () {
      yield head;
      const chunk = Buffer.alloc(1024 * 1024, 0x41);
      for (let left = size; left > 0; left -= chunk.length) {
        reads.bytes += Math.min(chunk.length, left);
        yield chunk.subarray(0, Math.min(chunk.length, left));
      }
      yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
    })();
    const blobKey = 'uploads/over-100.pdf';
    await expect(
      readUpload({ contentType: CONTENT_TYPE, contentLength: undefined, body, blobs, blobKey }),
    ).rejects.toMatchObject({ code: 'payload_too_large' });
    await expectNothingStored(blobKey);
  });

  it('back-pressure: while the blob store takes nothing, the body is not read further; then it is stored whole', async () => {
    const file = randomBytes(20 * 1024 * 1024);
    const bytes = multipart([requestPart(), filePart(file)]);
    const held = holding(blobs, 1024 * 1024);
    const { result, blobKey, reads } = read(bytes, { blobs: held.blobs });
    await eventually(async () => held.taken.holding, Boolean, { what: 'the store to stop taking bytes' });
    // Nothing here waits on I/O: once reads stop growing over many turns of the event loop, the reader waits.
    const stalledAt = await quiescent(() => reads.bytes);
    expect(stalledAt).toBeLessThan(held.taken.bytes + 1024 * 1024);
    expect(stalledAt).toBeLessThan(bytes.length / 4);
    held.release();
    const { parts } = await result;
    expect(parts.ok && parts.file.sha256Hex).toBe(sha256(file).toString('hex'));
    expect(reads.bytes).toBe(bytes.length);
    const tail = await blobs.readRange(blobKey, file.length - 1000, file.length);
    expect(Buffer.from(tail).equals(file.subarray(file.length - 1000))).toBe(true);
  });

  it('a failing blob store throws its error; nothing is kept', async () => {
    let deleted = '';
    const failing: BlobStore = {
      async put(_key, body) {
        for await (const _ of body) throw new Error('S3 is down');
        return { size: 0 };
      },
      readRange: () => Promise.reject(new Error('unused')),
      copy: () => Promise.reject(new Error('unused')),
      delete: async (key) => {
        deleted = key;
      },
    };
    const { result, blobKey } = read(multipart([requestPart(), filePart(randomBytes(3 * 1024 * 1024))]), {
      blobs: failing,
    });
    await expect(result).rejects.toThrow('S3 is down');
    expect(deleted).toBe(blobKey);
  });

  it('a client that goes away midway: the error is thrown and nothing is kept', async () => {
    const bytes = multipart([requestPart(), filePart(randomBytes(12 * 1024 * 1024))]);
    const blobKey = 'uploads/aborted.pdf';
    const body = (async function* () {
      yield bytes.subarray(0, 7 * 1024 * 1024);
      throw new Error('aborted');
    })();
    await expect(
      readUpload({ contentType: CONTENT_TYPE, contentLength: bytes.length, body, blobs, blobKey }),
    ).rejects.toThrow('aborted');
    await expectNothingStored(blobKey);
  });
});
