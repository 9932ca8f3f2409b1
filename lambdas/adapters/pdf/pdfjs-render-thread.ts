// adapters -> rendering threads: `InlinePages` run in a `worker_threads` Worker (pdfjs-render-worker.ts)
// with its own pdf.js document, its range reads served by this thread from the blob store, and the
// messages between the two. Pages painted in threads render in parallel, which one thread cannot do.
// A thread that finished a render well goes back to its pool (`RenderThreads`), having destroyed its
// document and freed its canvases, and waits there for the next render until it has been idle for a while:
// starting one (loading pdf.js and Skia) cost some 0.4 s of CPU per thread per render. A thread stopped
// mid-render (a deadline, an abort) or that failed is ended, never kept.
import { AsyncResource } from 'node:async_hooks';
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { log } from '../../core/log';
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
  | { type: 'open'; init: PagesInit }
  | { type: 'range'; id: number; bytes: Uint8Array | null }
  | { type: 'paint'; number: number }
  | { type: 'close' };

/** From a rendering thread to this one. */
export type FromThread =
  | { type: 'read'; id: number; begin: number; end: number }
  | { type: 'opened'; total: number }
  | { type: 'unopenable'; error: WireError }
  | { type: 'painted'; page: PaintedPage }
  | { type: 'failed'; number: number; pageFailed: boolean; error: WireError }
  | { type: 'closed' };

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

/** A rendering thread, started without a document: each render opens its own in it (`open`). */
const startThread = (): Worker =>
  new Worker(THREAD_MODULE, {
    // Left to itself, V8 grows a thread's heap page after page (some 40 MiB a thread over 1,000
    // pages) and keeps it; with a smaller young generation it stays flat.
    resourceLimits: {
      maxYoungGenerationSizeMb: YOUNG_GENERATION_MIB,
      maxOldGenerationSizeMb: OLD_GENERATION_MIB,
    },
    ...(FROM_SOURCES && { execArgv: [] }),
  });

/**
 * Rendering threads kept between renders: `take` answers an idle one or starts one, `give` keeps one
 * that closed its render's document, ended once idle for `idleMs` (it then holds pdf.js, Skia and an
 * empty heap, no contract's data) or at `close`. An idle thread does not keep the process alive.
 */
export class RenderThreads {
  private readonly idle = new Map<Worker, NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly idleMs: number) {}

  take(): Worker {
    const [kept] = this.idle;
    if (kept === undefined) return this.started();
    const [worker, timer] = kept;
    clearTimeout(timer);
    this.idle.delete(worker);
    worker.ref();
    return worker;
  }

  /** Keeps `worker` for the next render; ends it (resolving once it has) if none is kept. */
  async give(worker: Worker): Promise<void> {
    if (this.closed || this.idleMs <= 0) {
      await worker.terminate();
      return;
    }
    worker.unref();
    const timer = setTimeout(() => this.end(worker), this.idleMs);
    timer.unref();
    this.idle.set(worker, timer);
  }

  /** Ends the idle threads, and every thread given back from now on. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.idle.keys()].map((worker) => this.end(worker)));
  }

  private started(): Worker {
    const worker = startThread();
    worker.once('online', () => log.debug('rendering thread online', { thread: worker.threadId }));
    // One that ends while idle is no longer offered; one that fails (a fault in pdf.js after its
    // document was destroyed) is ended, and its error is not thrown in this thread.
    worker.once('exit', () => {
      clearTimeout(this.idle.get(worker));
      this.idle.delete(worker);
    });
    worker.on('error', () => void this.end(worker));
    return worker;
  }

  private async end(worker: Worker): Promise<void> {
    clearTimeout(this.idle.get(worker));
    this.idle.delete(worker);
    await worker.terminate();
  }
}

/**
 * The pages of a PDF painted by a thread of its pool. `stop()` ends the thread; `close()` has it destroy
 * its document and gives it back to the pool, unless it was stopped or has failed (then it is ended).
 */
export class ThreadPages implements PageSource {
  readonly opened: Promise<number>;
  private readonly opening = Promise.withResolvers<number>();
  private readonly worker: Worker;
  private readonly painting = new Map<number, PromiseWithResolvers<PaintedPage>>();
  private readonly closing = Promise.withResolvers<void>();
  /** Why no more pages will come, once the thread has failed or ended. */
  private ended: Error | null = null;
  /** Stopped, or closed: from then on this render posts nothing more to the thread. */
  private done = false;
  private stopped = false;
  // Bound to this render's async context: a kept thread's events otherwise run in the context of the
  // render that started it, and would log under that render's keys.
  private readonly onMessage = AsyncResource.bind((message: FromThread) => this.receive(message));
  private readonly onError = (error: Error) => this.end(error);
  private readonly onExit = (code: number) =>
    this.end(new Error(`The rendering thread ended (exit code ${code}).`));

  constructor(
    private readonly ranges: RangeSource,
    init: PagesInit,
    private readonly threads: RenderThreads,
  ) {
    this.opened = this.opening.promise;
    this.opened.catch(() => {});
    this.worker = threads.take();
    this.worker.on('message', this.onMessage);
    this.worker.on('error', this.onError);
    this.worker.on('exit', this.onExit);
    this.post({ type: 'open', init });
  }

  paint(number: number): Promise<PaintedPage> {
    if (this.ended) return Promise.reject(this.ended);
    const painted = Promise.withResolvers<PaintedPage>();
    this.painting.set(number, painted);
    this.post({ type: 'paint', number });
    return painted.promise;
  }

  stop(): void {
    this.stopped = true;
    this.done = true;
    void this.worker.terminate();
  }

  async close(): Promise<void> {
    if (!this.stopped && !this.ended) {
      this.post({ type: 'close' });
      await this.closing.promise;
    }
    this.done = true;
    this.worker.off('message', this.onMessage);
    this.worker.off('error', this.onError);
    this.worker.off('exit', this.onExit);
    if (this.stopped || this.ended) await this.worker.terminate();
    else await this.threads.give(this.worker);
  }

  private post(message: ToThread): void {
    if (!this.done) this.worker.postMessage(message);
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
        log.debug('rendering thread opened the PDF', { thread: this.worker.threadId });
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
        return;
      }
      case 'closed':
        this.closing.resolve();
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
    this.closing.resolve();
  }
}
