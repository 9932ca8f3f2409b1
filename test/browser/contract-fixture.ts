// test support -> a rendered contract drawn for the browser tests: A4 pages as JPEG images (WebP thumbnails) with text
// drawn at known places, and the text runs that say where, as processing would leave them. The text is
// drawn in the font the pages ship (registered here from the package), so no system font is needed.
import { type Canvas, createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { bytesOnce } from '../../lambdas/core/blobs';
import type { BlobStore } from '../../lambdas/core/ports';
import type { RenderedContract, RenderedPage, TextRun } from '../../lambdas/core/rendered-contract';
import { fontFile, subsetsFor } from '../../lambdas/pages/text-layer-font';

/** A4 in points. */
const WIDTH_POINTS = 595;
const HEIGHT_POINTS = 842;
/** About 100 dpi: enough to read, quick to draw and encode. */
const PAGE_PX = { width: 827, height: 1170 };
const THUMB_PX = { width: 120, height: 170 };

/** The family the pages are drawn in: the shipped font's subsets that the lines need. */
const FIXTURE_FONT = 'Fixture Sans';

const registerFixtureFont = (): void => {
  if (GlobalFonts.has(FIXTURE_FONT)) return;
  const texts = [...PAGES.flat().map((line) => line.text), 'Page 1 of 9'];
  for (const subset of subsetsFor(texts))
    GlobalFonts.register(Buffer.from(fontFile(subset).bytes), FIXTURE_FONT);
};

interface Line {
  text: string;
  /** Left edge and baseline position in page pixels; font size in pixels. */
  x: number;
  y: number;
  size: number;
  bold?: boolean;
}

const PAGES: Line[][] = [
  [
    { text: 'CONTRACT OF SALE OF LAND', x: 80, y: 120, size: 34, bold: true },
    { text: 'Vendor: Margaret Ellen Walsh', x: 80, y: 200, size: 18 },
    { text: 'Purchaser: Daniel O’Brien', x: 80, y: 232, size: 18 },
    { text: 'Property: 14 Wattle Grove, Brunswick', x: 80, y: 264, size: 18 },
    { text: 'Purchase price', x: 80, y: 340, size: 22, bold: true },
    { text: '$1,250,000', x: 500, y: 340, size: 22 },
    { text: 'Deposit', x: 80, y: 380, size: 18 },
    { text: '$125,000 (ten per cent)', x: 500, y: 380, size: 18 },
    { text: 'Settlement date: 60 days after the day of sale', x: 80, y: 440, size: 18 },
  ],
  [
    { text: 'General conditions', x: 80, y: 120, size: 28, bold: true },
    {
      text: '1. The Vendor agrees to sell and the Purchaser agrees to buy the Property.',
      x: 80,
      y: 190,
      size: 16,
    },
    { text: '2. The Purchaser must pay the Deposit on the day of sale.', x: 80, y: 222, size: 16 },
    {
      text: '3. Settlement is due on the Settlement Date against transfer of the land.',
      x: 80,
      y: 254,
      size: 16,
    },
    { text: '4. Rates and taxes are apportioned as at the Settlement Date.', x: 80, y: 286, size: 16 },
  ],
  [
    { text: 'Signatures', x: 80, y: 120, size: 28, bold: true },
    { text: 'Signed by the Vendor', x: 80, y: 220, size: 18 },
    { text: 'Signed by the Purchaser', x: 80, y: 320, size: 18 },
  ],
];

const draw = (
  lines: Line[],
  number: number,
  scale: number,
  total: number,
): { canvas: Canvas; runs: TextRun[] } => {
  const width = Math.round(PAGE_PX.width * scale);
  const height = Math.round(PAGE_PX.height * scale);
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.scale(scale, scale);
  context.fillStyle = '#111111';
  context.textBaseline = 'alphabetic';
  const runs: TextRun[] = [];
  for (const line of lines) {
    context.font = `${line.bold ? 'bold ' : ''}${line.size}px "${FIXTURE_FONT}"`;
    context.fillText(line.text, line.x, line.y);
    const metrics = context.measureText(line.text);
    // As pdf.js gives a run: its box from the baseline up by the font size.
    runs.push({
      text: line.text,
      x: line.x / PAGE_PX.width,
      y: (line.y - line.size * 0.8) / PAGE_PX.height,
      width: metrics.width / PAGE_PX.width,
      height: line.size / PAGE_PX.height,
    });
  }
  context.font = `14px "${FIXTURE_FONT}"`;
  context.fillStyle = '#555555';
  context.fillText(`Page ${number} of ${total}`, PAGE_PX.width / 2 - 40, PAGE_PX.height - 50);
  return { canvas, runs };
};

/** Draws the three pages, stores their images and thumbnails in `blobs`, and answers the contract. */
export const storeDrawnContract = async (blobs: BlobStore, prefix: string): Promise<RenderedContract> => {
  registerFixtureFont();
  const pages: RenderedPage[] = [];
  for (const [i, lines] of PAGES.entries()) {
    const number = i + 1;
    const page = draw(lines, number, 1, PAGES.length);
    const thumb = draw(lines, number, THUMB_PX.width / PAGE_PX.width, PAGES.length);
    // In the formats the renderer stores: JPEG pages, WebP thumbnails.
    const image = `${prefix}page-${number}.jpg`;
    const thumbnail = `${prefix}thumb-${number}.webp`;
    await blobs.put(image, bytesOnce(page.canvas.toBuffer('image/jpeg', 80)), 'image/jpeg');
    await blobs.put(thumbnail, bytesOnce(thumb.canvas.toBuffer('image/webp', 80)), 'image/webp');
    pages.push({
      number,
      widthPoints: WIDTH_POINTS,
      heightPoints: HEIGHT_POINTS,
      image: { key: image, contentType: 'image/jpeg', ...PAGE_PX },
      thumbnail: { key: thumbnail, contentType: 'image/webp', ...THUMB_PX },
      text: page.runs,
    });
  }
  return { contractReviewId: 'crv_browser', version: 1, pageCount: pages.length, pages };
};
