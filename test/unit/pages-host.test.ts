import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BlobNotFoundError } from '../../lambdas/adapters/blobs/s3-blob-store';
import type { BlobStore } from '../../lambdas/core/ports';
import { withdrawPublication } from '../../lambdas/core/publications';
import { writeViewer } from '../../lambdas/pages/publication';
import { PAGE_CSP } from '../../lambdas/pages/security';
import { renderViewer } from '../../lambdas/pages/viewer';
import { pagesListener } from '../../local/pages-host';
import { linesOf } from '../support/log-capture';

/** The BlobStore port in memory, answering ranges as the S3 adapter does (short at the end). */
class MemoryBlobs implements BlobStore {
  readonly blobs = new Map<string, { bytes: Buffer; contentType: string }>();
  /** Bytes read through `readRange`: a copy inside the store reads none. */
  bytesRead = 0;
  async put(key: string, body: AsyncIterable<Uint8Array>, contentType: string) {
    const chunks: Uint8Array[] = [];
    for await (const chunk of body) chunks.push(chunk);
    const bytes = Buffer.concat(chunks);
    this.blobs.set(key, { bytes, contentType });
    return { size: bytes.byteLength };
  }
  async readRange(key: string, start: number, end: number) {
    const blob = this.blobs.get(key);
    if (!blob) throw new BlobNotFoundError(key);
    this.bytesRead += Math.max(0, Math.min(end, blob.bytes.length) - start);
    return new Uint8Array(blob.bytes.subarray(start, end));
  }
  async delete(key: string) {
    this.blobs.delete(key);
  }
  async copy(fromKey: string, toKey: string, contentType: string) {
    const blob = this.blobs.get(fromKey);
    if (!blob) throw new BlobNotFoundError(fromKey);
    this.blobs.set(toKey, { bytes: blob.bytes, contentType });
  }
}

const SLUG = 'pub_Q2xR4vT9mZk3WbYp8sJdNa';
const JPEG = Buffer.from('\xff\xd8\xff\xe0 fake page image bytes', 'latin1');
const WEBP = Buffer.from('RIFF\0\0\0\0WEBPVP8 fake thumbnail bytes');
const PDF = Buffer.alloc(2.5 * 1024 * 1024, 0x25); // more than two read chunks: served chunked

const put = (blobs: BlobStore, key: string, bytes: Buffer, contentType: string) =>
  blobs.put(
    key,
    (async function* () {
      yield bytes;
    })(),
    contentType,
  );

