// adapters -> the pages of one stored PDF, painted on request: a `PageSource`. `InlinePages` opens the
// document with pdf.js in this thread; a rendering thread (pdfjs-render-thread.ts) runs one in its own.
import type { PDFDocumentProxy, RenderTask } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { RenderFailed } from '../../core/rendered-contract';
import { boundedCanvasFactory } from './pdfjs-canvas-factory';
import { openStoredPdf, type PdfjsAssets, type RangeSource, reasonFor } from './pdfjs-document';
import { PagePainter, type PaintedPage, type PaintOptions } from './pdfjs-page';

/** What opening and painting the pages takes: plain data, so that it can be handed to a thread. */
export interface PagesInit extends PaintOptions {
  /** Bytes of the PDF. */
  length: number;
  assets: PdfjsAssets;
  /** Bytes per range read; adjacent missing chunks are read together. */
  rangeChunkSize: number;
  /** Epoch milliseconds after which a page being rendered is cancelled. */
  deadline: number;
  /** The most pixels of a canvas pdf.js makes for itself while it draws; a page needing more is a placeholder. */
  maxCanvasPixels: number;
  /** The most pixels of an image pdf.js decodes, masks counted; a larger one is left out (`image_incomplete`). */
  maxImagePixels: number;
  /** JPEG images decoded by Skia rather than by pdf.js's JavaScript decoder (skia-jpeg-decoder.ts). */
  skiaJpeg: boolean;
}

/** The pages of one PDF; `paint` may be called again before an earlier call has settled. */
export interface PageSource {
  /** The page count once the document is open; rejects with `RenderFailed` when it cannot be opened. */
  readonly opened: Promise<number>;
  /** Page `number` (1-based) painted and encoded; rejects with `PageFailed` when the page is bad. */
  paint(number: number): Promise<PaintedPage>;
  /** Stops the work under way at once (a deadline passed): pending and later paints reject. */
  stop(): void;
  /** Frees everything; only once no paint is pending. */
  close(): Promise<void>;
}

/** Worker-side caches (fonts, parsed page objects) are dropped every this many pages, so memory stays flat. */
const CLEANUP_EVERY_PAGES = 50;

/**
 * The pages of a PDF opened in this thread. pdf.js draws one page at a time; each page being painted
 * has its own `PagePainter`, so that a page encodes (on libuv's threads) while the next one draws.
 */
export class InlinePages implements PageSource {
  readonly opened: Promise<number>;
  private readonly opening: ReturnType<typeof openStoredPdf>;
  private readonly free: PagePainter[] = [];
  private readonly painters: PagePainter[] = [];
  /** The page being rendered, to cancel. */
  private rendering: RenderTask | null = null;
  /** The draw last queued: each draw waits for the one before. */
  private drawing: Promise<unknown> = Promise.resolve();
  private drawn = 0;
  private stopped = false;

  constructor(
    ranges: RangeSource,
    private readonly init: PagesInit,
  ) {
    this.opening = openStoredPdf(ranges, init.length, {
      ...init,
      CanvasFactory: boundedCanvasFactory(init.maxCanvasPixels),
      maxImagePixels: init.maxImagePixels,
    });
    this.opened = this.opening.task.promise.then(
      (document) => document.numPages,
      (error: unknown) => {
        throw new RenderFailed('processing_error', reasonFor(error), { cause: error });
      },
    );
    // Its callers handle a failure; this only keeps one nobody asked for from being reported as unhandled.
    this.opened.catch(() => {});
  }

  async paint(number: number): Promise<PaintedPage> {
    await this.opened;
    const document = await this.opening.task.promise;
    const painter = this.free.pop() ?? this.newPainter();
    try {
      const drawn = await this.serially(() => this.draw(document, painter, number));
      return await painter.encode(drawn);
    } finally {
      this.free.push(painter);
    }
  }

  stop(): void {
    this.stopped = true;
    this.opening.transport.stop();
    this.rendering?.cancel();
  }

  async close(): Promise<void> {
    await this.opening.task.destroy();
    this.opening.worker?.destroy();
    for (const painter of this.painters) painter.release();
  }

  private newPainter(): PagePainter {
    const painter = new PagePainter(this.init);
    this.painters.push(painter);
    return painter;
  }

  private serially<T>(step: () => Promise<T>): Promise<T> {
    const result = this.drawing.then(step);
    this.drawing = result.catch(() => {});
    return result;
  }

  private async draw(document: PDFDocumentProxy, painter: PagePainter, number: number) {
    if (this.stopped) throw new Error('Rendering was stopped.');
    if (this.drawn > 0 && this.drawn % CLEANUP_EVERY_PAGES === 0) await document.cleanup();
    this.drawn++;
    const pageDeadline = Date.now() + this.init.pageTimeLimitMs;
    return painter.draw(document, number, {
      track: (rendering) => {
        this.rendering = rendering;
        // pdf.js renders in slices; between two, give up once the page's time or the render's deadline
        // has passed. (A timer could not fire meanwhile: the slices follow one another as microtasks.)
        if (rendering)
          rendering.onContinue = (next: () => void) =>
            Date.now() > Math.min(pageDeadline, this.init.deadline) ? rendering.cancel() : next();
      },
      ended: () => this.stopped || Date.now() > this.init.deadline,
    });
  }
}
