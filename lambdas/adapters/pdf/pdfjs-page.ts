// adapters -> one page of an open pdf.js document made into what the service stores: a viewing image and
// a thumbnail, encoded (JPEG and WebP by default, PNG where those fail), and the page's text positioned as
// fractions of the page box.
import { type Canvas, createCanvas } from '@napi-rs/canvas';
import type {
  PageViewport,
  PDFDocumentProxy,
  PDFPageProxy,
  RenderTask,
} from 'pdfjs-dist/legacy/build/pdf.mjs';
import { Util } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PageProblem, TextRun } from '../../core/rendered-contract';
import { withCjkFallback } from './cjk-fallback-face';

export interface PaintOptions {
  /** Resolution of the viewing image. */
  dpi: number;
  /** Most pixels in a viewing image (a larger page is rendered at a lower resolution). */
  maxPixels: number;
  /** Longest side of a viewing image in pixels. */
  maxSide: number;
  /** Thumbnail width in pixels; its height is at most four times this. */
  thumbnailWidth: number;
  /** The viewing image's format; PNG is also the fallback when a lossy encoding fails. */
  format: ImageFormat;
  /** The thumbnail's format. */
  thumbnailFormat: ImageFormat;
  /** JPEG and WebP quality, 0 to 100. */
  quality: number;
  /**
   * Longest a page may take to draw: past it the page is shown as a placeholder (`image_unavailable`)
   * and the render goes on with the next page.
   */
  pageTimeLimitMs: number;
}

/** How a page's image is encoded. */
export type ImageFormat = 'jpeg' | 'webp' | 'png';

/** An encoded image of a page. */
export interface EncodedImage {
  bytes: Uint8Array;
  format: ImageFormat;
  width: number;
  height: number;
}

/** A page ready to be stored: its images, encoded, its box, its text and what could not be made of it. */
export interface PaintedPage {
  number: number;
  widthPoints: number;
  heightPoints: number;
  text: TextRun[];
  image: EncodedImage;
  thumbnail: EncodedImage;
  problems?: PageProblem[];
  /** With problems: the first error behind them. */
  problemDetail?: string;
}

/** A page that could not be painted at all (its images could not be encoded); the message names the page. */
export class PageFailed extends Error {}

/** How a page's drawing is watched: told of each rendering task, and asked whether the whole render has ended. */
export interface DrawControl {
  /** Told of the rendering task (to cancel it) and, with null, of its end. */
  track(rendering: RenderTask | null): void;
  /** Whether the render as a whole has ended (its deadline passed, or it was stopped): nothing is degraded then. */
  ended(): boolean;
}

/** The page box of a page that cannot even be opened: A4 portrait, the commonest contract page. */
const UNKNOWN_PAGE_BOX = { width: 595.28, height: 841.89 };

/** The placeholder's colour: a pale sheet under the viewer's notice. */
const PLACEHOLDER_FILL = '#eceff3';

/** A fraction rounded to 5 digits: 0.02 px on a 1240 px image, and a smaller manifest. */
const fraction = (value: number) => Math.round(value * 1e5) / 1e5;

/** Canvas size and scale for a page box (points) at `dpi`, shrunk to `maxPixels` and `maxSide`. */
const imageSize = (widthPoints: number, heightPoints: number, { dpi, maxPixels, maxSide }: PaintOptions) => {
  const scale = Math.min(
    dpi / 72,
    Math.sqrt(maxPixels / (widthPoints * heightPoints)),
    maxSide / widthPoints,
    maxSide / heightPoints,
  );
  return {
    scale,
    width: Math.max(1, Math.round(widthPoints * scale)),
    height: Math.max(1, Math.round(heightPoints * scale)),
  };
};

type TextContent = Awaited<ReturnType<PDFPageProxy['getTextContent']>>;

