// adapters -> renders every page of a stored PDF with pdf.js and @napi-rs/canvas: a viewing image and a
// thumbnail per page (WebP), stored in the blob store, and the page's text positioned as fractions of the
// page box. Pages are read over blob range reads and rendered one at a time; the only thing that runs
// beside a page's rendering is the encoding and storing of the page before it (on libuv's threads).
import { availableParallelism } from 'node:os';
import { type Canvas, createCanvas } from '@napi-rs/canvas';
import type { PageViewport, PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { Util } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { BlobStore } from '../../core/ports';
import {
  type ContractRenderer,
  type PageImage,
  type RenderedContract,
  type RenderedPage,
  RenderFailed,
  type RenderRequest,
  type TextRun,
} from '../../core/rendered-contract';
import { installedPdfjsAssets, openStoredPdf, type PdfjsAssets, reasonFor } from './pdfjs-document';

export interface PdfjsRendererOptions {
  assets?: PdfjsAssets;
  /** Bytes per range read; adjacent missing chunks are read together. Default 256 KiB. */
  rangeChunkSize?: number;
  /** Resolution of the viewing image. Default 150 dpi: an A4 page is 1240 px wide. */
  dpi?: number;
  /**
   * Most pixels in a viewing image (a larger page is rendered at a lower resolution). Default 4.5 M:
   * an A3 page at 150 dpi, 18 MB of canvas.
   */
  maxPixels?: number;
  /** Longest side of a viewing image in pixels (WebP allows 16383). Default 8192. */
  maxSide?: number;
  /** Thumbnail width in pixels; its height is at most four times this. Default 200. */
  thumbnailWidth?: number;
  /** Image format; PNG is also the fallback when WebP encoding fails. Default `webp`. */
  format?: 'webp' | 'png';
  /** WebP quality, 0 to 100. Default 80. */
  quality?: number;
  /**
   * Pages being encoded and stored while the next page renders, each holding its own canvas. Default:
   * 2, or 1 on a single CPU. Encoding (about 0.1 s an A4 page in WebP) costs more than rendering.
   */
  encoders?: number;
  /** Called after each page is stored: `done` of `total` pages. Its errors are ignored. */
  onPage?: (done: number, total: number, request: RenderRequest) => void;
}

/** Worker-side caches (fonts, parsed page objects) are dropped every this many pages, so memory stays flat. */
const CLEANUP_EVERY_PAGES = 50;
/** setTimeout's longest delay. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A fraction rounded to 5 digits: 0.02 px on a 1240 px image, and a smaller manifest. */
const fraction = (value: number) => Math.round(value * 1e5) / 1e5;

/** Canvas size and scale for a page box (points) at `dpi`, shrunk to `maxPixels` and `maxSide`. */
const imageSize = (
  widthPoints: number,
  heightPoints: number,
  dpi: number,
  maxPixels: number,
  maxSide: number,
) => {
  let scale = dpi / 72;
  scale = Math.min(
    scale,
    Math.sqrt(maxPixels / (widthPoints * heightPoints)),
    maxSide / widthPoints,
    maxSide / heightPoints,
  );
  return {
    scale,
    width: Math.max(1, Math.round(widthPoints * scale)),
    height: Math.max(1, Math.round(heightPoints * scale)),
  };
};

type TextContent = Awaited<ReturnType<PDFPageProxy['getTextContent']>>;

/**
 * The page's text runs, in pdf.js's order, as axis-aligned boxes in fractions of the page box (top-left
 * origin). A run's box spans the font size from its ascent above the baseline, like pdf.js's text layer;
 * rotated text (or a rotated page) gets the box around the rotated run. Blank runs are left out.
 */
export const textRuns = (content: TextContent, viewport: PageViewport): TextRun[] => {
  const runs: TextRun[] = [];
  for (const item of content.items) {
    if (!('str' in item) || item.str.trim() === '') continue;
    // Text space to viewport space (top-left origin, page rotation applied).
    const [a, b, c, d, e, f] = Util.transform(viewport.transform, item.transform) as number[] as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const fontHeight = Math.hypot(c, d);
    if (fontHeight === 0) continue;
    const style = content.styles[item.fontName];
    const ascent = style?.ascent ? style.ascent : style?.descent ? 1 + style.descent : 1;
    // Unit vectors towards the top of the glyphs and along the text (downwards for vertical writing).
    const ux = c / fontHeight;
    const uy = d / fontHeight;
    const advance = Math.hypot(a, b);
    const [ax, ay] = style?.vertical ? [-ux, -uy] : advance === 0 ? [-uy, ux] : [a / advance, b / advance];
    const length = (style?.vertical ? item.height : item.width) * viewport.scale;
    // Corners: baseline start moved up by the ascent (top) and down by the rest (bottom), then along.
    const topX = e + ux * fontHeight * ascent;
    const topY = f + uy * fontHeight * ascent;
    const bottomX = e - ux * fontHeight * (1 - ascent);
    const bottomY = f - uy * fontHeight * (1 - ascent);
    const xs = [topX, bottomX, topX + ax * length, bottomX + ax * length];
    const ys = [topY, bottomY, topY + ay * length, bottomY + ay * length];
    const left = Math.min(...xs);
    const top = Math.min(...ys);
    runs.push({
      text: item.str,
      x: fraction(left / viewport.width),
      y: fraction(top / viewport.height),
      width: fraction((Math.max(...xs) - left) / viewport.width),
      height: fraction((Math.max(...ys) - top) / viewport.height),
    });
  }
  return runs;
};

/** A canvas for a page and one for its thumbnail, reused page after page; busy while its page is stored. */
interface Slot {
  page: Canvas;
  thumbnail: Canvas;
  busy: Promise<void>;
}

/** A page rendered and waiting to be encoded and stored. */
interface Rendered {
  number: number;
  widthPoints: number;
  heightPoints: number;
  text: TextRun[];
}

/** Thrown inside a render once the deadline has passed; becomes `RenderFailed('timed_out')`. */
class DeadlinePassed extends Error {}

/** What went wrong while storing a page, kept so that the render stops and reports it. */
class StoreFailed extends Error {}

export class PdfjsRenderer implements ContractRenderer {
  private readonly assets: PdfjsAssets;
  private readonly rangeChunkSize: number;
  private readonly dpi: number;
  private readonly maxPixels: number;
  private readonly maxSide: number;
  private readonly thumbnailWidth: number;
  private readonly format: 'webp' | 'png';
  private readonly quality: number;
  private readonly encoders: number;
  private readonly onPage: PdfjsRendererOptions['onPage'];

  constructor(
    private readonly blobs: BlobStore,
    {
      assets = installedPdfjsAssets(),
      rangeChunkSize = 256 * 1024,
      dpi = 150,
      maxPixels = 4.5 * 1000 * 1000,
      maxSide = 8192,
      thumbnailWidth = 200,
      format = 'webp',
      quality = 80,
      encoders = availableParallelism() > 1 ? 2 : 1,
      onPage,
    }: PdfjsRendererOptions = {},
  ) {
    if (!(dpi > 0 && maxPixels >= 1 && maxSide >= 1 && thumbnailWidth >= 1))
      throw new Error('dpi, maxPixels, maxSide and thumbnailWidth must be positive');
    if (!Number.isInteger(encoders) || encoders < 1) throw new Error('encoders must be at least 1');
    this.assets = assets;
    this.rangeChunkSize = rangeChunkSize;
    this.dpi = dpi;
    this.maxPixels = maxPixels;
    this.maxSide = Math.min(maxSide, 16383);
    this.thumbnailWidth = thumbnailWidth;
    this.format = format;
    this.quality = quality;
    this.encoders = encoders;
    this.onPage = onPage;
  }

  /**
   * Renders every page, or throws `RenderFailed`: `timed_out` once `request.deadline` has passed (checked
   * before each page and while a page renders), `processing_error` for anything else. One page that
   * cannot be loaded, rendered or stored fails the whole version, with its number in the message: a
   * contract with a missing page must not be published as if it were whole. (pdf.js itself skips what it
   * can inside a page, such as an unknown operator or an undecodable image, as viewers do.) Images of
   * pages done before a failure stay stored; a retry overwrites the same keys.
   */
  async render(request: RenderRequest): Promise<RenderedContract> {
    if (Date.now() > request.deadline)
      throw new RenderFailed('timed_out', 'The deadline passed before rendering.');
    const { task, transport } = openStoredPdf(this.blobs, request.pdfKey, request.pdfSize, {
      assets: this.assets,
      rangeChunkSize: this.rangeChunkSize,
    });
    const run = new Run(request, () => transport.stop());
    const slots: Slot[] = [];
    try {
      let document: PDFDocumentProxy;
      try {
        document = await task.promise;
      } catch (error) {
        throw run.expired
          ? new DeadlinePassed()
          : new RenderFailed('processing_error', reasonFor(error), { cause: error });
      }
      const total = document.numPages;
      if (total < 1) throw new RenderFailed('processing_error', 'The PDF has no pages.');
      const pages: RenderedPage[] = [];
      let done = 0;
      for (let number = 1; number <= total; number++) {
        run.check();
        if (number > 1 && (number - 1) % CLEANUP_EVERY_PAGES === 0) await document.cleanup();
        const slot = await this.freeSlot(slots, number);
        run.check();
        const rendered = await this.renderPage(document, number, total, slot, run);
        slot.busy = this.store(request, rendered, slot).then((page) => {
          pages[page.number - 1] = page;
          done++;
          try {
            this.onPage?.(done, total, request);
          } catch {
            // Progress is for show: it never fails a render.
          }
        });
        // Kept in `slot.busy` and awaited before the next use of the slot or the end of the render;
        // the catch only stops an early failure from being reported as unhandled meanwhile.
        slot.busy.catch(() => {});
      }
      await Promise.all(slots.map((slot) => slot.busy));
      return {
        contractReviewId: request.contractReviewId,
        version: request.version,
        pageCount: total,
        pages,
      };
    } catch (error) {
      // Pages being stored finish first, so that nothing is written after the render has answered.
      await Promise.allSettled(slots.map((slot) => slot.busy));
      throw this.failure(error, run, transport.error);
    } finally {
      run.end();
      await task.destroy();
      // Skia's pixel memory goes now, not when the garbage collector gets to the canvases.
      for (const slot of slots) {
        slot.page.width = slot.page.height = 0;
        slot.thumbnail.width = slot.thumbnail.height = 0;
      }
    }
  }

  /** A slot whose previous page is stored: a new one while fewer than `encoders` exist. */
  private async freeSlot(slots: Slot[], number: number): Promise<Slot> {
    if (slots.length < this.encoders) {
      const slot: Slot = { page: createCanvas(1, 1), thumbnail: createCanvas(1, 1), busy: Promise.resolve() };
      slots.push(slot);
      return slot;
    }
    const slot = slots[(number - 1) % slots.length] as Slot;
    await slot.busy;
    return slot;
  }

  /** Renders page `number` into the slot's canvases and reads its text; frees pdf.js's page after. */
  private async renderPage(
    document: PDFDocumentProxy,
    number: number,
    total: number,
    slot: Slot,
    run: Run,
  ): Promise<Rendered> {
    let page: PDFPageProxy;
    try {
      page = await document.getPage(number);
    } catch (error) {
      throw run.pageFailure(error, `Page ${number} of ${total} cannot be read`);
    }
    try {
      const box = page.getViewport({ scale: 1 });
      const size = imageSize(box.width, box.height, this.dpi, this.maxPixels, this.maxSide);
      const viewport = page.getViewport({ scale: size.scale });
      if (slot.page.width !== size.width || slot.page.height !== size.height) {
        slot.page.width = size.width;
        slot.page.height = size.height;
      }
      const rendering = page.render({ canvas: slot.page as unknown as HTMLCanvasElement, viewport });
      // pdf.js renders in slices; between two, give up once the deadline has passed. (A timer could not
      // fire meanwhile: the slices follow one another as microtasks.)
      rendering.onContinue = (next: () => void) => (Date.now() > run.deadline ? rendering.cancel() : next());
      run.rendering = rendering;
      try {
        await rendering.promise;
      } catch (error) {
        throw run.pageFailure(error, `Page ${number} of ${total} cannot be rendered`);
      } finally {
        run.rendering = null;
      }
      let text: TextRun[];
      try {
        text = textRuns(await page.getTextContent(), box);
      } catch (error) {
        throw run.pageFailure(error, `The text of page ${number} of ${total} cannot be read`);
      }
      // Scaled down from the viewing image (cheaper than a second rendering), at most 4 widths tall.
      const thumbnailScale = Math.min(
        this.thumbnailWidth / size.width,
        (4 * this.thumbnailWidth) / size.height,
      );
      const thumbnailWidth = Math.max(1, Math.round(size.width * thumbnailScale));
      const thumbnailHeight = Math.max(1, Math.round(size.height * thumbnailScale));
      if (slot.thumbnail.width !== thumbnailWidth || slot.thumbnail.height !== thumbnailHeight) {
        slot.thumbnail.width = thumbnailWidth;
        slot.thumbnail.height = thumbnailHeight;
      }
      const context = slot.thumbnail.getContext('2d');
      context.imageSmoothingEnabled = true;
      context.imageSmoothingQuality = 'high';
      context.drawImage(slot.page, 0, 0, thumbnailWidth, thumbnailHeight);
      return { number, widthPoints: box.width, heightPoints: box.height, text };
    } finally {
      page.cleanup();
    }
  }

  /** Encodes the slot's images and stores them under the page's deterministic keys. */
  private async store(request: RenderRequest, rendered: Rendered, slot: Slot): Promise<RenderedPage> {
    const name = String(rendered.number).padStart(4, '0');
    try {
      const [image, thumbnail] = await Promise.all([
        this.storeImage(`${request.outputPrefix}page-${name}`, slot.page),
        this.storeImage(`${request.outputPrefix}thumb-${name}`, slot.thumbnail),
      ]);
      return { ...rendered, image, thumbnail };
    } catch (error) {
      throw new StoreFailed(`Page ${rendered.number} cannot be stored`, { cause: error });
    }
  }

  private async storeImage(key: string, canvas: Canvas): Promise<PageImage> {
    let bytes: Buffer;
    let format = this.format;
    try {
      bytes = format === 'webp' ? await canvas.encode('webp', this.quality) : await canvas.encode('png');
    } catch (error) {
      if (format === 'png') throw error;
      format = 'png';
      bytes = await canvas.encode('png');
    }
    const contentType = format === 'webp' ? 'image/webp' : 'image/png';
    await this.blobs.put(`${key}.${format}`, once(bytes), contentType);
    return { key: `${key}.${format}`, contentType, width: canvas.width, height: canvas.height };
  }

  /** Any error of a render as the `RenderFailed` the caller records. */
  private failure(error: unknown, run: Run, readError: unknown): RenderFailed {
    if (run.expired || error instanceof DeadlinePassed)
      return new RenderFailed('timed_out', 'Rendering did not finish before the deadline.', { cause: error });
    if (readError !== null)
      return new RenderFailed('processing_error', 'The PDF could not be read from the blob store.', {
        cause: readError,
      });
    if (error instanceof RenderFailed) return error;
    if (error instanceof StoreFailed)
      return new RenderFailed('processing_error', error.message, { cause: error.cause });
    return new RenderFailed('processing_error', `Rendering failed: ${(error as Error)?.message ?? error}`, {
      cause: error,
    });
  }
}

/**
 * The deadline of one render. When it passes, a timer stops the blob reads (pdf.js is answered with zeros
 * and finishes on its own) and cancels the page being rendered; `check()` throws from then on.
 */
class Run {
  readonly deadline: number;
  rendering: ReturnType<PDFPageProxy['render']> | null = null;
  private timedOut = false;
  private readonly timer: NodeJS.Timeout;

  constructor(request: RenderRequest, stopReads: () => void) {
    this.deadline = request.deadline;
    const expire = () => {
      this.timedOut = true;
      stopReads();
      this.rendering?.cancel();
    };
    this.timer = setTimeout(expire, Math.min(MAX_TIMER_MS, Math.max(0, request.deadline - Date.now() + 1)));
    this.timer.unref();
    // A host that stops ends the render as a deadline would; the caller knows it was a stop, not a time-out.
    if (request.signal?.aborted) expire();
    request.signal?.addEventListener('abort', expire, { once: true });
  }

  get expired(): boolean {
    return this.timedOut || Date.now() > this.deadline;
  }

  check(): void {
    if (this.expired) throw new DeadlinePassed();
  }

  /** A page's failure, unless the deadline caused it. */
  pageFailure(error: unknown, what: string): Error {
    if (this.expired) return new DeadlinePassed();
    return new RenderFailed('processing_error', `${what}: ${(error as Error)?.message ?? String(error)}`, {
      cause: error,
    });
  }

  end(): void {
    clearTimeout(this.timer);
  }
}

/** One buffer as the body `BlobStore.put` takes. */
async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}
