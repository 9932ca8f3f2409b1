// pages -> reads the text layer's font package (dev time only: fontkit is a dev dependency) into
// the data the pages need at run time: the subsets with their unicode ranges, and the advance width of
// every character each subset draws. `npm run fonts` writes it to text-layer-font-data.ts; a unit test
// checks that file against the installed package, so an upgrade cannot leave the widths behind.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as fontkit from 'fontkit';
import type { FontSubset, TextLayerFontData } from './text-layer-font-shape';

/** The npm package whose files the pages ship. */
export const FONT_PACKAGE = '@fontsource/arimo';

/** The face the layer uses: regular weight, upright (the package's `index.css` declares exactly these). */
const FACE_CSS = 'index.css';

/** `U+0000-00FF,U+0131` as `[[0, 255], [305, 305]]`. */
export const parseUnicodeRange = (value: string): Array<[number, number]> =>
  value.split(',').map((part) => {
    const match = /^U\+([0-9A-F]{1,6})(?:-([0-9A-F]{1,6}))?$/i.exec(part.trim());
    if (!match?.[1]) throw new Error(`not a unicode-range: ${part}`);
    const first = Number.parseInt(match[1], 16);
    return [first, match[2] ? Number.parseInt(match[2], 16) : first];
  });

/** The subsets the package declares for its regular face, in the order of its stylesheet. */
const readSubsets = (root: string): FontSubset[] => {
  const css = readFileSync(join(root, FACE_CSS), 'utf8');
  const subsets: FontSubset[] = [];
  for (const rule of css.matchAll(/@font-face\s*{([^}]*)}/g)) {
    const body = rule[1] ?? '';
    const file = /url\(\.\/files\/([^)]+\.woff2)\)/.exec(body)?.[1];
    const unicodeRange = /unicode-range:\s*([^;]+);/.exec(body)?.[1]?.trim();
    if (!file || !unicodeRange)
      throw new Error(`${FONT_PACKAGE}/${FACE_CSS}: a face without a woff2 or range`);
    subsets.push({ file, unicodeRange, ranges: parseUnicodeRange(unicodeRange) });
  }
  if (subsets.length === 0) throw new Error(`${FONT_PACKAGE}/${FACE_CSS} declares no face`);
  return subsets;
};

const inRanges = (code: number, ranges: Array<[number, number]>): boolean =>
  ranges.some(([first, last]) => code >= first && code <= last);

/**
 * Every character a browser would draw with the layer's font and its advance width. A subset draws a
 * character only when its range names it and its file has a glyph for it; where two subsets draw one,
 * their widths must agree (they are cut from one font).
 */
const readAdvances = (
  root: string,
  subsets: FontSubset[],
): { unitsPerEm: number; widths: Map<number, number> } => {
  const widths = new Map<number, number>();
  let unitsPerEm = 0;
  for (const subset of subsets) {
    const font = fontkit.openSync(join(root, 'files', subset.file));
    if (!('glyphForCodePoint' in font)) throw new Error(`${subset.file} is a collection, not one font`);
    if (unitsPerEm !== 0 && font.unitsPerEm !== unitsPerEm)
      throw new Error(`${subset.file}: units per em differ`);
    unitsPerEm = font.unitsPerEm;
    for (const code of font.characterSet) {
      if (!inRanges(code, subset.ranges)) continue;
      const width = font.glyphForCodePoint(code).advanceWidth;
      const known = widths.get(code);
      if (known !== undefined && known !== width)
        throw new Error(
          `U+${code.toString(16)} is ${known} wide in one subset and ${width} in ${subset.file}`,
        );
      widths.set(code, width);
    }
  }
  return { unitsPerEm, widths };
};

/** Consecutive code points as runs `[first, width, …]`, smallest first. */
const toRuns = (widths: Map<number, number>): number[][] => {
  const runs: number[][] = [];
  let run: number[] = [];
  let next = -1;
  for (const code of [...widths.keys()].sort((a, b) => a - b)) {
    if (code !== next) {
      run = [code];
      runs.push(run);
    }
    run.push(widths.get(code) ?? 0);
    next = code + 1;
  }
  return runs;
};

/** The text layer's font data, read from the installed package. */
export const readTextLayerFontData = (): TextLayerFontData => {
  const root = dirname(createRequire(import.meta.url).resolve(`${FONT_PACKAGE}/package.json`));
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const subsets = readSubsets(root);
  const { unitsPerEm, widths } = readAdvances(root, subsets);
  return { package: FONT_PACKAGE, version, unitsPerEm, subsets, advanceRuns: toRuns(widths) };
};
