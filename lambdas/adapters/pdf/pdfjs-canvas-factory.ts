// adapters -> the canvases pdf.js makes for itself while it draws a page (an image at its own size before
// it is scaled, a soft mask, a transparency group), made with @napi-rs/canvas as pdf.js's own Node factory
// does, but refused past a size: a 57 KB file can ask for a 151-megapixel canvas (a 2×2 image under a
// 34,862×4,332 soft mask), whose pixels take 600 MB and some 20 s to fill. Refused, the page's drawing
// fails at once, and the page is shown as a placeholder.
import { type Canvas, createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { withCjkFallback } from './cjk-fallback-face';

interface CanvasAndContext {
  canvas: Canvas | null;
  context: SKRSContext2D | null;
}

/** A pdf.js `CanvasFactory` class whose canvases hold at most `maxPixels` pixels. */
export const boundedCanvasFactory = (maxPixels: number) =>
  class BoundedCanvasFactory {
    create(width: number, height: number): CanvasAndContext {
      checkSize(width, height, maxPixels);
      const canvas = createCanvas(width, height);
      return { canvas, context: withCjkFallback(canvas.getContext('2d')) };
    }

    reset(canvasAndContext: CanvasAndContext, width: number, height: number): void {
      if (!canvasAndContext.canvas) throw new Error('Canvas is not specified');
      checkSize(width, height, maxPixels);
      canvasAndContext.canvas.width = width;
      canvasAndContext.canvas.height = height;
    }

    destroy(canvasAndContext: CanvasAndContext): void {
      if (!canvasAndContext.canvas) throw new Error('Canvas is not specified');
      // Skia's pixels go now, not when the garbage collector gets to the canvas.
      canvasAndContext.canvas.width = 0;
      canvasAndContext.canvas.height = 0;
      canvasAndContext.canvas = null;
      canvasAndContext.context = null;
    }

    getNoAlphaContext(canvas: Canvas): SKRSContext2D {
      return withCjkFallback(canvas.getContext('2d', { alpha: false }));
    }
  };

const checkSize = (width: number, height: number, maxPixels: number): void => {
  if (!(width > 0 && height > 0)) throw new Error('Invalid canvas size');
  if (width * height > maxPixels)
    throw new Error(
      `The page needs a canvas of ${width}×${height} pixels; at most ${maxPixels.toLocaleString('en')} are drawn.`,
    );
};
