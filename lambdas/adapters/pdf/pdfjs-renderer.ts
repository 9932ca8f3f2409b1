// adapters -> renders every page of a stored PDF with pdf.js and @napi-rs/canvas: a viewing image (JPEG)
// and a thumbnail (WebP) per page, stored in the blob store, and the page's text positioned as fractions of the
// page box. Pages are read over blob range reads. By default they are painted by rendering threads, each
// with its own pdf.js document, taking page numbers in order from one queue; this thread only serves
// their range reads and stores the pages. (One thread draws one page at a time: a 300 dpi scan spends
// about 0.35 s of CPU in pdf.js's JPEG decoder and 0.2 s drawing, per page.)
import { availableParallelism } from 'node:os';
import { bytesOnce } from '../../core/blobs';
import { log } from '../../core/log';
import type { BlobStore } from '../../core/ports';
import {
  type ContractRenderer,
  type PageImage,
  type PageProblem,
  type RenderedContract,
  type RenderedPage,
  RenderFailed,
  type RenderRequest,
} from '../../core/rendered-contract';
import { BlobRanges, installedPdfjsAssets, type PdfjsAssets } from './pdfjs-document';
import { type EncodedImage, type ImageFormat, PageFailed, type PaintedPage } from './pdfjs-page';
import { InlinePages, type PageSource, type PagesInit } from './pdfjs-pages';
import { RenderThreads, renderThreadsAvailable, ThreadPages } from './pdfjs-render-thread';

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
  /** Longest side of a viewing image in pixels (WebP allows 16383, JPEG 65535). Default 8192. */
  maxSide?: number;
  /** Thumbnail width in pixels; its height is at most four times this. Default 200. */
  thumbnailWidth?: number;
  /**
   * Longest one page may take to draw before it is shown as a placeholder and the next page is taken.
   * Default 30 s (a dense A3 plan takes a few seconds).
   */
  pageTimeLimitMs?: number;
  /**
   * Most pixels of a canvas pdf.js makes for itself while drawing a page (an image at its own size, a
   * soft mask); a page needing more is shown as a placeholder. Default 40 M: 160 MB, a 600 dpi A4 scan.
   */
  maxCanvasPixels?: number;
  /**
   * Most pixels an image in a page is decoded to, its masks counted (pdf.js scales an image up to its
   * mask's size); a larger image is left out of the page, which is marked `image_incomplete`. Default
   * 40 M: decoding holds 4 bytes a pixel, so no image can take more than about 160 MB.
   */
  maxImagePixels?: number;
  /**
   * The viewing image's format; PNG is also the fallback when a lossy encoding fails. Default `jpeg`:
   * Skia encodes an A4 page at 150 dpi as JPEG in a sixth of the CPU its WebP takes, for some 1.7 times
   * the bytes (README, "Where a publication's time goes").
   */
  format?: ImageFormat;
  /** The thumbnail's format. Default `webp`: a thumbnail is small to encode, and all are shown at once. */
  thumbnailFormat?: ImageFormat;
  /** JPEG and WebP quality, 0 to 100. Default 80. */
  quality?: number;
  /**
   * JPEG images in a PDF (a scan's pages) decoded by Skia's native decoder rather than pdf.js's
   * JavaScript one, which took most of a scanned page's time. Default true; false draws them as pdf.js
   * alone does (the test that compares the two), in rendering threads: pdf.js keeps a thread's first
   * answer, so in this thread the first render decides for the others.
   */
  skiaJpeg?: boolean;
  /**
   * Rendering threads; 0 renders in this thread. Default: one per CPU, at most 4, where the threads'
   * module is there to load (from the sources; a bundle only if it ships `pdfjs-render-worker.mjs`
   * beside itself), else 0. Each thread holds its own pdf.js document and canvases.
   */
  threads?: number;
  /**
   * Pages in progress per thread, each holding its own canvases: pdf.js draws one while the others are
   * encoded (on libuv's threads) and stored. Default: 2, or 1 on a single CPU.
   */
  encoders?: number;
  /**
   * How long a rendering thread waits, idle, for the next render before it ends; 0 ends each render's
   * threads with it. Default 60 s: a warm thread saves the next render some 0.4 s of CPU per thread
   * (loading pdf.js and Skia), and holds no contract's data while it waits. `close()` ends them at once.
   */
  idleThreadMs?: number;
  /** Called after each page is stored: `done` of `total` pages. Its errors are ignored. */
  onPage?: (done: number, total: number, request: RenderRequest) => void;
}

