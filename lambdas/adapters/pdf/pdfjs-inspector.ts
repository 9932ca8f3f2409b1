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

/** Where readers look for the `%PDF-` header: the first 1024 bytes (ISO 32000-2, annex H). */
const HEADER_WINDOW = 1024;

export interface PdfjsInspectorOptions {
  assets?: PdfjsAssets;
  /** Bytes per range read; pdf.js's default is 64 KiB. */
  rangeChunkSize?: number;
}

export class PdfjsInspector implements PdfInspector {
  private readonly assets: PdfjsAssets;
  private readonly rangeChunkSize: number;

  constructor(
    private readonly blobs: Pick<BlobStore, 'readRange'>,
    { assets = installedPdfjsAssets(), rangeChunkSize = 64 * 1024 }: PdfjsInspectorOptions = {},
  ) {
    this.assets = assets;
    this.rangeChunkSize = rangeChunkSize;
  }

  /**
   * Readable means: pdf.js opens it, it has at least one page and page 1 loads. The `%PDF-` header is
   * not required: readers of record (MuPDF, Poppler) draw a file whose header is late or missing when
   * its body parses, and so does pdf.js; the header only names what a file that does not open is
   * (not a PDF at all, or a damaged one). Failing to read the blob itself throws (the caller retries);
   * a bad file answers `readable: false` with a reason.
   */
  async inspect(blobKey: string, size: number): Promise<Verdict> {
    if (size === 0) return { readable: false, reason: 'The file is empty.' };
    const head = Buffer.from(await this.blobs.readRange(blobKey, 0, Math.min(size, HEADER_WINDOW)));
    const verdict = await this.open(blobKey, size);
    if (!verdict.readable && !verdict.opened && !head.includes('%PDF-'))
      return { readable: false, reason: 'The file is not a PDF.' };
    const { opened: _, ...answer } = verdict;
    return answer;
  }

  private async open(blobKey: string, size: number): Promise<Verdict & { opened: boolean }> {
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

  private async judge(
    opening: ReturnType<typeof openStoredPdf>['task']['promise'],
  ): Promise<Verdict & { opened: boolean }> {
    let document: Awaited<typeof opening>;
    try {
      document = await opening;
    } catch (error) {
      return { readable: false, reason: reasonFor(error), opened: false };
    }
    const pageCount = document.numPages;
    if (pageCount < 1) return { readable: false, reason: 'The PDF has no pages.', opened: true };
    try {
      await document.getPage(1);
    } catch {
      return {
        readable: false,
        reason: 'The first page of the PDF is damaged and cannot be read.',
        opened: true,
      };
    }
    return { readable: true, pageCount, opened: true };
  }
}
