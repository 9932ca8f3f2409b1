import diagnostics from 'node:diagnostics_channel';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Worker } from 'node:worker_threads';
import type { S3Client } from '@aws-sdk/client-s3';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { BlobNotFoundError, S3BlobStore } from '../../lambdas/adapters/blobs/s3-blob-store';
import { createS3Client, ensureBucket } from '../../lambdas/adapters/blobs/s3-client';
import { PdfjsRenderer, type PdfjsRendererOptions } from '../../lambdas/adapters/pdf/pdfjs-renderer';
import * as skiaJpeg from '../../lambdas/adapters/pdf/skia-jpeg-decoder';
import {
  pageText,
  type RenderedContract,
  RenderFailed,
  type RenderRequest,
  type TextRun,
} from '../../lambdas/core/rendered-contract';
import { type LocalS3, startLocalS3 } from '../../local/emulators/s3-server';
import { clockPasses, eventually } from '../support/eventually';
import {
  contractPdf,
  damagedImagePdf,
  encryptedPdf,
  notAPdf,
  oversizedImagePdf,
  repeatedPagePdf,
  rotatedPdf,
  scannedPdf,
  truncatedPdf,
  undrawablePdf,
  zeroPagePdf,
} from '../support/pdfs';

/** Real-world PDFs that once sank a contract, beside the repository (README of that folder). */
const REAL_WORLD_PDFS = fileURLToPath(new URL('../../../shared/fixtures/real-world-pdfs/', import.meta.url));

/** The pixels of a stored image, decoded, and its first bytes. */
interface Decoded {
  head: Buffer;
  width: number;
  height: number;
  pixels: Uint8ClampedArray;
}

/** `count` light pages (a heading and a few lines), so that rendering many stays quick. */
const lightPages = async (count: number): Promise<Uint8Array> => {
  const source = await PDFDocument.create();
  const font = await source.embedFont(StandardFonts.Helvetica);
  const page = source.addPage([595.28, 841.89]);
  page.drawText('CONTRACT OF SALE OF REAL ESTATE', { x: 50, y: 790, size: 16, font });
  for (let line = 0; line < 5; line++)
    page.drawText(`Schedule item ${line + 1}: chattels included in the sale.`, {
      x: 50,
      y: 750 - 16 * line,
      size: 11,
      font,
    });
  return repeatedPagePdf(await source.save(), count);
};

/** Orders what happened (writes starting and ending, a render answering) without a clock. */
let moments = 0;
const moment = () => ++moments;

/** The number of a stored page image's key (`…/page-0007.jpg` is 7). */
const pageOf = (key: string): number => Number(/(?:page|thumb)-(\d+)\.\w+$/.exec(key)?.[1] ?? Number.NaN);

/**
 * V8's full collection, which Node gives a context made while the flag is set; unset again at once, or
 * every later test file in this worker would find a global `gc` (young-collection.test.ts checks none).
 */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
setFlagsFromString('--no-expose-gc');

/**
 * The S3 blob store, noting the moment each write starts and ends and keeping a weak reference to each
 * page's bytes; writes a test holds wait until it releases them.
 */
class WatchedBlobs extends S3BlobStore {
  readonly writes: Array<{ key: string; started: number; ended?: number }> = [];
  /** The bytes written under each key, held weakly: what the renderer still holds stays reachable. */
  readonly bytes = new Map<string, WeakRef<Uint8Array>[]>();
  private held: { holds: (key: string) => boolean; reached: () => void; released: Promise<void> } | null =
    null;

  /** Holds every write of a key `holds` accepts until `release`; `reached` resolves at the first one. */
  hold(holds: (key: string) => boolean): { reached: Promise<void>; release: () => void } {
    const reached = Promise.withResolvers<void>();
    const released = Promise.withResolvers<void>();
    this.held = { holds, reached: reached.resolve, released: released.promise };
    return {
      reached: reached.promise,
      release: () => {
        this.held = null;
        released.resolve();
      },
    };
  }

