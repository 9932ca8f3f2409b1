// infra -> the files pdf.js loads at run time, which no bundler can inline: its fake worker
// (`import('./pdf.worker.mjs')` beside the bundle, in Node) and the font, character-map and
// WebAssembly directories the PDF adapter finds through `pdfjs-dist/package.json`, and the CJK fallback
// face it finds through its package's `package.json` (lambdas/adapters/pdf/cjk-face-file.ts).
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { CJK_FACE_FILE, CJK_FACE_PACKAGE } from '../lambdas/adapters/pdf/cjk-face-file';

/** Where the installed pdfjs-dist is, at synth time. */
const pdfjsRoot = (): string => dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/** Where the installed CJK face package is, at synth time. */
const cjkFaceRoot = (): string =>
  dirname(createRequire(import.meta.url).resolve(`${CJK_FACE_PACKAGE}/package.json`));

/**
 * Shell commands copying pdf.js's run-time files into a bundle directory: the worker beside the
 * bundle, and `node_modules/pdfjs-dist/{package.json,standard_fonts,cmaps,wasm}` so that resolving
 * `pdfjs-dist/package.json` from the bundle finds them, as it does in the repository.
 */
export function copyPdfjsAssetsCommands(outputDir: string): string[] {
  const root = pdfjsRoot();
  const target = `${outputDir}/node_modules/pdfjs-dist`;
  return [
    `cp "${root}/legacy/build/pdf.worker.mjs" "${outputDir}/pdf.worker.mjs"`,
    `mkdir -p "${target}"`,
    `cp "${root}/package.json" "${target}/package.json"`,
    `cp -R "${root}/standard_fonts" "${root}/cmaps" "${root}/wasm" "${target}/"`,
  ];
}

/**
 * For the function that draws pages: the CJK fallback face's one file (1.1 MB) and its package.json,
 * where resolving the package from the bundle finds them; not the package's 76 MB.
 */
export function copyCjkFaceCommands(outputDir: string): string[] {
  const face = cjkFaceRoot();
  const target = `${outputDir}/node_modules/${CJK_FACE_PACKAGE}`;
  return [
    `mkdir -p "${target}/${dirname(CJK_FACE_FILE)}"`,
    `cp "${face}/package.json" "${target}/package.json"`,
    `cp "${face}/${CJK_FACE_FILE}" "${target}/${CJK_FACE_FILE}"`,
  ];
}