/**
 * Rendering threads by default: one per CPU (the render function's 1.7 vCPUs count as 2), at most 4,
 * where their module is there to load; else none.
 */
export const defaultThreads = (): number =>
  renderThreadsAvailable() ? Math.min(availableParallelism(), 4) : 0;

/** The extension and type an image of each format is stored with. */
const STORED_AS: Record<ImageFormat, { extension: string; contentType: PageImage['contentType'] }> = {
  jpeg: { extension: 'jpg', contentType: 'image/jpeg' },
  webp: { extension: 'webp', contentType: 'image/webp' },
  png: { extension: 'png', contentType: 'image/png' },
};

/** setTimeout's longest delay. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A page whose drawing is missing in whole or in part. */
const isImageProblem = (problem: PageProblem) =>
  problem === 'image_unavailable' || problem === 'image_incomplete';

/** Thrown inside a render once the deadline has passed; becomes `RenderFailed('timed_out')`. */
class DeadlinePassed extends Error {}

/** What went wrong while storing a page, kept so that the render stops and reports it. */
class StoreFailed extends Error {}

export class PdfjsRenderer implements ContractRenderer {
  private readonly paint: Omit<PagesInit, 'length' | 'deadline'>;
  private readonly threads: number;
  private readonly encoders: number;
  private readonly pool: RenderThreads;
  private readonly onPage: PdfjsRendererOptions['onPage'];

  constructor(
    private readonly blobs: Pick<BlobStore, 'readRange' | 'put'>,
    {
      assets = installedPdfjsAssets(),
      rangeChunkSize = 256 * 1024,
      dpi = 150,
      maxPixels = 4.5 * 1000 * 1000,
      maxSide = 8192,
      thumbnailWidth = 200,
      pageTimeLimitMs = 30_000,
      maxCanvasPixels = 40 * 1000 * 1000,
      maxImagePixels = 40 * 1000 * 1000,
      format = 'jpeg',
      thumbnailFormat = 'webp',
      quality = 80,
      skiaJpeg = true,
      threads = defaultThreads(),
      encoders = availableParallelism() > 1 ? 2 : 1,
      idleThreadMs = 60_000,
      onPage,
    }: PdfjsRendererOptions = {},
  ) {
    if (!(dpi > 0 && maxPixels >= 1 && maxSide >= 1 && thumbnailWidth >= 1 && pageTimeLimitMs > 0))
      throw new Error('dpi, maxPixels, maxSide, thumbnailWidth and pageTimeLimitMs must be positive');
    if (!(maxCanvasPixels >= maxPixels)) throw new Error('maxCanvasPixels must be at least maxPixels');
    if (!(maxImagePixels >= 1)) throw new Error('maxImagePixels must be positive');
    if (!Number.isInteger(encoders) || encoders < 1) throw new Error('encoders must be at least 1');
    if (!Number.isInteger(threads) || threads < 0) throw new Error('threads must be 0 or more');
    if (!(idleThreadMs >= 0)) throw new Error('idleThreadMs must be 0 or more');
    this.paint = {
      assets,
      rangeChunkSize,
      dpi,
      maxPixels,
      maxSide: Math.min(maxSide, 16383),
      thumbnailWidth,
      pageTimeLimitMs,
      maxCanvasPixels,
      maxImagePixels,
      format,
      thumbnailFormat,
      quality,
      skiaJpeg,
    };
    this.threads = threads;
    this.encoders = encoders;
    this.pool = new RenderThreads(idleThreadMs);
    this.onPage = onPage;
  }

