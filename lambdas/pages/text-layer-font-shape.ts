// pages -> what the text layer's font data hold (written by `npm run fonts`, read by the pages).

export interface FontSubset {
  /** The package's WOFF2 file of this subset, under `files/`. */
  file: string;
  /** The CSS `unicode-range` of the subset, as the package declares it. */
  unicodeRange: string;
  /** The same range as inclusive code point pairs. */
  ranges: Array<[number, number]>;
}

export interface TextLayerFontData {
  /** The npm package whose files the pages ship, and the version these data were read from. */
  package: string;
  version: string;
  unitsPerEm: number;
  subsets: FontSubset[];
  /** Advance widths in font units, as runs of consecutive code points: `[first, width, width, …]`. */
  advanceRuns: number[][];
}
