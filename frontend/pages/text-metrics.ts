// frontend/pages -> the advance widths of the text layer's font, so each run can be stretched to the
// width the PDF gives it without a script to measure it. The layer is set in Arial or a font with
// Arial's metrics (Liberation Sans, Helvetica), whose widths these are (per 1000 em, from Helvetica's
// AFM, which Arial and Liberation Sans match).

/** Widths of the printable ASCII characters, from space (32) to tilde (126). */
const ASCII_WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556,
  556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278,
  500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469,
  556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500,
  278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

/** A few common characters beyond ASCII (typographic quotes and dashes, the bullet). */
const OTHER_WIDTHS: Readonly<Record<string, number>> = {
  '‘': 222,
  '’': 222,
  '“': 333,
  '”': 333,
  '–': 556,
  '—': 1000,
  '•': 350,
  '…': 1000,
  ' ': 278,
};

/** What an unknown character is taken to be: an average letter. */
const DEFAULT_WIDTH = 556;

/** The width of `text` in the layer's font, in ems. */
export const textWidthEm = (text: string): number => {
  let total = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    total += (code >= 32 && code <= 126 ? ASCII_WIDTHS[code - 32] : OTHER_WIDTHS[char]) ?? DEFAULT_WIDTH;
  }
  return total / 1000;
};
