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
  contentType: 'image/jpeg' | 'image/webp' | 'image/png';
  /** Pixels. */
  width: number;
  height: number;
}

/**
 * What could not be made of one page, while the rest of the contract could: its image (a blank sheet of
 * the page's size stands in, and the viewer says so), some of the pictures on it (the page is drawn
 * without them), or its text (the page is shown without a text layer).
 */
export type PageProblem = 'image_unavailable' | 'image_incomplete' | 'text_unavailable';

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
  /** What could not be made of this page, if anything; absent on a whole page. */
  problems?: PageProblem[];
  /** With problems: the first error behind them, in the PDF reader's words, for the operator's log. */
  problemDetail?: string;
}

/** The pages with a problem, in order, each with its problems. */
export const pageProblems = (
  contract: Pick<RenderedContract, 'pages'>,
): Array<Required<Pick<RenderedPage, 'number' | 'problems'>> & Pick<RenderedPage, 'problemDetail'>> =>
  contract.pages.flatMap(({ number, problems, problemDetail }) =>
    problems && problems.length > 0 ? [{ number, problems, problemDetail }] : [],
  );

/** The longest title taken from a document. */
const MAX_TITLE_CHARACTERS = 120;

/**
 * What the hosted pages call the contract: the first line of text on its first page ("Contract of Sale
 * of Real Estate"), or "Contract" when that page has no text (a scan). Never the integrator's
 * `external_reference`, an internal reference that anyone with a page's link would otherwise read.
 */
export const documentTitle = (contract: Pick<RenderedContract, 'pages'>): string => {
  const runs = (contract.pages[0]?.text ?? []).filter((run) => run.text.trim() !== '');
  if (runs.length === 0) return 'Contract';
  const top = runs.reduce((first, run) => (run.y < first.y ? run : first));
  // The runs of the first line: their tops within half a line of the topmost one, left to right.
  const line = runs
    .filter((run) => Math.abs(run.y - top.y) < Math.max(run.height, top.height) / 2)
    .sort((a, b) => a.x - b.x)
    .map((run) => run.text.trim())
    .join(' ')
    .replace(/\s+/g, ' ');
  const characters = [...line];
  if (characters.length <= MAX_TITLE_CHARACTERS) return line;
  const cut = characters.slice(0, MAX_TITLE_CHARACTERS).join('');
  const atWord = cut.lastIndexOf(' ');
  return `${(atWord > MAX_TITLE_CHARACTERS / 2 ? cut.slice(0, atWord) : cut).trimEnd()}…`;
};

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
  /** Where the page images go: `${outputPrefix}page-0001.jpg`, `${outputPrefix}thumb-0001.webp` and so on. */
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

/**
 * Reads a stored PDF for real and renders every page; throws `RenderFailed` when no page can be shown
 * (the file cannot be opened, has no pages, or no page could be drawn) or the deadline passes. A page
 * that cannot be drawn or whose text cannot be read is kept with its `problems`.
 */
export interface ContractRenderer {
  render(request: RenderRequest): Promise<RenderedContract>;
}
