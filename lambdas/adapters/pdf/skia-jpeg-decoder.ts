// adapters -> the JPEG images of a PDF (DCTDecode) decoded by Skia's native decoder (libjpeg-turbo, in
// @napi-rs/canvas) rather than pdf.js's JavaScript one, which spent some 0.35 s of CPU on each page of a
// 300 dpi scan and handed the page a 26 MB RGB buffer to convert and copy again. pdf.js decodes a JPEG
// with the browser's WebCodecs `ImageDecoder` where it has one and is allowed to (`isImageDecoderSupported`);
// Node has none, so `SkiaJpegDecoder` is the part of that interface pdf.js calls. pdf.js itself decides
// which images come here (8-bit RGB without a Decode array, not CMYK, EXIF orientation blanked) and
// decodes every other image, and any JPEG this refuses, as before.
import { createRequire } from 'node:module';
import type { Canvas, Image } from '@napi-rs/canvas';

/** What `new ImageDecoder(init)` is given by pdf.js (WebCodecs' `ImageDecoderInit`, the parts it sets). */
export interface ImageDecoderInit {
  data: Uint8Array;
  type: string;
  desiredWidth?: number;
  desiredHeight?: number;
}

/**
 * A decoded image as pdf.js's canvas draws it: Skia's image (or, scaled, a canvas), with its size as a
 * WebCodecs `VideoFrame` names it and `close()`, which pdf.js calls when the page's objects are freed.
 */
export type DecodedFrame = (Image | Canvas) & {
  readonly displayWidth: number;
  readonly displayHeight: number;
  close(): void;
};

// Loaded on the first decode: the PDF inspector shares pdf.js's set-up with the renderer and never
// draws, so it never loads the native canvas package.
const canvasPackage = () =>
  createRequire(import.meta.url)('@napi-rs/canvas') as typeof import('@napi-rs/canvas');

/** The frames this thread's decoders made: pdf.js hands them to its canvas, which no clone may replace. */
const frames = new WeakSet<object>();

/** Whether `value` is an image decoded here (pdfjs-in-thread-worker.ts passes it on as it is). */
export const isDecodedFrame = (value: unknown): value is DecodedFrame =>
  typeof value === 'object' && value !== null && frames.has(value);

/** JPEG images decoded so far in this thread: how a test sees that the native path was taken. */
export let jpegDecodes = 0;

export class SkiaJpegDecoder {
  /** pdf.js asks once per type; JPEG alone is taken (its image resizer asks for BMP, which stays its own). */
  static isTypeSupported(type: string): Promise<boolean> {
    return Promise.resolve(type === 'image/jpeg');
  }

  private readonly init: ImageDecoderInit;

  constructor(init: ImageDecoderInit) {
    if (init.type !== 'image/jpeg') throw new Error(`Only JPEG is decoded here, not ${init.type}`);
    this.init = init;
  }

  /**
   * The image, at `desiredWidth` × `desiredHeight` when pdf.js asks for a smaller one (an image larger
   * than 2048 pixels a side, which pdf.js halves until it fits). Rejects when Skia cannot read it: pdf.js
   * then decodes it itself.
   */
  async decode(): Promise<{ image: DecodedFrame }> {
    const { Image, createCanvas } = canvasPackage();
    const { data, desiredWidth, desiredHeight } = this.init;
    const image = new Image();
    image.src = Buffer.from(data);
    // Decoded on libuv's threads; awaited, the image also lets go of what it holds for that (left
    // pending, a thread that ends warns "ObjectRef is not unref").
    await image.decode();
    if (!(image.complete && image.width > 0 && image.height > 0))
      throw new Error('Skia cannot decode this JPEG');
    jpegDecodes++;
    if (desiredWidth === undefined || desiredHeight === undefined)
      return { image: frame(image, image.width, image.height) };
    const scaled = createCanvas(desiredWidth, desiredHeight);
    const context = scaled.getContext('2d', { alpha: false });
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = 'high';
    context.drawImage(image, 0, 0, desiredWidth, desiredHeight);
    return { image: frame(scaled, desiredWidth, desiredHeight) };
  }

  close(): void {}
}

/**
 * `close()` frees nothing: pdf.js closes a page's images as it frees the page, before the page's canvas
 * is encoded, and Skia may draw an image into that canvas only then (it records draws): pixels freed at
 * `close()` came out as a blank page. They go when the image is collected.
 */
const frame = (image: Image | Canvas, displayWidth: number, displayHeight: number): DecodedFrame => {
  const decoded = Object.assign(image, { displayWidth, displayHeight, close: () => {} });
  frames.add(decoded);
  return decoded;
};

// pdf.js looks for an `ImageDecoder` once, as its worker code loads: this module is imported, for this
// line, before pdf.js is (pdfjs-document.ts). A document uses it only when opened with
// `isImageDecoderSupported`, which needs the in-thread worker (pdfjs-in-thread-worker.ts): pdf.js's own
// clones every message. Where a real ImageDecoder exists (a browser), it is left alone.
(globalThis as { ImageDecoder?: unknown }).ImageDecoder ??= SkiaJpegDecoder;