  /**
   * Renders every page, or throws `RenderFailed`: `timed_out` once `request.deadline` has passed (checked
   * before each page and while a page renders) or `request.signal` has aborted, `processing_error` when
   * the file cannot be opened, has no pages, has nothing to show (no page drawn whole, no text read), or
   * a page cannot be encoded or stored. One bad page does not sink the others: a page that cannot be
   * opened, or drawn within `pageTimeLimitMs` and `maxCanvasPixels`, is kept as a placeholder with
   * `image_unavailable`; one drawn without an image that is undecodable or over `maxImagePixels` is
   * kept with `image_incomplete`; one whose text cannot be read is kept without text with
   * `text_unavailable` (pdf.js itself also skips what it can inside a page, such as an unknown
   * operator, as viewers do). Images of pages done before a failure stay stored; a retry overwrites the
   * same keys. Nothing is written, and no rendering thread is at work, once this has settled: a thread
   * stopped by the deadline is ended, one that finished has destroyed its document and waits, idle, for
   * the next render (`idleThreadMs`).
   */
  async render(request: RenderRequest): Promise<RenderedContract> {
    if (Date.now() > request.deadline)
      throw new RenderFailed('timed_out', 'The deadline passed before rendering.');
    log.debug('render started', { id: request.contractReviewId, threads: this.threads });
    const ranges = new BlobRanges(this.blobs, request.pdfKey, request.pdfSize);
    const init: PagesInit = { ...this.paint, length: request.pdfSize, deadline: request.deadline };
    const sources: PageSource[] =
      this.threads > 0
        ? Array.from({ length: this.threads }, () => new ThreadPages(ranges, init, this.pool))
        : [new InlinePages(ranges, init)];
    const finished = Promise.withResolvers<void>();
    const run = new Run(request, () => {
      for (const source of sources) source.stop();
      finished.reject(new DeadlinePassed());
    });
    const state = new RenderState();
    const lanes = sources.flatMap((source) =>
      Array.from({ length: this.encoders }, () =>
        this.lane(request, source, state, run, finished.resolve).catch(finished.reject),
      ),
    );
    try {
      await finished.promise;
      // Nothing to show: no page drawn whole and no text read. A placeholder with its text is still a page.
      if (state.pages.every((page) => page.problems?.some(isImageProblem) && page.text.length === 0))
        throw new RenderFailed(
          'processing_error',
          `No page of the PDF can be drawn or read: ${state.pages[0]?.problemDetail ?? 'no pages'}`,
        );
      return {
        contractReviewId: request.contractReviewId,
        version: request.version,
        pageCount: state.total,
        pages: state.pages,
      };
    } catch (error) {
      throw this.failure(error, run, ranges.error);
    } finally {
      // No page is taken from now on. Pages being painted (unless a deadline stopped them) and stored
      // finish first, so that the pages done stay stored and nothing is written after the render has
      // answered; then each source closes its document (a thread goes back to the pool) or, past the
      // deadline, is ended.
      state.stop();
      await Promise.allSettled(lanes);
      if (run.expired) for (const source of sources) source.stop();
      await Promise.allSettled(state.writes);
      run.end();
      await Promise.all(sources.map((source) => source.close()));
    }
  }

  /** Ends the rendering threads waiting for a render; those of renders under way end with them. */
  async close(): Promise<void> {
    await this.pool.close();
  }

  /**
   * Takes page numbers in order and stores each page painted: it paints the next page while the one
   * before is stored. Calls `finished` when the last page of the render is stored.
   */
  private async lane(
    request: RenderRequest,
    source: PageSource,
    state: RenderState,
    run: Run,
    finished: () => void,
  ): Promise<void> {
    // A thread still starting when the render ends is not waited for.
    const total = await Promise.race([source.opened, state.stopped]);
    if (total === undefined) return;
    if (total < 1) throw new RenderFailed('processing_error', 'The PDF has no pages.');
    if (state.total === 0) log.debug('render opened the PDF', { id: request.contractReviewId, pages: total });
    state.total = total;
    let storing: Promise<void> = Promise.resolve();
    for (let number = state.take(); number <= total; number = state.take()) {
      run.check();
      const painted = await source.paint(number);
      log.debug('page painted', { id: request.contractReviewId, page: number });
      await storing;
      storing = this.store(request, painted).then((page) => {
        state.pages[page.number - 1] = page;
        state.done++;
        log.debug('page stored', { id: request.contractReviewId, page: page.number });
        try {
          this.onPage?.(state.done, total, request);
        } catch {
          // Progress is for show: it never fails a render.
        }
        if (state.done === total) finished();
      });
      const write = storing;
      state.writes.add(write);
      // Awaited before the lane's next store or at its end; the catch only stops an early failure
      // from being reported as unhandled meanwhile.
      write.catch(() => {}).finally(() => state.writes.delete(write));
    }
    await storing;
  }

