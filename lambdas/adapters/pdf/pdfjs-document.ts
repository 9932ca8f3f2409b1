// adapters -> what the PDF inspector and the page renderer share: pdf.js's asset paths, opening a stored
// PDF over blob range reads (never the whole file at once), and why pdf.js refused a file, in words.
// First, before pdf.js: JPEG decoding by Skia, which pdf.js must find as it loads (skia-jpeg-decoder.ts).
import './skia-jpeg-decoder';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  getDocument,
  PasswordException,
  PDFDataRangeTransport,
  VerbosityLevel,
} from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { BlobStore } from '../../core/ports';
import { inThreadPdfWorker } from './pdfjs-in-thread-worker';

/** pdf.js's font, character map and WebAssembly files, as directory paths with a trailing slash. */
export interface PdfjsAssets {
  standardFontDataUrl: string;
  cMapUrl: string;
  wasmUrl: string;
}

/** The asset directories of the installed `pdfjs-dist` (a bundle ships them beside itself and passes its own). */
export const installedPdfjsAssets = (): PdfjsAssets => {
  const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  return {
    standardFontDataUrl: `${join(root, 'standard_fonts')}/`,
    cMapUrl: `${join(root, 'cmaps')}/`,
    wasmUrl: `${join(root, 'wasm')}/`,
  };
};

/** Where pdf.js's range reads come from: a blob's ranges read here, or asked of another thread. */
export interface RangeSource {
  /** Exactly the bytes `begin` to `end`, or a rejection. */
  read(begin: number, end: number): Promise<Uint8Array>;
}

/**
 * The byte ranges of one stored blob of `length` bytes, keeping the first failure: a read that failed,
 * or a blob shorter than the size given.
 */
export class BlobRanges implements RangeSource {
  /** The first read that failed, if any. */
  error: unknown = null;

  constructor(
    private readonly blobs: Pick<BlobStore, 'readRange'>,
    private readonly key: string,
    private readonly length: number,
  ) {}

  async read(begin: number, end: number): Promise<Uint8Array> {
    try {
      const chunk = await this.blobs.readRange(this.key, begin, end);
      if (chunk.length !== end - begin)
        throw new Error(`Blob ${this.key} is shorter than the size given (${this.length} bytes)`);
      return chunk;
    } catch (error) {
      this.error ??= error;
      throw error;
    }
  }
}

/**
 * Serves pdf.js's range requests from a `RangeSource`. Once a read fails, pdf.js is answered with zeros
 * so that it finishes on its own: destroying it while it waits for data leaves an unhandled rejection in
 * pdf.js ("Worker was terminated"), which would end the process. `stop()` does the same on purpose (a
 * deadline passed): every read from then on is answered at once with zeros.
 */
export class BlobRangeTransport extends PDFDataRangeTransport {
  private failed = false;
  private stopped = false;

  constructor(
    private readonly ranges: RangeSource,
    length: number,
  ) {
    super(length, null);
  }

  /** Answers every read from now on with zeros, so that pdf.js stops waiting for data. */
  stop(): void {
    this.stopped = true;
  }

  override requestDataRange(begin: number, end: number): void {
    const zeros = () => this.onDataRange(begin, new Uint8Array(end - begin));
    if (this.failed || this.stopped) {
      zeros();
      return;
    }
    this.ranges.read(begin, end).then(
      (chunk) => (this.stopped ? zeros() : this.onDataRange(begin, chunk)),
      () => {
        this.failed = true;
        zeros();
      },
    );
  }
}

export interface OpenPdfOptions {
  assets: PdfjsAssets;
  /** Bytes per range read (pdf.js groups adjacent missing chunks into one read). */
  rangeChunkSize: number;
  /**
   * For drawing: the class pdf.js makes its own canvases with (pdfjs-canvas-factory.ts). Passed in by the
   * renderer, so that the inspector, which draws nothing, never loads the native canvas package.
   */
  CanvasFactory?: object;
  /**
   * For drawing: the most pixels an image may be decoded to, its masks counted (pdf.js is patched to
   * count them: patches/pdfjs-dist+*.patch). A larger image is left out of the page, and pdf.js leaves
   * a null image in its place, which `PagePainter` reports.
   */
  maxImagePixels?: number;
  /**
   * For drawing: JPEG images decoded by Skia (skia-jpeg-decoder.ts), through a pdf.js worker in this
   * thread that the caller destroys after the loading task. Else pdf.js decodes them in JavaScript.
   */
  skiaJpeg?: boolean;
}

/**
 * Starts opening a stored PDF of `length` bytes read from `ranges`. The caller awaits `task.promise` and
 * must always `await task.destroy()`, then `worker?.destroy()`; after a failure, `BlobRanges.error` says
 * whether the blob itself could not be read.
 */
export const openStoredPdf = (
  ranges: RangeSource,
  length: number,
  { assets, rangeChunkSize, CanvasFactory, maxImagePixels, skiaJpeg = false }: OpenPdfOptions,
) => {
  const transport = new BlobRangeTransport(ranges, length);
  const worker = skiaJpeg ? inThreadPdfWorker() : undefined;
  const task = getDocument({
    range: transport,
    rangeChunkSize,
    // Read what each page needs when it needs it, not the whole file in the background.
    disableAutoFetch: true,
    disableStream: true,
    ...assets,
    cMapPacked: true,
    verbosity: VerbosityLevel.ERRORS,
    ...(CanvasFactory !== undefined && { CanvasFactory }),
    ...(maxImagePixels !== undefined && { maxImageSize: maxImagePixels }),
    ...(worker && { worker, isImageDecoderSupported: true }),
  });
  return { task, transport, worker };
};

/** Why pdf.js refused to open a file, in words for a person. */
export const reasonFor = (error: unknown): string => {
  if (error instanceof PasswordException) return 'The PDF is password protected; send it without a password.';
  const name = (error as { name?: string } | null)?.name;
  if (name === 'InvalidPDFException')
    return 'The file is damaged or truncated: its PDF structure cannot be read.';
  return 'The PDF is damaged and cannot be opened.';
};
