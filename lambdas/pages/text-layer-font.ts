// pages -> the text layer's own font. Each run of the layer is stretched from its width in
// this font (known here, so the page needs no script to measure it) to the width the PDF gives it. So
// that the width the browser draws is the width computed here whatever the reader has installed, the
// pages ship the font themselves: Arimo (Arial's metrics, SIL Open Font License) from
// `@fontsource/arimo`, as WOFF2 subsets beside the page under a family name no installed font has,
// each subset declared with its `unicode-range` so a browser fetches only those the text needs.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { hasCjk } from '../core/cjk-text';
import { TEXT_LAYER_FONT_DATA } from './text-layer-font-data';
import type { FontSubset } from './text-layer-font-shape';

export type { FontSubset, TextLayerFontData } from './text-layer-font-shape';

/** The layer's `font-family`: a name of our own, so no font installed on the reader's device stands in. */
export const TEXT_LAYER_FAMILY = 'Contract Text Layer';

/**
 * The installed font package's folder: in the repository, or in a deployed bundle the copy of its files
 * beside it (lib/text-layer-font-assets.ts).
 */
export const fontPackageRoot = (): string =>
  dirname(createRequire(import.meta.url).resolve(`${TEXT_LAYER_FONT_DATA.package}/package.json`));

const ADVANCES: ReadonlyMap<number, number> = new Map(
  TEXT_LAYER_FONT_DATA.advanceRuns.flatMap(([first = 0, ...widths]) =>
    widths.map((width, i): [number, number] => [first + i, width]),
  ),
);

/** What a character the font lacks is taken to be (the browser draws it in another font): an average letter. */
const DEFAULT_WIDTH_EM = 0.556;
/**
 * A CJK full-width character, which the font lacks too: one em in every CJK face, so the layer's run is
 * as wide as the drawn one in whichever CJK font the reader's browser has (the layer is transparent).
 */
const CJK_WIDTH_EM = 1;

/** The width of `text` in the layer's font, in ems (no kerning or ligatures: the layer turns them off). */
export const textWidthEm = (text: string): number => {
  let total = 0;
  for (const char of text) {
    const width = ADVANCES.get(char.codePointAt(0) ?? 0);
    total +=
      width !== undefined
        ? width / TEXT_LAYER_FONT_DATA.unitsPerEm
        : hasCjk(char)
          ? CJK_WIDTH_EM
          : DEFAULT_WIDTH_EM;
  }
  return total;
};

const covers = (subset: FontSubset, code: number): boolean =>
  subset.ranges.some(([first, last]) => code >= first && code <= last);

/** The subsets a browser needs to draw `texts`, in the package's order. */
export const subsetsFor = (texts: Iterable<string>): FontSubset[] => {
  const codes = new Set<number>();
  for (const text of texts) for (const char of text) codes.add(char.codePointAt(0) ?? 0);
  return TEXT_LAYER_FONT_DATA.subsets.filter((subset) => [...codes].some((code) => covers(subset, code)));
};

/** A subset's file as the page serves it: its bytes and a name that changes when they do. */
export interface FontFile {
  name: string;
  bytes: Uint8Array;
}

const fontFiles = new Map<string, FontFile>();

/** A subset's file, read from the package once per process. */
export const fontFile = (subset: FontSubset): FontFile => {
  let file = fontFiles.get(subset.file);
  if (!file) {
    const bytes = readFileSync(join(fontPackageRoot(), 'files', subset.file));
    const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
    file = { name: `${subset.file.replace(/\.woff2$/, '')}-${hash}.woff2`, bytes };
    fontFiles.set(subset.file, file);
  }
  return file;
};

/**
 * The `@font-face` rule of a subset, its file beside the stylesheet. `font-display: block`: until the
 * font arrives the layer's (transparent) text waits rather than being laid out in a fallback font, which
 * would misplace a selection made meanwhile; the page's visible text is the image and never waits.
 */
export const fontFaceRule = (subset: FontSubset, fileName: string): string =>
  `@font-face{font-family:"${TEXT_LAYER_FAMILY}";src:url(${fileName}) format("woff2");` +
  `font-style:normal;font-weight:400;font-display:block;unicode-range:${subset.unicodeRange}}`;