/**
 * The page's text runs, in pdf.js's order, as axis-aligned boxes in fractions of the page box (top-left
 * origin). A run's box spans the font size from its ascent above the baseline, like pdf.js's text layer;
 * rotated text (or a rotated page) gets the box around the rotated run. Blank runs are left out.
 */
export const textRuns = (content: TextContent, viewport: PageViewport): TextRun[] => {
  const runs: TextRun[] = [];
  for (const item of content.items) {
    if (!('str' in item) || item.str.trim() === '') continue;
    // Text space to viewport space (top-left origin, page rotation applied).
    const [a, b, c, d, e, f] = Util.transform(viewport.transform, item.transform) as number[] as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const fontHeight = Math.hypot(c, d);
    if (fontHeight === 0) continue;
    const style = content.styles[item.fontName];
    const ascent = style?.ascent ? style.ascent : style?.descent ? 1 + style.descent : 1;
    // Unit vectors towards the top of the glyphs and along the text (downwards for vertical writing).
    const ux = c / fontHeight;
    const uy = d / fontHeight;
    const advance = Math.hypot(a, b);
    const [ax, ay] = style?.vertical ? [-ux, -uy] : advance === 0 ? [-uy, ux] : [a / advance, b / advance];
    const length = (style?.vertical ? item.height : item.width) * viewport.scale;
    // Corners: baseline start moved up by the ascent (top) and down by the rest (bottom), then along.
    const topX = e + ux * fontHeight * ascent;
    const topY = f + uy * fontHeight * ascent;
    const bottomX = e - ux * fontHeight * (1 - ascent);
    const bottomY = f - uy * fontHeight * (1 - ascent);
    const xs = [topX, bottomX, topX + ax * length, bottomX + ax * length];
    const ys = [topY, bottomY, topY + ay * length, bottomY + ay * length];
    const left = Math.min(...xs);
    const top = Math.min(...ys);
    runs.push({
      text: item.str,
      x: fraction(left / viewport.width),
      y: fraction(top / viewport.height),
      width: fraction((Math.max(...xs) - left) / viewport.width),
      height: fraction((Math.max(...ys) - top) / viewport.height),
    });
  }
  return runs;
};

const messageOf = (error: unknown) => (error as Error)?.message ?? String(error);

/**
 * How many images pdf.js left out of what it drew among `objects` (a page's own, or the document's
 * shared ones): an image it cannot decode, or one over `maxImagePixels`, is resolved to null, and the
 * page is drawn without it.
 */
const missingImages = (objects: Iterable<unknown[]>): number => {
  let count = 0;
  for (const [id, data] of objects)
    if (typeof id === 'string' && id.includes('img_') && data === null) count++;
  return count;
};

/** The box, text and pixels of a page drawn into a painter's canvases, waiting to be encoded. */
type Drawn = Omit<PaintedPage, 'image' | 'thumbnail'>;

/**
 * A canvas for a page and one for its thumbnail, reused page after page: one page at a time. Drawing
 * (pdf.js) and encoding (Skia, on libuv's threads) are separate steps, so that the owner can let one
 * page draw while another encodes.
 */
export class PagePainter {
  private readonly page: Canvas = createCanvas(1, 1);
  private readonly thumbnail: Canvas = createCanvas(1, 1);

  constructor(private readonly options: PaintOptions) {
    // Opaque canvases (pdf.js asks the same of a page's): Skia then encodes without un-premultiplying
    // alpha (a quarter less WebP encoding, the same bytes). The first `getContext` fixes it.
    withCjkFallback(this.page.getContext('2d', { alpha: false }));
    this.thumbnail.getContext('2d', { alpha: false });
  }

