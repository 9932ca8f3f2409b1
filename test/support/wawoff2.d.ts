// test support -> the types of `wawoff2` (fontello's WOFF2 codec, compiled from Google's woff2), which ships none.
declare module 'wawoff2' {
  /** The TrueType or OpenType font a WOFF2 file holds. */
  export function decompress(woff2: Uint8Array): Promise<Uint8Array>;
  /** A TrueType or OpenType font as WOFF2. */
  export function compress(font: Uint8Array): Promise<Uint8Array>;
}
