// adapters -> opens a stored PDF with pdf.js for real, reading only the byte ranges it asks for from
// the blob store: the cross-reference table, the page tree and page 1 of a 100 MB PDF are a few
// chunks of 64 KiB.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  getDocument,
  PasswordException,
  PDFDataRangeTransport,
  VerbosityLevel,
} from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { BlobStore, PdfInspector } from '../../core/ports';

type Verdict = Awaited<ReturnType<PdfInspector['inspect']>>;

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

export interface PdfjsInspectorOptions {
  assets?: PdfjsAssets;
  /** Bytes per range read; pdf.js's default is 64 KiB. */
  rangeChunkSize?: number;
}

/**
 * Serves pdf.js's range requests from the blob store. When a read fails, the error is kept and pdf.js
 * is answered with zeros so that it finishes on its own: destroying it while it waits for data leaves
 * an unhandled rejection in pdf.js ("Worker was terminated"), which would end the process.
 */
class BlobRangeTransport extends PDFDataRangeTransport {
  error: unknown = null;

  constructor(
    private readonly blobs: BlobStore,
    private readonly key: string,
    length: number,
  ) {
    super(length, null);
  }

  override requestDataRange(begin: number, end: number): void {
    if (this.error !== null) {
      this.onDataRange(begin, new Uint8Array(end - begin));
      return;
    }
    this.blobs.readRange(this.key, begin, end).then(
      (chunk) => {
        if (chunk.length === end - begin) return this.onDataRange(begin, chunk);
        this.error ??= new Error(`Blob ${this.key} is shorter than the size given (${this.length} bytes)`);
        this.onDataRange(begin, new Uint8Array(end - begin));
      },
      (error: unknown) => {
        this.error ??= error;
        this.onDataRange(begin, new Uint8Array(end - begin));
      },
    );
  }
}

/** Why pdf.js refused a file, in words for a person. */
const reasonFor = (error: unknown): string => {
  if (error instanceof PasswordException) return 'The PDF is password protected; send it without a password.';
  const name = (error as { name?: string } | null)?.name;
  if (name === 'InvalidPDFException')
    return 'The file is damaged or truncated: its PDF structure cannot be read.';
  return 'The PDF is damaged and cannot be opened.';
};

export class PdfjsInspector implements PdfInspector {
  private readonly assets: PdfjsAssets;
  private readonly rangeChunkSize: number;

  constructor(
    private readonly blobs: BlobStore,
    { assets = installedPdfjsAssets(), rangeChunkSize = 64 * 1024 }: PdfjsInspectorOptions = {},
  ) {
    this.assets = assets;
    this.rangeChunkSize = rangeChunkSize;
  }

  /**
   * Readable means: pdf.js opens it, it has at least one page and page 1 loads. Failing to read the
   * blob itself throws (the caller retries); a bad file answers `readable: false` with a reason.
   */
  async inspect(blobKey: string, size: number): Promise<Verdict> {
    if (size === 0) return { readable: false, reason: 'The file is empty.' };
    const head = Buffer.from(await this.blobs.readRange(blobKey, 0, Math.min(size, 1024)));
    if (!head.includes('%PDF-')) return { readable: false, reason: 'The file is not a PDF.' };

    const transport = new BlobRangeTransport(this.blobs, blobKey, size);
    const task = getDocument({
      range: transport,
      rangeChunkSize: this.rangeChunkSize,
      disableAutoFetch: true,
      disableStream: true,
      ...this.assets,
      cMapPacked: true,
      verbosity: VerbosityLevel.ERRORS,
    });
    try {
      const verdict = await this.judge(task.promise);
      if (transport.error !== null) throw transport.error;
      return verdict;
    } finally {
      await task.destroy();
    }
  }

  private async judge(opening: ReturnType<typeof getDocument>['promise']): Promise<Verdict> {
    let document: Awaited<typeof opening>;
    try {
      document = await opening;
    } catch (error) {
      return { readable: false, reason: reasonFor(error) };
    }
    const pageCount = document.numPages;
    if (pageCount < 1) return { readable: false, reason: 'The PDF has no pages.' };
    try {
      await document.getPage(1);
    } catch {
      return { readable: false, reason: 'The first page of the PDF is damaged and cannot be read.' };
    }
    return { readable: true, pageCount };
  }
}
