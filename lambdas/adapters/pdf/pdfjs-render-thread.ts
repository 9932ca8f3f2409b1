// adapters -> a rendering thread: `InlinePages` run in a `worker_threads` Worker (pdfjs-render-worker.ts)
// with its own pdf.js document, its range reads served by this thread from the blob store, and the
// messages between the two. Pages painted in threads render in parallel, which one thread cannot do.
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { RenderFailed } from '../../core/rendered-contract';
import type { RangeSource } from './pdfjs-document';
import { PageFailed, type PaintedPage } from './pdfjs-page';
import type { PageSource, PagesInit } from './pdfjs-pages';

/** An error as it crosses between threads (a clone loses its class and may not clone at all). */
export interface WireError {
  name: string;
  message: string;
  stack?: string;
  cause?: WireError;
}

/** From this thread to a rendering thread. */
export type ToThread =
  | { type: 'range'; id: number; bytes: Uint8Array | null }
  | { type: 'paint'; number: number };

/** From a rendering thread to this one. */
export type FromThread =
  | { type: 'read'; id: number; begin: number; end: number }
  | { type: 'opened'; total: number }
  | { type: 'unopenable'; error: WireError }
  | { type: 'painted'; page: PaintedPage }
  | { type: 'failed'; number: number; pageFailed: boolean; error: WireError };

/** An error as it can be posted to another thread, with its causes. */
export const toWire = (error: unknown, depth = 0): WireError => {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const { name, message, stack, cause } = error;
  return {
    name,
    message,
    ...(stack && { stack }),
    ...(cause !== undefined && depth < 2 && { cause: toWire(cause, depth + 1) }),
  };
};

const fromWire = ({ name, message, stack, cause }: WireError): Error => {
  const error = new Error(message, cause && { cause: fromWire(cause) });
  error.name = name;
  if (stack) error.stack = stack;
  return error;
};

/**
 * The thread's module, beside this one. From the sources, a bootstrap that registers tsx's loader in
 * the thread itself, started without this process's flags: jest's thread would have no loader, and
 * tsx's, inherited, would load pdf.js slowly. Bundled, `pdfjs-render-worker.mjs` if the bundle ships
 * one beside itself.
 */
const FROM_SOURCES = import.meta.url.endsWith('.ts');
const THREAD_MODULE = new URL(
  FROM_SOURCES ? './pdfjs-render-worker-tsx.mjs' : './pdfjs-render-worker.mjs',
  import.meta.url,
);

/** The young generation of a rendering thread's heap. */
const YOUNG_GENERATION_MIB = 16;
/**
 * The ceiling of a rendering thread's JavaScript heap: a file that drives pdf.js past it (parsed objects,
 * operator lists) ends its own thread, and so its render, with an error, never the process and the
 * other contracts. Far above what a render needs (pdf.js's caches are dropped every 50 pages); decoded
 * images and canvases live outside the heap, bounded by `maxImagePixels` and `maxCanvasPixels`.
 */
const OLD_GENERATION_MIB = 768;

/** Whether rendering threads can be started here (their module is there to load). */
export const renderThreadsAvailable = (): boolean => existsSync(THREAD_MODULE);

/** The pages of a PDF painted by a thread of their own; `stop()` and `close()` end the thread. */
export class ThreadPages implements PageSource {
  readonly opened: Promise<number>;
  private readonly opening = Promise.withResolvers<number>();
  private readonly worker: Worker;
  private readonly painting = new Map<number, PromiseWithResolvers<PaintedPage>>();
  /** Why no more pages will come, once the thread has failed or ended. */
  private ended: Error | null = null;

  constructor(
    private readonly ranges: RangeSource,
    init: PagesInit,
  ) {
    this.opened = this.opening.promise;
    this.opened.catch(() => {});
    this.worker = new Worker(THREAD_MODULE, {
      workerData: init,
      // Left to itself, V8 grows a thread's heap page after page (some 40 MiB a thread over 1,000
      // pages) and keeps it; with a smaller young generation it stays flat.
      resourceLimits: {
        maxYoungGenerationSizeMb: YOUNG_GENERATION_MIB,
        maxOldGenerationSizeMb: OLD_GENERATION_MIB,
      },
      ...(FROM_SOURCES && { execArgv: [] }),
    });
    this.worker.on('message', (message: FromThread) => this.receive(message));
    this.worker.on('error', (error) => this.end(error));
    this.worker.on('exit', (code) => this.end(new Error(`The rendering thread ended (exit code ${code}).`)));
  }

  paint(number: number): Promise<PaintedPage> {
    if (this.ended) return Promise.reject(this.ended);
    const painted = Promise.withResolvers<PaintedPage>();
    this.painting.set(number, painted);
    this.post({ type: 'paint', number });
    return painted.promise;
  }

  stop(): void {
    void this.worker.terminate();
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }

  private post(message: ToThread): void {
    this.worker.postMessage(message);
  }

  private receive(message: FromThread): void {
    switch (message.type) {
      case 'read':
        this.ranges.read(message.begin, message.end).then(
          // A view's whole buffer would be copied across: a chunk of a larger one is copied out first.
          (bytes) =>
            this.post({
              type: 'range',
              id: message.id,
              bytes: bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice(),
            }),
          () => this.post({ type: 'range', id: message.id, bytes: null }),
        );
        return;
      case 'opened':
        this.opening.resolve(message.total);
        return;
      case 'unopenable':
        this.opening.reject(
          new RenderFailed('processing_error', message.error.message, {
            cause: message.error.cause && fromWire(message.error.cause),
          }),
        );
        return;
      case 'painted':
        this.settle(message.page.number)?.resolve(message.page);
        return;
      case 'failed': {
        const { error } = message;
        this.settle(message.number)?.reject(
          message.pageFailed
            ? new PageFailed(error.message, { cause: error.cause && fromWire(error.cause) })
            : fromWire(error),
        );
      }
    }
  }

  private settle(number: number): PromiseWithResolvers<PaintedPage> | undefined {
    const painted = this.painting.get(number);
    this.painting.delete(number);
    return painted;
  }

  private end(reason: Error): void {
    this.ended ??= reason;
    this.opening.reject(this.ended);
    for (const painted of this.painting.values()) painted.reject(this.ended);
    this.painting.clear();
  }
}