  /**
   * Draws page `number` and reads its text, into this painter's canvases; frees pdf.js's page after. A
   * page that cannot be opened or drawn gets a placeholder (a blank sheet of its size) and
   * `image_unavailable`; one drawn without some of its images (too large or damaged) gets
   * `image_incomplete`; text that cannot be read leaves the page without text and `text_unavailable`.
   * Once the render as a whole has ended, any failure throws instead.
   */
  async draw(document: PDFDocumentProxy, number: number, control: DrawControl): Promise<Drawn> {
    let page: PDFPageProxy;
    try {
      page = await document.getPage(number);
    } catch (error) {
      if (control.ended()) throw error;
      this.drawPlaceholder(imageSize(UNKNOWN_PAGE_BOX.width, UNKNOWN_PAGE_BOX.height, this.options));
      return {
        number,
        widthPoints: UNKNOWN_PAGE_BOX.width,
        heightPoints: UNKNOWN_PAGE_BOX.height,
        text: [],
        problems: ['image_unavailable', 'text_unavailable'],
        problemDetail: `The page cannot be opened: ${messageOf(error)}`,
      };
    }
    try {
      const box = page.getViewport({ scale: 1 });
      const size = imageSize(box.width, box.height, this.options);
      const problems: PageProblem[] = [];
      let problemDetail: string | undefined;
      const missingBefore = missingImages(page.commonObjs);
      try {
        await this.drawPage(page, size, control);
        const missing = missingImages(page.objs) + missingImages(page.commonObjs) - missingBefore;
        if (missing > 0) {
          problems.push('image_incomplete');
          problemDetail = `${missing === 1 ? 'An image' : `${missing} images`} on the page cannot be drawn: too large or damaged`;
        }
      } catch (error) {
        if (control.ended()) throw error;
        this.drawPlaceholder(size);
        problems.push('image_unavailable');
        problemDetail = `The page cannot be drawn: ${messageOf(error)}`;
      }
      let text: TextRun[] = [];
      try {
        text = textRuns(await page.getTextContent(), box);
      } catch (error) {
        if (control.ended()) throw error;
        problems.push('text_unavailable');
        problemDetail ??= `The page's text cannot be read: ${messageOf(error)}`;
      }
      this.drawThumbnail(size);
      return {
        number,
        widthPoints: box.width,
        heightPoints: box.height,
        text,
        ...(problems.length > 0 && { problems, problemDetail }),
      };
    } finally {
      page.cleanup();
    }
  }

  /** Encodes the canvases of the page drawn last; they are free again once this has settled. */
  async encode(drawn: Drawn): Promise<PaintedPage> {
    try {
      const [image, thumbnail] = await Promise.all([
        this.encodeCanvas(this.page, this.options.format),
        this.encodeCanvas(this.thumbnail, this.options.thumbnailFormat),
      ]);
      return { ...drawn, image, thumbnail };
    } catch (error) {
      throw new PageFailed(`Page ${drawn.number} cannot be stored`, { cause: error });
    }
  }

  private async drawPage(page: PDFPageProxy, size: ReturnType<typeof imageSize>, control: DrawControl) {
    resize(this.page, size.width, size.height);
    const viewport = page.getViewport({ scale: size.scale });
    const rendering = page.render({ canvas: this.page as unknown as HTMLCanvasElement, viewport });
    control.track(rendering);
    try {
      await rendering.promise;
    } finally {
      control.track(null);
    }
    drawNoteIcons(this.page, viewport, await page.getAnnotations({ intent: 'display' }));
  }

  /** A blank sheet of the page's size, where its image could not be made. */
  private drawPlaceholder(size: { width: number; height: number }): void {
    resize(this.page, size.width, size.height);
    const context = this.page.getContext('2d');
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.fillStyle = PLACEHOLDER_FILL;
    context.fillRect(0, 0, size.width, size.height);
  }

  /** Scaled down from the viewing image (cheaper than a second rendering), at most 4 widths tall. */
  private drawThumbnail(size: { width: number; height: number }): void {
    const { thumbnailWidth } = this.options;
    const thumbnailScale = Math.min(thumbnailWidth / size.width, (4 * thumbnailWidth) / size.height);
    resize(
      this.thumbnail,
      Math.max(1, Math.round(size.width * thumbnailScale)),
      Math.max(1, Math.round(size.height * thumbnailScale)),
    );
    const context = this.thumbnail.getContext('2d');
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = 'high';
    context.drawImage(this.page, 0, 0, this.thumbnail.width, this.thumbnail.height);
  }

