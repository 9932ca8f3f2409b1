// The renderer and inspector draw and accept what readers of record (MuPDF, Poppler) do (issue 31): a
// late or missing header, pages whose content is cut off, a note without an appearance, CJK text in a
// font the file does not embed.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { S3BlobStore } from '../../lambdas/adapters/blobs/s3-blob-store';
import { createS3Client, ensureBucket } from '../../lambdas/adapters/blobs/s3-client';
import { PdfjsInspector } from '../../lambdas/adapters/pdf/pdfjs-inspector';
import { PdfjsRenderer } from '../../lambdas/adapters/pdf/pdfjs-renderer';
import type { RenderedContract, RenderRequest } from '../../lambdas/core/rendered-contract';
import { type LocalS3, startLocalS3 } from '../../local/emulators/s3-server';
import {
  CJK_LINE,
  cjkPdf,
  cutContentPdf,
  headerlessPdf,
  lateHeaderPdf,
  NOTE_AT,
  notePdf,
} from '../support/reader-fixtures';

const POINTS = { width: 595.28, height: 841.89 };

/** An image's pixels, dark or not (red channel under 128: black text, blue boxes and outlines). */
interface Ink {
  width: number;
  height: number;
  dark: (x: number, y: number) => boolean;
}

/** A box in image pixels. */
interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const darkShare = (image: Ink, box: Box): number => {
  let dark = 0;
  for (let y = box.y; y < box.y + box.height; y++)
    for (let x = box.x; x < box.x + box.width; x++) if (image.dark(x, y)) dark++;
  return dark / (box.width * box.height);
};

/** The share of pixels where two boxes of the same size differ in ink. */
const difference = (image: Ink, a: Box, b: Box): number => {
  let differing = 0;
  for (let y = 0; y < a.height; y++)
    for (let x = 0; x < a.width; x++)
      if (image.dark(a.x + x, a.y + y) !== image.dark(b.x + x, b.y + y)) differing++;
  return differing / (a.width * a.height);
};

