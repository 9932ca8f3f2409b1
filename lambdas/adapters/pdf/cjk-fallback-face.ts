// adapters -> a Chinese, Japanese (kana) face for text whose font the PDF does not embed. pdf.js draws such
// text with the canvas's `fillText` in the font's name and a generic family (`serif`, `sans-serif`),
// neither of which has CJK glyphs on a server (nor in Lambda), so each character came out as a notdef
// box. Readers of record draw it in a fallback face; so does this: Noto Sans SC (SIL Open Font License),
// its `chinese-simplified` subset from `@fontsource/noto-sans-sc` (7,333 Han characters, kana, CJK
// punctuation and full-width forms, 1.1 MB of WOFF2), registered with Skia the first time a thread draws
// such a character, never before (decoding it takes about half a second).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import { hasCjk } from '../../core/cjk-text';
import { CJK_FACE_FILE, CJK_FACE_PACKAGE } from './cjk-face-file';

/** The family the face is registered as: a name of our own, so that no installed font stands in. */
export const CJK_FALLBACK_FAMILY = 'Contract CJK Fallback';

let registered: boolean | undefined;

/** Registers the face once per thread; false (and boxes, as before) if its file cannot be read. */
const ensureRegistered = (): boolean => {
  if (registered === undefined) {
    try {
      const root = dirname(createRequire(import.meta.url).resolve(`${CJK_FACE_PACKAGE}/package.json`));
      registered =
        GlobalFonts.register(readFileSync(join(root, CJK_FACE_FILE)), CJK_FALLBACK_FAMILY) !== null;
    } catch {
      registered = false;
    }
  }
  return registered;
};

/** Contexts already given the fallback (pdf.js asks for a page's context again). */
const withFallback = new WeakSet<SKRSContext2D>();

type TextDrawing = (text: string, x: number, y: number, maxWidth?: number) => void;

/**
 * Makes `context` draw CJK text in the fallback face when the font pdf.js names has no glyph for it:
 * the face is added as the last family of the font while such a text is drawn (Skia takes each
 * character from the first family that has it), and only then. Text in an embedded font never comes
 * here: pdf.js draws embedded glyphs as paths.
 */
export const withCjkFallback = (context: SKRSContext2D): SKRSContext2D => {
  if (withFallback.has(context)) return context;
  withFallback.add(context);
  for (const method of ['fillText', 'strokeText'] as const) {
    const bound = context[method].bind(context) as TextDrawing;
    // An explicit undefined width would be read as NaN: no text drawn.
    const draw: TextDrawing = (text, x, y, maxWidth) =>
      maxWidth === undefined ? bound(text, x, y) : bound(text, x, y, maxWidth);
    const withFace: TextDrawing = (text, x, y, maxWidth) => {
      if (!hasCjk(text) || !ensureRegistered()) return draw(text, x, y, maxWidth);
      const font = context.font;
      context.font = `${font}, "${CJK_FALLBACK_FAMILY}"`;
      try {
        draw(text, x, y, maxWidth);
      } finally {
        context.font = font;
      }
    };
    context[method] = withFace as SKRSContext2D[typeof method];
  }
  return context;
};