  /** Stores a painted page's images under its deterministic keys. */
  private async store(request: RenderRequest, painted: PaintedPage): Promise<RenderedPage> {
    const { image, thumbnail, ...page } = painted;
    const name = String(painted.number).padStart(4, '0');
    try {
      const [storedImage, storedThumbnail] = await Promise.all([
        this.storeImage(`${request.outputPrefix}page-${name}`, image),
        this.storeImage(`${request.outputPrefix}thumb-${name}`, thumbnail),
      ]);
      return { ...page, image: storedImage, thumbnail: storedThumbnail };
    } catch (error) {
      throw new StoreFailed(`Page ${painted.number} cannot be stored`, { cause: error });
    }
  }

  private async storeImage(name: string, { bytes, format, width, height }: EncodedImage): Promise<PageImage> {
    const { extension, contentType } = STORED_AS[format];
    const key = `${name}.${extension}`;
    await this.blobs.put(key, bytesOnce(bytes), contentType);
    return { key, contentType, width, height };
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
    if (error instanceof StoreFailed || error instanceof PageFailed)
      return new RenderFailed('processing_error', error.message, { cause: error.cause });
    return new RenderFailed('processing_error', `Rendering failed: ${(error as Error)?.message ?? error}`, {
      cause: error,
    });
  }
}

/** What the lanes of one render share. */
class RenderState {
  /** Pages in the PDF, once a source has opened it. */
  total = 0;
  done = 0;
  readonly pages: RenderedPage[] = [];
  /** Pages being stored. */
  readonly writes = new Set<Promise<void>>();
  /** Resolves (to nothing) when the render ends: no page is taken from then on. */
  readonly stopped: Promise<undefined>;
  private readonly ending = Promise.withResolvers<undefined>();
  private next = 1;
  private ended = false;

  constructor() {
    this.stopped = this.ending.promise;
  }

  /** The next page number to paint; past the last page once the render has ended. */
  take(): number {
    return this.ended ? Number.POSITIVE_INFINITY : this.next++;
  }

  stop(): void {
    this.ended = true;
    this.ending.resolve(undefined);
  }
}

/**
 * The deadline of one render. When it passes (or the request's signal aborts), a timer calls `expire`,
 * which stops the rendering; `check()` throws from then on.
 */
class Run {
  readonly deadline: number;
  private timedOut = false;
  private readonly timer: NodeJS.Timeout;
  private readonly stop: () => void;

  constructor(
    private readonly request: RenderRequest,
    expire: () => void,
  ) {
    this.deadline = request.deadline;
    this.stop = () => {
      if (this.timedOut) return;
      this.timedOut = true;
      expire();
    };
    this.timer = setTimeout(
      this.stop,
      Math.min(MAX_TIMER_MS, Math.max(0, request.deadline - Date.now() + 1)),
    );
    this.timer.unref();
    // A host that stops ends the render as a deadline would; the caller knows it was a stop, not a time-out.
    if (request.signal?.aborted) this.stop();
    request.signal?.addEventListener('abort', this.stop, { once: true });
  }

  get expired(): boolean {
    return this.timedOut || Date.now() > this.deadline;
  }

  check(): void {
    if (this.expired) throw new DeadlinePassed();
  }

  end(): void {
    clearTimeout(this.timer);
    this.request.signal?.removeEventListener('abort', this.stop);
  }
}
