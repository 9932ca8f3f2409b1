// adapters -> the PDF ports, loading pdf.js (and, to render, Skia) on first use. Only the composition roots
// of what reads PDFs import this module (the upload endpoints and service, the processing step, the local
// stack): a bundle that does not reach it carries no pdf.js.
import { log } from '../../core/log';
import type { BlobStore, PdfInspector } from '../../core/ports';
import type { ContractRenderer, RenderRequest } from '../../core/rendered-contract';

/** pdf.js (1.5 MB) is loaded on the first inspection, so only the two upload endpoints pay for it. */
export const lazyPdfInspector = (blobs: Pick<BlobStore, 'readRange'>): PdfInspector => {
  let inspector: Promise<PdfInspector> | undefined;
  return {
    inspect: async (blobKey, size) => {
      inspector ??= import('./pdfjs-inspector').then(({ PdfjsInspector }) => new PdfjsInspector(blobs));
      return (await inspector).inspect(blobKey, size);
    },
  };
};

/** Progress of a long render in the log (every 50 pages and the last), for whoever watches one. */
const logRenderProgress = (done: number, total: number, request: RenderRequest): void => {
  if (done % 50 === 0 || (done === total && total >= 50))
    log.info('rendering', {
      id: request.contractReviewId,
      version: request.version,
      pages: `${done}/${total}`,
    });
};

/** The renderer (pdf.js and Skia) likewise loads only where a version is processed. */
export const lazyRenderer = (blobs: Pick<BlobStore, 'readRange' | 'put'>): ContractRenderer => {
  let renderer: Promise<ContractRenderer> | undefined;
  return {
    render: async (request) => {
      renderer ??= import('./pdfjs-renderer').then(
        ({ PdfjsRenderer }) => new PdfjsRenderer(blobs, { onPage: logRenderProgress }),
      );
      return (await renderer).render(request);
    },
  };
};