  /** Skia's pixel memory goes now, not when the garbage collector gets to the canvases. */
  release(): void {
    resize(this.page, 0, 0);
    resize(this.thumbnail, 0, 0);
  }

  private async encodeCanvas(canvas: Canvas, format: ImageFormat): Promise<EncodedImage> {
    const { width, height } = canvas;
    if (format !== 'png')
      try {
        return { bytes: await canvas.encode(format, this.options.quality), format, width, height };
      } catch {
        // PNG below.
      }
    return { bytes: await canvas.encode('png'), format: 'png', width, height };
  }
}

/** Annotation flags that keep an annotation off the screen (ISO 32000-2, 12.5.3). */
const HIDDEN_FLAGS = 0x02 | 0x20;
/** A note's colour when it names none: the yellow readers give notes. */
const NOTE_FILL = '#ffd84d';

interface NoteAnnotation {
  subtype?: string;
  hasAppearance?: boolean;
  annotationFlags?: number;
  rect?: number[];
  color?: ArrayLike<number> | null;
}

/**
 * The icon of each note (a Text annotation) that has no appearance of its own: pdf.js draws such a note
 * only in a browser's annotation layer, so a page whose only mark is a note was published blank, where
 * readers of record draw the note's icon. pdf.js has set its `rect` to the icon's 22 points square.
 */
const drawNoteIcons = (canvas: Canvas, viewport: PageViewport, annotations: NoteAnnotation[]): void => {
  const context = canvas.getContext('2d');
  for (const note of annotations) {
    if (note.subtype !== 'Text' || note.hasAppearance || !note.rect || note.rect.length < 4) continue;
    if (((note.annotationFlags ?? 0) & HIDDEN_FLAGS) !== 0) continue;
    const [rx1 = 0, ry1 = 0, rx2 = 0, ry2 = 0] = note.rect;
    const [x1, y1] = viewport.convertToViewportPoint(rx1, ry1) as [number, number];
    const [x2, y2] = viewport.convertToViewportPoint(rx2, ry2) as [number, number];
    const [left, top] = [Math.min(x1, x2), Math.min(y1, y2)];
    const side = Math.min(Math.abs(x2 - x1), Math.abs(y2 - y1));
    if (!(side > 0)) continue;
    const unit = side / 22;
    const [r, g, b] = note.color && note.color.length === 3 ? Array.from(note.color) : [];
    context.save();
    context.setTransform(1, 0, 0, 1, left, top);
    // A sheet with its corner folded, and three lines of writing.
    const fold = 6 * unit;
    const [sx, sy, sw, sh] = [2 * unit, 1 * unit, 18 * unit, 20 * unit];
    context.beginPath();
    context.moveTo(sx, sy);
    context.lineTo(sx + sw - fold, sy);
    context.lineTo(sx + sw, sy + fold);
    context.lineTo(sx + sw, sy + sh);
    context.lineTo(sx, sy + sh);
    context.closePath();
    context.fillStyle = r === undefined ? NOTE_FILL : `rgb(${r}, ${g}, ${b})`;
    context.fill();
    context.lineWidth = Math.max(1, 1.2 * unit);
    context.strokeStyle = '#3a3a3a';
    context.stroke();
    context.beginPath();
    for (const line of [8, 12, 16]) {
      context.moveTo(sx + 3 * unit, sy + line * unit);
      context.lineTo(sx + sw - 3 * unit, sy + line * unit);
    }
    context.stroke();
    context.restore();
  }
};

const resize = (canvas: Canvas, width: number, height: number) => {
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
};
