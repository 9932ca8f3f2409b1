import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { S3BlobStore } from '../../lambdas/adapters/blobs/s3-blob-store';
import { createS3Client, ensureBucket } from '../../lambdas/adapters/blobs/s3-client';
import { PdfjsInspector } from '../../lambdas/adapters/pdf/pdfjs-inspector';
import type { BlobStore } from '../../lambdas/core/ports';
import { type LocalS3, startLocalS3 } from '../../local/emulators/s3-server';
import {
  contractPdf,
  damagedPdf,
  encryptedPdf,
  notAPdf,
  truncatedPdf,
  writeLargePdf,
  zeroPagePdf,
} from '../support/pdfs';

/** The blob store, counting the bytes read through it. */
class CountingBlobs implements Pick<BlobStore, 'put' | 'readRange'> {
  bytesRead = 0;
  constructor(private readonly inner: BlobStore) {}
  put(key: string, body: AsyncIterable<Uint8Array>, contentType: string) {
    return this.inner.put(key, body, contentType);
  }
  async readRange(key: string, start: number, end: number) {
    const bytes = await this.inner.readRange(key, start, end);
    this.bytesRead += bytes.length;
    return bytes;
  }
  delete(key: string) {
    return this.inner.delete(key);
  }
}

describe('PdfjsInspector over the S3 blob store (local twin)', () => {
  let directory: string;
  let s3: LocalS3;
  let client: S3Client;
  let blobs: CountingBlobs;
  let inspector: PdfjsInspector;

  const store = async (key: string, bytes: Uint8Array) => {
    const body = async function* () {
      yield bytes;
    };
    return (await blobs.put(key, body(), 'application/pdf')).size;
  };

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'pdf-'));
    s3 = await startLocalS3(join(directory, 'blobs'), 0);
    client = createS3Client({ region: 'us-east-1', endpoint: s3.endpoint });
    await ensureBucket(client, 'blobs');
    blobs = new CountingBlobs(new S3BlobStore({ client, bucket: 'blobs' }));
    inspector = new PdfjsInspector(blobs);
  });

  afterAll(async () => {
    client.destroy();
    await s3.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it('opens a generated contract and counts its pages', async () => {
    const size = await store('contract.pdf', await contractPdf(4));
    expect(await inspector.inspect('contract.pdf', size)).toEqual({ readable: true, pageCount: 4 });
  });

  it('opens a 100 MB PDF reading only a small fraction of it', async () => {
    const path = join(directory, 'large.pdf');
    await writeLargePdf(path, 100 * 1024 * 1024);
    const { size } = await blobs.put('large.pdf', createReadStream(path), 'application/pdf');
    expect(size).toBe((await stat(path)).size);
    expect(size).toBe(100 * 1024 * 1024);

    blobs.bytesRead = 0;
    expect(await inspector.inspect('large.pdf', size)).toEqual({ readable: true, pageCount: 1 });
    expect(blobs.bytesRead).toBeLessThan(size / 100);
  });

  it.each([
    ['random bytes', () => notAPdf('random'), /not a PDF/],
    ['an HTML page', () => notAPdf('html'), /not a PDF/],
    ['a PDF header followed by noise', () => damagedPdf(), /damaged/],
    ['a truncated PDF', () => truncatedPdf(0.5), /truncated/],
    ['a PDF cut at 90%', () => truncatedPdf(0.9), /truncated/],
    ['a PDF without pages', () => zeroPagePdf(), /no pages/],
    ['a PDF with a user password', () => encryptedPdf(), /password/],
  ])('refuses %s with a reason', async (name, make, reason) => {
    const size = await store(`bad/${name}`, await make());
    const verdict = await inspector.inspect(`bad/${name}`, size);
    expect(verdict).toEqual({ readable: false, reason: expect.stringMatching(reason) });
  });

  it('refuses an empty file', async () => {
    expect(await inspector.inspect('never-stored', 0)).toEqual({
      readable: false,
      reason: 'The file is empty.',
    });
  });

  it('a blob that cannot be read throws instead of judging the file', async () => {
    await expect(inspector.inspect('never-stored', 5000)).rejects.toThrow('No blob at never-stored');
  });

  it('a blob that vanishes while pdf.js reads it throws', async () => {
    const size = await store('vanishing.pdf', await contractPdf(40));
    const vanishing = new PdfjsInspector({
      readRange: async (key, start, end) => {
        if (start > 0) throw new Error('S3 is down');
        return blobs.readRange(key, start, end);
      },
    });
    await expect(vanishing.inspect('vanishing.pdf', size)).rejects.toThrow('S3 is down');
  });
});
