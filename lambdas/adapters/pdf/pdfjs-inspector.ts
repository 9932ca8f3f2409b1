// adapters -> opens a stored PDF with pdf.js for real, reading only the byte ranges it asks for from
// the blob store: the cross-reference table, the page tree and page 1 of a 100 MB PDF are a few
// chunks of 64 KiB.
import type { BlobStore, PdfInspector } from '../../core/ports';
import {
  BlobRanges,
  installedPdfjsAssets,
  openStoredPdf,
  type PdfjsAssets,
  reasonFor,
} from './pdfjs-document';

export { installedPdfjsAssets, type PdfjsAssets } from './pdfjs-document';

type Verdict = Awaited<ReturnType<PdfInspector['inspect']>>;

export interface PdfjsInspectorOptions {
  assets?: PdfjsAssets;
  /** Bytes per range read; pdf.js's default is 64 KiB. */
  rangeChunkSize?: number;
}

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

    const ranges = new BlobRanges(this.blobs, blobKey, size);
    const { task } = openStoredPdf(ranges, size, {
      assets: this.assets,
      rangeChunkSize: this.rangeChunkSize,
    });
    try {
      const verdict = await this.judge(task.promise);
      if (ranges.error !== null) throw ranges.error;
      return verdict;
    } finally {
      await task.destroy();
    }
  }

  private async judge(opening: ReturnType<typeof openStoredPdf>['task']['promise']): Promise<Verdict> {
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