describe('pagesListener', () => {
  let blobs: MemoryBlobs;
  let server: Server;
  let base: string;
  let writeViewerRead = -1;

  beforeAll(async () => {
    blobs = new MemoryBlobs();
    await put(blobs, 'renders/p1.jpg', JPEG, 'image/jpeg');
    await put(blobs, 'renders/t1.webp', WEBP, 'image/webp');
    await put(blobs, 'uploads/v1.pdf', PDF, 'application/pdf');
    const output = renderViewer({
      contract: {
        contractReviewId: 'crv_1',
        version: 1,
        pageCount: 1,
        pages: [
          {
            number: 1,
            widthPoints: 595,
            heightPoints: 842,
            image: { key: 'renders/p1.jpg', contentType: 'image/jpeg', width: 100, height: 141 },
            thumbnail: { key: 'renders/t1.webp', contentType: 'image/webp', width: 20, height: 28 },
            text: [{ text: 'Purchase price', x: 0.1, y: 0.1, width: 0.2, height: 0.02 }],
          },
        ],
      },
      title: '<script>alert(1)</script>',
      sender: 'Harbour Conveyancing',
      publishedAt: '2025-03-12T14:03:09Z',
      pdfKey: 'uploads/v1.pdf',
    });
    await writeViewer(blobs, SLUG, output);
    writeViewerRead = blobs.bytesRead;
    await writeViewer(blobs, 'withdrawn-one', output);
    await withdrawPublication(blobs, 'withdrawn-one');
    server = createServer(pagesListener(blobs));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  test('a viewer’s page images and PDF are copied inside the store: writing it reads no byte of them', async () => {
    expect(writeViewerRead).toBe(0);
    const published = [...blobs.blobs].filter(([key]) => key.startsWith(`published/${SLUG}/`));
    const copies = (type: string) => published.filter(([, blob]) => blob.contentType === type);
    expect(copies('image/jpeg').map(([, blob]) => blob.bytes.equals(JPEG))).toEqual([true]);
    expect(copies('image/webp').map(([, blob]) => blob.bytes.equals(WEBP))).toEqual([true]);
    expect(copies('application/pdf').map(([, blob]) => blob.bytes.equals(PDF))).toEqual([true]);
  });

  /** GET of a path exactly as written: fetch would resolve `..` and `%2e%2e` before sending. */
  const rawGet = (path: string): Promise<{ status: number; body: string; csp: string }> =>
    new Promise((resolve, reject) => {
      const { port } = server.address() as AddressInfo;
      httpRequest({ host: '127.0.0.1', port, path, method: 'GET' }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body,
            csp: String(response.headers['content-security-policy']),
          }),
        );
      })
        .on('error', reject)
        .end();
    });

  const expectSecurityHeaders = (response: Response) => {
    expect(response.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  };

  test('serves the page at /{slug}/ with its headers, revalidated on each visit', async () => {
    const response = await fetch(`${base}/${SLUG}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expectSecurityHeaders(response);
    const html = await response.text();
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>');
  });

  test("serves the version's files, cached for good, and the PDF as a download", async () => {
    const html = await (await fetch(`${base}/${SLUG}/`)).text();
    const css = /href="(v1\/viewer-[0-9a-f]+\.css)"/.exec(html)?.[1];
    const cssAnswer = await fetch(`${base}/${SLUG}/${css}`);
    expect(cssAnswer.status).toBe(200);
    expect(cssAnswer.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(cssAnswer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await cssAnswer.text()).toContain('.t1-1{');

    const image = await fetch(`${base}/${SLUG}/v1/page-1.jpg`);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expect(image.headers.get('content-length')).toBe(String(JPEG.byteLength));
    expect(Buffer.from(await image.arrayBuffer())).toEqual(JPEG);
    expectSecurityHeaders(image);

    const thumbnail = await fetch(`${base}/${SLUG}/v1/thumb-1.webp`);
    expect(thumbnail.headers.get('content-type')).toBe('image/webp');
    expect(Buffer.from(await thumbnail.arrayBuffer())).toEqual(WEBP);

    const pdf = await fetch(`${base}/${SLUG}/v1/contract.pdf`);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe('attachment');
    expect(Buffer.from(await pdf.arrayBuffer()).equals(PDF)).toBe(true);
  });

  test('HEAD answers the headers without a body', async () => {
    const response = await fetch(`${base}/${SLUG}/v1/page-1.jpg`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(JPEG.byteLength));
    expect(await response.text()).toBe('');
  });

  test('the bare slug moves to the folder, where relative paths resolve', async () => {
    const response = await fetch(`${base}/${SLUG}`, { redirect: 'manual' });
    expect(response.status).toBe(308);
    expect(response.headers.get('location')).toBe(`/${SLUG}/`);
  });

  test('a withdrawn publication answers 410 with a plain page, for the page and its files', async () => {
    for (const path of ['', 'v1/page-1.jpg', 'v1/contract.pdf']) {
      const response = await fetch(`${base}/withdrawn-one/${path}`);
      expect(response.status).toBe(410);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expectSecurityHeaders(response);
      expect(await response.text()).toContain('This page was withdrawn');
    }
  });

  test('unknown slugs, files and unsafe paths answer 404 with a plain page', async () => {
    for (const path of [
      '/',
      '/unknown-slug/',
      `/${SLUG}/v1/page-9.jpg`,
      `/${SLUG}/withdrawn`,
      `/${SLUG}/../${SLUG}/`,
      `/${SLUG}/v1/%2e%2e/index.html`,
      `/${SLUG}/v1/../index.html`,
      `/${SLUG}/.hidden.html`,
      `/${SLUG}//index.html`,
      `/${SLUG}/files.json`,
      '/%3Cscript%3E/',
    ]) {
      const response = await rawGet(path);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      expect(response.csp).toBe(PAGE_CSP);
      expect(response.body).toContain('Page not found');
    }
  });

  test('only GET and HEAD', async () => {
    const response = await fetch(`${base}/${SLUG}/`, { method: 'POST', body: 'x' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });

  test('a store that cannot be read answers 503, not the error', async () => {
    const failing: Pick<BlobStore, 'readRange'> = {
      readRange: async () => {
        throw new Error('connection refused: secret detail');
      },
    };
    const broken = createServer(pagesListener(failing));
    try {
      await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
      let text = '';
      const logged = await linesOf(async () => {
        const response = await fetch(`http://127.0.0.1:${(broken.address() as AddressInfo).port}/${SLUG}/`);
        expect(response.status).toBe(503);
        text = await response.text();
      });
      expect(text).not.toContain('secret detail');
      // The operator's log has the fault; the reader's page does not.
      expect(logged).toEqual([
        expect.objectContaining({
          level: 'ERROR',
          error: expect.objectContaining({ message: 'connection refused: secret detail' }),
        }),
      ]);
    } finally {
      await new Promise((resolve) => broken.close(resolve));
    }
  });
});
