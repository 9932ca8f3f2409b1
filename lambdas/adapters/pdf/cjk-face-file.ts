// adapters -> where the CJK fallback face (cjk-fallback-face.ts) is: its package and its file, which a
// bundle ships beside itself (lib/pdfjs-assets.ts, which imports this without loading the canvas).
export const CJK_FACE_PACKAGE = '@fontsource/noto-sans-sc';
export const CJK_FACE_FILE = 'files/noto-sans-sc-chinese-simplified-400-normal.woff2';
