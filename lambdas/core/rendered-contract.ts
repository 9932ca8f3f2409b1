// core -> a contract version as processing leaves it: every page as an image (a viewing size and a
// thumbnail) with its text positioned over it, ready for the hosted pages and the analysis.
// Positions are fractions of the page box, top-left origin, so a page scales to any width.

/** One run of text as the PDF places it. */
export interface TextRun {
  text: string;
  /** Left edge, as a fraction of the page width. */
  x: number;
  /** Top edge, as a fraction of the page height. */
  y: number;
  /** Width, as a fraction of the page width. */
  width: number;
  /** Height (the font size), as a fraction of the page height. */
  height: number;
}

/** A stored image of a page. */
export interface PageImage {
  /** Blob key of the image. */
  key: string;
  contentType: 'image/webp' | 'image/png';
  /** Pixels. */
  width: number;
  height: number;
}

export interface RenderedPage {
  /** 1-based. */
  number: number;
  /** The page box in PDF points (1/72 in), after its rotation. */
  widthPoints: number;
  heightPoints: number;
  image: PageImage;
  thumbnail: PageImage;
  /** The page's text in reading order as the PDF gives it; empty for a scanned page. */
  text: TextRun[];
}

export interface RenderedContract {
  contractReviewId: string;
  version: number;
  pageCount: number;
  pages: RenderedPage[];
}

/** The page's text as one string, runs joined by spaces, for search and analysis. */
export const pageText = (page: Pick<RenderedPage, 'text'>): string =>
  page.text
    .map((run) => run.text)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();

/** What processing asks of the renderer for one version. */
export interface RenderRequest {
  contractReviewId: string;
  version: number;
  /** Blob key and size of the version's PDF. */
  pdfKey: string;
  pdfSize: number;
  /** Where the page images go: `${outputPrefix}page-0001.webp` and so on. */
  outputPrefix: string;
  /** Epoch milliseconds by which rendering must be done, or it fails `timed_out`. */
  deadline: number;
  /** Stops the render early (its host is stopping); it then fails as if its deadline had passed. */
  signal?: AbortSignal;
}

/** Why a version could not be rendered: the interface's `failure_reason`. */
export class RenderFailed extends Error {
  constructor(
    readonly reason: 'timed_out' | 'processing_error',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'RenderFailed';
  }
}

/** Reads a stored PDF for real and renders every page; throws `RenderFailed`. */
export interface ContractRenderer {
  render(request: RenderRequest): Promise<RenderedContract>;
}
