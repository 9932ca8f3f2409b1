// infra -> the files pdf.js loads at run time, which no bundler can inline: its fake worker
// (`import('./pdf.worker.mjs')` beside the bundle, in Node) and the font, character-map and
// WebAssembly directories the PDF adapter finds through `pdfjs-dist/package.json`.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

/** Where the installed pdfjs-dist is, at synth time. */
const pdfjsRoot = (): string => dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

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