describe('reading PDFs as readers of record do', () => {
  let directory: string;
  let s3: LocalS3;
  let client: S3Client;
  let blobs: S3BlobStore;
  let sequence = 0;

  const store = async (bytes: Uint8Array) => {
    const pdfKey = `pdfs/${++sequence}.pdf`;
    const body = async function* () {
      yield bytes;
    };
    return { pdfKey, pdfSize: (await blobs.put(pdfKey, body(), 'application/pdf')).size };
  };

  const render = async (bytes: Uint8Array): Promise<RenderedContract> => {
    const request: RenderRequest = {
      contractReviewId: `crv_${sequence}`,
      version: 1,
      ...(await store(bytes)),
      outputPrefix: `pages/crv_${sequence}/v1/`,
      deadline: Date.now() + 300_000,
    };
    // A renderer per file: its threads end with each render rather than wait, idle, for another.
    return new PdfjsRenderer(blobs, { idleThreadMs: 0 }).render(request);
  };

  const pageImage = async (contract: RenderedContract, number: number): Promise<Ink> => {
    const key = contract.pages[number - 1]?.image.key ?? '';
    const image = await loadImage(Buffer.from(await blobs.readRange(key, 0, 64 * 1024 * 1024)));
    const canvas = createCanvas(image.width, image.height);
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    const pixels = context.getImageData(0, 0, image.width, image.height).data;
    return {
      width: image.width,
      height: image.height,
      dark: (x, y) => (pixels[(y * image.width + x) * 4] as number) < 128,
    };
  };

  /** A box given in points from the page's bottom-left corner, in the image's pixels. */
  const pixelsOf = (image: Ink, points: { x: number; y: number; width: number; height: number }): Box => {
    const scale = image.width / POINTS.width;
    return {
      x: Math.round(points.x * scale),
      y: Math.round((POINTS.height - points.y - points.height) * scale),
      width: Math.round(points.width * scale),
      height: Math.round(points.height * scale),
    };
  };

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'reader-'));
    s3 = await startLocalS3(join(directory, 'blobs'), 0);
    client = createS3Client({ region: 'us-east-1', endpoint: s3.endpoint });
    await ensureBucket(client, 'blobs');
    blobs = new S3BlobStore({ client, bucket: 'blobs' });
  });

  afterAll(async () => {
    client.destroy();
    await s3.stop();
    await rm(directory, { recursive: true, force: true });
  });

  describe('the %PDF- header', () => {
    it.each([
      ['1,500 bytes late', () => lateHeaderPdf(1500)],
      ['missing', () => headerlessPdf()],
    ])('a file whose header is %s is accepted and drawn, with its text', async (_, make) => {
      const pdf = await make();
      const { pdfKey, pdfSize } = await store(pdf);
      await expect(new PdfjsInspector(blobs).inspect(pdfKey, pdfSize)).resolves.toEqual({
        readable: true,
        pageCount: 1,
      });
      const contract = await render(pdf);
      expect(contract.pages).toHaveLength(1);
      expect(contract.pages[0]?.problems).toBeUndefined();
      expect(contract.pages[0]?.text.length).toBeGreaterThan(0);
      const image = await pageImage(contract, 1);
      expect(darkShare(image, { x: 0, y: 0, width: image.width, height: image.height })).toBeGreaterThan(0);
    });

    it('a file without a header that does not open is still "not a PDF"', async () => {
      const { pdfKey, pdfSize } = await store(Buffer.from('<html><body>Gateway timeout</body></html>\n'));
      await expect(new PdfjsInspector(blobs).inspect(pdfKey, pdfSize)).resolves.toEqual({
        readable: false,
        reason: 'The file is not a PDF.',
      });
    });
  });

  it('four pages whose content streams are cut off are each drawn as far as they decode', async () => {
    const contract = await render(await cutContentPdf(4));
    expect(contract.pages.map((page) => page.problems)).toEqual([undefined, undefined, undefined, undefined]);
    for (const number of [1, 2, 3, 4]) {
      const image = await pageImage(contract, number);
      // The blue box, drawn first in each stream.
      expect(darkShare(image, pixelsOf(image, { x: 60, y: 510, width: 280, height: 180 }))).toBeGreaterThan(
        0.95,
      );
    }
  });

  it('a note without an appearance is drawn as a note icon where it is, on an otherwise blank page', async () => {
    const contract = await render(await notePdf());
    const image = await pageImage(contract, 1);
    const note = pixelsOf(image, { x: NOTE_AT.x, y: NOTE_AT.y - 22, width: 22, height: 22 });
    expect(darkShare(image, note)).toBeGreaterThan(0.05);
    // Nothing else on the page.
    const above = pixelsOf(image, { x: 0, y: NOTE_AT.y + 2, width: POINTS.width, height: 200 });
    expect(darkShare(image, above)).toBe(0);
  });

  it('CJK text in a font the file does not embed is drawn as its characters, not notdef boxes', async () => {
    const text = '合同目录';
    const contract = await render(await cjkPdf(text));
    expect(
      contract.pages[0]?.text
        .map((run) => run.text)
        .join('')
        .replace(/ /g, ''),
    ).toBe(text);
    const image = await pageImage(contract, 1);
    const cells = [...text].map((_, i) =>
      pixelsOf(image, {
        x: CJK_LINE.x + i * CJK_LINE.advance,
        y: CJK_LINE.y - CJK_LINE.size * 0.2,
        width: CJK_LINE.size,
        height: CJK_LINE.size * 1.1,
      }),
    );
    for (const cell of cells) expect(darkShare(image, cell)).toBeGreaterThan(0.02);
    // A notdef box is the same shape for every character; the characters differ from one another.
    for (let i = 0; i < cells.length; i++)
      for (let j = i + 1; j < cells.length; j++)
        expect(difference(image, cells[i] as Box, cells[j] as Box)).toBeGreaterThan(0.05);
  });
});