  override async put(key: string, body: AsyncIterable<Uint8Array>, contentType: string) {
    const write: (typeof this.writes)[number] = { key, started: moment() };
    this.writes.push(write);
    const refs: WeakRef<Uint8Array>[] = [];
    this.bytes.set(key, refs);
    async function* watched() {
      for await (const chunk of body) {
        refs.push(new WeakRef(chunk));
        yield chunk;
      }
    }
    try {
      const held = this.held;
      if (held?.holds(key)) {
        held.reached();
        await held.released;
      }
      return await super.put(key, watched(), contentType);
    } finally {
      write.ended = moment();
    }
  }

  /** The keys under `prefix`, of pages up to `page`, whose bytes are still reachable. */
  reachable(prefix: string, page: number): string[] {
    return [...this.bytes]
      .filter(([key]) => key.startsWith(prefix) && pageOf(key) <= page)
      .filter(([, refs]) => refs.some((ref) => ref.deref() !== undefined))
      .map(([key]) => key);
  }
}

describe('PdfjsRenderer over the S3 blob store (local twin)', () => {
  let directory: string;
  let s3: LocalS3;
  let client: S3Client;
  let blobs: WatchedBlobs;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  /** Every worker thread started during a test (Node publishes each one on this channel). */
  const threads: Worker[] = [];
  const onThread = (message: unknown) => threads.push((message as { worker: Worker }).worker);
  let sequence = 0;

  const store = async (bytes: Uint8Array): Promise<{ pdfKey: string; pdfSize: number }> => {
    const pdfKey = `pdfs/${++sequence}.pdf`;
    const body = async function* () {
      yield bytes;
    };
    return { pdfKey, pdfSize: (await blobs.put(pdfKey, body(), 'application/pdf')).size };
  };

  // A deadline far enough off that only the tests about deadlines ever meet one, on a loaded machine too.
  const request = async (bytes: Uint8Array, deadlineMs = 300_000): Promise<RenderRequest> => {
    const stored = await store(bytes);
    return {
      contractReviewId: `crv_${sequence}`,
      version: 1,
      ...stored,
      outputPrefix: `pages/crv_${sequence}/v1/`,
      deadline: Date.now() + deadlineMs,
    };
  };

  /** The renderers a test made, closed after it: their idle rendering threads end then. */
  const renderers: PdfjsRenderer[] = [];
  const renderer = (options?: PdfjsRendererOptions) => {
    const made = new PdfjsRenderer(blobs, options);
    renderers.push(made);
    return made;
  };
  const render = (req: RenderRequest, options?: PdfjsRendererOptions) => renderer(options).render(req);

  /** Whether each rendering thread started in this test has ended (an ended Worker's threadId is -1). */
  const threadsEnded = () => threads.map((thread) => thread.threadId === -1);

  const failureOf = async (made: PdfjsRenderer, req: RenderRequest): Promise<RenderFailed> => {
    try {
      await made.render(req);
    } catch (error) {
      if (error instanceof RenderFailed) return error;
      throw error;
    }
    throw new Error('rendered, but should have failed');
  };
  const failure = (req: RenderRequest, options?: PdfjsRendererOptions) => failureOf(renderer(options), req);

  /**
   * Renders `bytes` with a deadline 2 s off, the writes of its pages from the third on held until that
   * deadline has passed: the render is under way at its deadline on any machine, and cannot finish
   * before it. Its failure, the pages it stored, and the moment it answered.
   */
  const renderPastDeadline = async (bytes: Uint8Array, options?: PdfjsRendererOptions) => {
    const req = await request(bytes, 2_000);
    const gate = blobs.hold((key) => key.startsWith(req.outputPrefix) && pageOf(key) >= 3);
    let stored = 0;
    const rendering = failure(req, {
      ...options,
      onPage: (done) => {
        stored = done;
      },
    });
    await clockPasses(req.deadline);
    gate.release();
    const error = await rendering;
    return { error, stored, answered: moment(), req };
  };

  const decode = async (key: string): Promise<Decoded> => {
    const bytes = Buffer.from(await blobs.readRange(key, 0, 64 * 1024 * 1024));
    const image = await loadImage(bytes);
    const canvas = createCanvas(image.width, image.height);
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    return {
      head: bytes.subarray(0, 16),
      width: image.width,
      height: image.height,
      pixels: context.getImageData(0, 0, image.width, image.height).data,
    };
  };

  /** The share of dark pixels inside a box given in fractions of the image. */
  const ink = (image: Decoded, box: Pick<TextRun, 'x' | 'y' | 'width' | 'height'>): number => {
    const x0 = Math.floor(box.x * image.width);
    const y0 = Math.floor(box.y * image.height);
    const x1 = Math.ceil((box.x + box.width) * image.width);
    const y1 = Math.ceil((box.y + box.height) * image.height);
    let dark = 0;
    let all = 0;
    for (let y = y0; y < y1; y++)
      for (let x = x0; x < x1; x++) {
        all++;
        if ((image.pixels[(y * image.width + x) * 4] as number) < 128) dark++;
      }
    return all === 0 ? 0 : dark / all;
  };

  /** Root mean square difference of two images of one size, in gray levels from 0 to 1. */
  const grayRmse = (a: Decoded, b: Decoded): number => {
    const gray = (pixels: Uint8ClampedArray, i: number) =>
      (0.299 * (pixels[i] as number) +
        0.587 * (pixels[i + 1] as number) +
        0.114 * (pixels[i + 2] as number)) /
      255;
    let sum = 0;
    for (let i = 0; i < a.pixels.length; i += 4) sum += (gray(a.pixels, i) - gray(b.pixels, i)) ** 2;
    return Math.sqrt(sum / (a.pixels.length / 4));
  };

  const runOf = (contract: RenderedContract, page: number, text: string): TextRun => {
    const run = contract.pages[page - 1]?.text.find((r) => r.text === text);
    if (!run) throw new Error(`no run "${text}" on page ${page}`);
    return run;
  };

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    directory = await mkdtemp(join(tmpdir(), 'render-'));
    s3 = await startLocalS3(join(directory, 'blobs'), 0);
    client = createS3Client({ region: 'us-east-1', endpoint: s3.endpoint });
    await ensureBucket(client, 'blobs');
    blobs = new WatchedBlobs({ client, bucket: 'blobs' });
    diagnostics.subscribe('worker_threads', onThread);
  });

  beforeEach(() => {
    threads.length = 0;
  });

  afterEach(async () => {
    expect(unhandled).toEqual([]);
    // Once its renderer is closed, none of its threads is left, idle or not.
    await Promise.all(renderers.splice(0).map((made) => made.close()));
    expect(threadsEnded()).toEqual(threads.map(() => true));
  });

  afterAll(async () => {
    diagnostics.unsubscribe('worker_threads', onThread);
    process.off('unhandledRejection', onUnhandled);
    client.destroy();
    await s3.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it('renders a text contract: JPEG pages, WebP thumbnails scaled from them, and its words where they are drawn', async () => {
    const req = await request(await contractPdf(3));
    const progress: Array<[number, number]> = [];
    const contract = await render(req, { onPage: (done, total) => progress.push([done, total]) });

    expect(contract).toMatchObject({ contractReviewId: req.contractReviewId, version: 1, pageCount: 3 });
    expect(progress).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    for (const [i, page] of contract.pages.entries()) {
      const name = String(i + 1).padStart(4, '0');
      expect(page).toMatchObject({
        number: i + 1,
        widthPoints: expect.closeTo(595.28, 2),
        heightPoints: expect.closeTo(841.89, 2),
        image: {
          key: `${req.outputPrefix}page-${name}.jpg`,
          contentType: 'image/jpeg',
          width: 1240,
          height: 1754,
        },
        thumbnail: {
          key: `${req.outputPrefix}thumb-${name}.webp`,
          contentType: 'image/webp',
          width: 200,
          height: 283,
        },
      });
      const image = await decode(page.image.key);
      // JPEG's start-of-image marker; WebP's RIFF header for the thumbnail.
      expect([...image.head.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      expect([image.width, image.height]).toEqual([1240, 1754]);
      const thumbnail = await decode(page.thumbnail.key);
      expect(thumbnail.head.subarray(0, 4).toString('latin1')).toBe('RIFF');
      expect(thumbnail.head.subarray(8, 15).toString('latin1')).toBe('WEBPVP8');
      expect([thumbnail.width, thumbnail.height]).toEqual([200, 283]);
      expect(ink(thumbnail, { x: 0.08, y: 0.1, width: 0.8, height: 0.7 })).toBeGreaterThan(0.01);
      expect(pageText(page)).toContain(`Page ${i + 1} of 3`);
    }

    const first = pageText(contract.pages[0] as never);
    for (const words of ['CONTRACT OF SALE OF REAL ESTATE', 'Margaret Ellen Hayes', 'Price: $1,250,000'])
      expect(first).toContain(words);
    expect(pageText(contract.pages[1] as never)).toContain('The Vendor agrees to sell');

    // The title is drawn at (50, 790) pt in Helvetica Bold 16: left edge, baseline and size as fractions.
    const title = runOf(contract, 1, 'CONTRACT OF SALE OF REAL ESTATE');
    expect(title.x).toBeCloseTo(50 / 595.28, 3);
    expect(title.height).toBeCloseTo(16 / 841.89, 3);
    expect(title.y).toBeGreaterThan((841.89 - 790 - 16) / 841.89);
    expect(title.y + title.height).toBeGreaterThan((841.89 - 790) / 841.89);
    expect(title.y + title.height).toBeLessThan((841.89 - 790 + 6) / 841.89);
    expect(title.width).toBeGreaterThan(0.45);
    expect(title.width).toBeLessThan(0.55);
    const footer = runOf(contract, 2, 'Page 2 of 3');
    expect(footer.x).toBeCloseTo(270 / 595.28, 3);
    expect(footer.y).toBeGreaterThan(0.94);

    // And the image has the title's ink inside the run's box, none in the same band's right margin.
    const page1 = await decode(contract.pages[0]?.image.key as string);
    expect(ink(page1, title)).toBeGreaterThan(0.1);
    expect(ink(page1, { ...title, x: 0.9, width: 0.05 })).toBe(0);
    for (const run of contract.pages[0]?.text ?? []) expect(ink(page1, run)).toBeGreaterThan(0.03);
  });

  it('renders a rotated page as it is shown, with its text boxes turned too', async () => {
    const contract = await render(await request(await rotatedPdf()));
    const [page] = contract.pages;
    expect(page).toMatchObject({
      widthPoints: expect.closeTo(841.89, 2),
      heightPoints: expect.closeTo(595.28, 2),
      image: { width: 1754, height: 1240 },
      thumbnail: { width: 200, height: 141 },
    });
    // Turned a quarter clockwise, the title runs down the right-hand side.
    const title = runOf(contract, 1, 'CONTRACT OF SALE OF REAL ESTATE');
    expect(title.x).toBeGreaterThan(0.9);
    expect(title.y).toBeCloseTo(50 / 595.28, 3);
    expect(title.height).toBeGreaterThan(0.45);
    expect(ink(await decode(page?.image.key as string), title)).toBeGreaterThan(0.1);
  });

  it('renders a scanned contract with images and no text', async () => {
    const contract = await render(await request(await scannedPdf(2)));
    expect(contract.pageCount).toBe(2);
    for (const page of contract.pages) {
      expect(page.text).toEqual([]);
      const image = await decode(page.image.key);
      expect([image.width, image.height]).toEqual([1240, 1754]);
      expect(ink(image, { x: 0.1, y: 0.1, width: 0.8, height: 0.8 })).toBeGreaterThan(0.1);
    }
  });

  it("decodes a scan's JPEG pages with Skia and draws them as pdf.js's own decoder does", async () => {
    // 300 dpi: pdf.js asks for each image halved (2480 × 3508 px is over its 2048 a side); 150 dpi: whole.
    for (const dpi of [300, 150]) {
      const req = await request(await scannedPdf(2, dpi));
      // In this thread, so that the decodes are counted here; then in rendering threads, by default.
      const before = skiaJpeg.jpegDecodes;
      const bySkia = await render(req, { threads: 0 });
      expect(skiaJpeg.jpegDecodes).toBe(before + 2);
      const threaded = await render(req);
      // pdf.js alone, in threads of its own (pdf.js keeps a thread's first answer to whether it may).
      const byPdfjs = await render(req, { threads: 1, skiaJpeg: false });
      for (const [i, page] of bySkia.pages.entries()) {
        const reference = await decode(byPdfjs.pages[i]?.image.key as string);
        for (const drawn of [page, threaded.pages[i]]) {
          const image = await decode(drawn?.image.key as string);
          expect([image.width, image.height]).toEqual([reference.width, reference.height]);
          expect(ink(image, { x: 0, y: 0, width: 1, height: 1 })).toBeCloseTo(
            ink(reference, { x: 0, y: 0, width: 1, height: 1 }),
            2,
          );
          // Grayscale root mean square difference, 0 to 1: resampling and JPEG edges, no more.
          expect(grayRmse(image, reference)).toBeLessThan(0.03);
        }
      }
    }
  });

  it.each([
    ['a truncated PDF', () => truncatedPdf(0.5), /damaged or truncated/],
    ['a PDF cut at 90%', () => truncatedPdf(0.9), /damaged or truncated/],
    ['random bytes', () => notAPdf('random'), /damaged or truncated/],
    ['an HTML page', () => notAPdf('html'), /damaged or truncated/],
    ['a PDF with a user password', () => encryptedPdf(), /password/],
    ['a PDF without pages', () => zeroPagePdf(), /no pages/],
    [
      'a PDF none of whose pages can be drawn',
      () => undrawablePdf(2),
      /^No page of the PDF can be drawn or read/,
    ],
  ])('fails %s as processing_error', async (_, make, message) => {
    const error = await failure(await request(await make()));
    expect(error).toMatchObject({ reason: 'processing_error', message: expect.stringMatching(message) });
  });

  it.each([
    ['too large to decode', () => oversizedImagePdf(3, [2])],
    ['that cannot be decoded', () => damagedImagePdf(3, [2])],
  ])(
    'an image %s is left out: its page is drawn without it, with its text, marked image_incomplete',
    async (_, make) => {
      const pdf = await make();
      for (const encoders of [1, 2]) {
        const contract = await render(await request(pdf), { encoders });
        expect(contract.pages.map((page) => page.problems)).toEqual([
          undefined,
          ['image_incomplete'],
          undefined,
        ]);
        const marked = contract.pages[1];
        expect(marked?.problemDetail).toBe('An image on the page cannot be drawn: too large or damaged');
        // The rest of the page is drawn, and its text read.
        expect(
          ink(await decode(marked?.image.key ?? ''), { x: 0, y: 0, width: 1, height: 1 }),
        ).toBeGreaterThan(0);
        expect(pageText(marked ?? { text: [] })).toContain('Page 2 of 3');
      }
    },
  );

  it('a page that needs a canvas over maxCanvasPixels is a blank sheet with image_unavailable and its text; the pages around it render', async () => {
    // An image of 3,000 × 3,000 pixels may be decoded here, but not given the canvas it needs.
    const pdf = await oversizedImagePdf(3, [2], 3000);
    for (const encoders of [1, 2]) {
      const contract = await render(await request(pdf), {
        encoders,
        maxCanvasPixels: 5_000_000,
        maxImagePixels: 100_000_000,
      });
      expect(contract.pages.map((page) => page.problems)).toEqual([
        undefined,
        ['image_unavailable'],
        undefined,
      ]);
      const [first, broken, third] = contract.pages.map((page) => page);
      // The canvas pdf.js asked for to draw the image was refused, not made.
      expect(broken?.problemDetail).toMatch(
        /^The page cannot be drawn: The page needs a canvas of 3000×3000/,
      );
      const sheet = await decode(broken?.image.key ?? '');
      expect([sheet.width, sheet.height]).toEqual([1240, 1754]);
      expect(ink(sheet, { x: 0, y: 0, width: 1, height: 1 })).toBe(0);
      // Its text was still read, and the pages around it are drawn.
      expect(pageText(broken ?? { text: [] })).toContain('Page 2 of 3');
      for (const page of [first, third])
        expect(ink(await decode(page?.image.key ?? ''), { x: 0, y: 0, width: 1, height: 1 })).toBeGreaterThan(
          0,
        );
    }
  });

  it('a page that takes longer than pageTimeLimitMs to draw is cut off as image_unavailable', async () => {
    // A 300 dpi scan spends far more than a millisecond in pdf.js's JPEG decoder before its first slice.
    const error = await failure(await request(await scannedPdf(2)), { pageTimeLimitMs: 1 });
    expect(error).toMatchObject({
      reason: 'processing_error',
      message: expect.stringMatching(
        /^No page of the PDF can be drawn or read: The page cannot be drawn: .*cancel/i,
      ),
    });
  });

  describe('real-world PDFs (../shared/fixtures/real-world-pdfs)', () => {
    const fixture = (name: string) => readFile(join(REAL_WORLD_PDFS, name));

    it('issue16263.pdf, a slide asking for a 151-megapixel soft mask: published without that image, marked, with its text and drawing', async () => {
      const contract = await render(await request(await fixture('issue16263.pdf')));
      expect(contract.pageCount).toBe(1);
      const [slide] = contract.pages;
      // pdf.js would scale the 2×2 image up to its mask's 34,862 × 4,332 pixels; it is left out instead.
      expect(slide).toMatchObject({
        problems: ['image_incomplete'],
        problemDetail: 'An image on the page cannot be drawn: too large or damaged',
      });
      expect(pageText(slide ?? { text: [] }).length).toBeGreaterThan(0);
      expect(ink(await decode(slide?.image.key ?? ''), { x: 0, y: 0, width: 1, height: 1 })).toBeGreaterThan(
        0,
      );
    });

    it('poppler-90-0-fuzzed.pdf, damaged: every page kept, the unreadable ones marked, the rest drawn', async () => {
      const contract = await render(await request(await fixture('poppler-90-0-fuzzed.pdf')));
      expect(contract.pageCount).toBe(16);
      expect(contract.pages.map((page) => page.number)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
      const marked = contract.pages.filter((page) => page.problems !== undefined);
      expect(marked.length).toBeGreaterThan(0);
      for (const page of marked) {
        expect(page.problemDetail).toEqual(expect.any(String));
        if (page.problems?.includes('text_unavailable')) expect(page.text).toEqual([]);
      }
      const whole = contract.pages.filter((page) => page.problems === undefined);
      expect(whole.length).toBeGreaterThan(0);
      expect(whole.some((page) => page.text.length > 0)).toBe(true);
    });
  });

  it('fails processing_error when the PDF cannot be read from the blob store', async () => {
    const req = await request(await contractPdf(1));
    const error = await failure({ ...req, pdfKey: 'pdfs/never-stored.pdf' });
    expect(error.reason).toBe('processing_error');
    expect(error.cause).toBeInstanceOf(BlobNotFoundError);
  });

  describe('a 1,000-page contract', () => {
    let thousand: Uint8Array;
    beforeAll(async () => {
      thousand = await lightPages(1000);
    });

    it('times out when its deadline passes, before the last page', async () => {
      const { error, stored } = await renderPastDeadline(thousand);
      expect(error.reason).toBe('timed_out');
      // How soon after the deadline it answers is a figure of `npm run bench -- render`, not a test.
      expect(stored).toBeLessThan(1000);
    });

    it('times out at once when the deadline has already passed', async () => {
      const req = await request(thousand, -1);
      expect(await failure(req)).toMatchObject({ reason: 'timed_out' });
    });
  });

  // Whether the renderer lets go of each page once stored does not need 1,000 pages to show: the check is
  // exact (no byte of a page 20 or more behind still reachable), so two sizes show the same per-page work
  // (two writes a page, nothing kept) and that nothing grows with the contract's length.
  it('renders every page, releasing each page once it is stored, the same per page at 50 and 150 pages', async () => {
    const rendered: Array<{ pages: number; writes: number; kept: string[]; checks: number }> = [];
    for (const pages of [50, 150]) {
      const req = await request(await lightPages(pages), 600_000);
      // Every 25 pages, after a full collection: the bytes of the pages stored 20 or more pages before
      // are no longer reachable (what the renderer kept of a page would keep them). How much memory a
      // render takes, and its trend over 1,000 pages, are figures of `npm run bench -- render`.
      const kept: string[] = [];
      let checks = 0;
      // Small images keep this test quick; the per-page work of pdf.js is the same.
      const contract = await render(req, {
        dpi: 24,
        thumbnailWidth: 40,
        onPage: (done) => {
          if (done % 25 !== 0) return;
          collectGarbage();
          kept.push(...blobs.reachable(req.outputPrefix, done - 20));
          checks++;
        },
      });
      expect(contract.pageCount).toBe(pages);
      expect(contract.pages.map((page) => page.number)).toEqual(
        Array.from({ length: pages }, (_, i) => i + 1),
      );
      const last = String(pages).padStart(4, '0');
      expect(contract.pages[pages - 1]?.image.key).toBe(`${req.outputPrefix}page-${last}.jpg`);
      expect(pageText(contract.pages[pages - 1] as never)).toContain('CONTRACT OF SALE OF REAL ESTATE');
      const writes = blobs.writes.filter((write) => write.key.startsWith(req.outputPrefix)).length;
      rendered.push({ pages, writes, kept, checks });
    }
    // A page image and a thumbnail a page at both sizes, nothing kept, and a check every 25 pages.
    expect(rendered).toEqual([
      { pages: 50, writes: 100, kept: [], checks: 2 },
      { pages: 150, writes: 300, kept: [], checks: 6 },
    ]);
  }, 900_000);

  // The threads' module is there from the sources, so the tests above render in threads (one per CPU);
  // a bundle without it renders in this thread. Both ways keep the same contract.
  describe.each([
    ['in this thread', 0],
    ['in 2 threads', 2],
  ])('rendering %s', (_, count) => {
    let light: Uint8Array;
    beforeAll(async () => {
      light = await lightPages(300);
    });

    /** The writes under `prefix` that had not ended when the render answered, or started after. */
    const writesAfter = async (prefix: string, answered: number) => {
      // A write the render left behind could only come from a painting thread still alive: once every
      // thread has exited, and the callbacks already queued have run, none can start any more.
      await Promise.all(threads.map((thread) => (thread.threadId === -1 ? undefined : once(thread, 'exit'))));
      await new Promise((resolve) => setImmediate(resolve));
      const ours = blobs.writes.filter((write) => write.key.startsWith(prefix));
      return {
        count: ours.length,
        late: ours.filter((write) => write.started > answered || (write.ended ?? Infinity) > answered),
      };
    };

    it('stores every page in order, with its number and its text', async () => {
      const req = await request(await contractPdf(7));
      const progress: number[] = [];
      const contract = await render(req, { threads: count, onPage: (done) => progress.push(done) });
      expect(threads).toHaveLength(count);
      expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(contract.pageCount).toBe(7);
      for (const [i, page] of contract.pages.entries()) {
        const name = String(i + 1).padStart(4, '0');
        expect(page).toMatchObject({
          number: i + 1,
          image: { key: `${req.outputPrefix}page-${name}.jpg`, width: 1240, height: 1754 },
          thumbnail: { key: `${req.outputPrefix}thumb-${name}.webp`, width: 200, height: 283 },
        });
        expect(pageText(page)).toContain(`Page ${i + 1} of 7`);
      }
      expect((await decode(`${req.outputPrefix}page-0007.jpg`)).width).toBe(1240);
    });

    it('keeps a page drawn without its oversized image, marked, and draws the others', async () => {
      const contract = await render(await request(await oversizedImagePdf(6, [4])), { threads: count });
      expect(contract.pages.map((page) => page.problems?.join() ?? '')).toEqual([
        '',
        '',
        '',
        'image_incomplete',
        '',
        '',
      ]);
      expect(contract.pages[3]?.problemDetail).toMatch(/^An image on the page cannot be drawn/);
    });

    it('stops at the deadline, and writes nothing once it has answered', async () => {
      const { error, stored, answered, req } = await renderPastDeadline(light, { threads: count });
      // A thread stopped mid-render is ended with it, never kept for the next render.
      expect(threadsEnded()).toEqual(threads.map(() => true));
      expect(error.reason).toBe('timed_out');
      expect(stored).toBeLessThan(300);
      const { late } = await writesAfter(req.outputPrefix, answered);
      expect(late).toEqual([]);
    });

    it('stops when the request is aborted, and writes nothing once it has answered', async () => {
      const controller = new AbortController();
      const req = { ...(await request(light, 60_000)), signal: controller.signal };
      let aborted = false;
      const error = await failure(req, {
        threads: count,
        onPage: (done) => {
          if (done === 5) {
            aborted = true;
            controller.abort();
          }
        },
      });
      const answered = moment();
      expect(error.reason).toBe('timed_out');
      expect(aborted).toBe(true);
      const { count: written, late } = await writesAfter(req.outputPrefix, answered);
      expect(written).toBeLessThan(600);
      expect(late).toEqual([]);
    });
  });

  describe('rendering threads kept warm between renders', () => {
    it('a second render takes the threads the first left idle, and reads only its own PDF', async () => {
      const warm = renderer({ threads: 2 });
      const first = await warm.render(await request(await contractPdf(3)));
      expect(threads).toHaveLength(2);
      // Idle, but alive: they wait for the next render.
      expect(threadsEnded()).toEqual([false, false]);
      const second = await warm.render(await request(await lightPages(4)));
      expect(threads).toHaveLength(2);
      expect(first.pages.map((page) => pageText(page).includes('Page 1 of 3'))).toEqual([true, false, false]);
      expect(second.pageCount).toBe(4);
      for (const page of second.pages) {
        expect(pageText(page)).toContain('CONTRACT OF SALE OF REAL ESTATE');
        expect(pageText(page)).not.toContain('of 3');
      }
    });

    it('an idle thread ends after idleThreadMs; idleThreadMs 0 ends them with the render', async () => {
      await renderer({ threads: 2, idleThreadMs: 0 }).render(await request(await contractPdf(2)));
      expect(threadsEnded()).toEqual([true, true]);
      threads.length = 0;
      await renderer({ threads: 2, idleThreadMs: 1 }).render(await request(await contractPdf(2)));
      expect(threads).toHaveLength(2);
      await eventually(
        async () => threadsEnded(),
        (ended) => ended.every(Boolean),
        {
          what: 'the idle threads to end',
        },
      );
    });

    it('a render whose PDF cannot be opened gives its threads back, and the next render uses them', async () => {
      const warm = renderer({ threads: 2 });
      expect((await failureOf(warm, await request(notAPdf()))).reason).toBe('processing_error');
      const contract = await warm.render(await request(await contractPdf(2)));
      expect(threads).toHaveLength(2);
      expect(pageText(contract.pages[1] as never)).toContain('Page 2 of 2');
    });
  });

  it('a second render of the same version overwrites the same keys', async () => {
    const req = await request(await contractPdf(2));
    const objects = () => readdir(join(directory, 'blobs', 'blobs', 'objects'));
    const first = await render(req);
    const before = await objects();
    const second = await render({ ...req, deadline: Date.now() + 20_000 });
    expect(second).toEqual(first);
    expect((await objects()).sort()).toEqual(before.sort());
    expect((await decode(second.pages[1]?.image.key as string)).width).toBe(1240);
  });
});
