// infra -> the text layer's font files, which the page publishers store beside every hosted page
// (lambdas/pages/text-layer-font.ts) and read at run time through the font package's `package.json`.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { TEXT_LAYER_FONT_DATA } from '../lambdas/pages/text-layer-font-data';

/**
 * Shell commands copying the font package's `package.json` and the WOFF2 subsets the pages use into
 * `node_modules/` of a bundle directory, so that resolving the package from the bundle finds them, as it
 * does in the repository.
 */
export function copyTextLayerFontCommands(outputDir: string): string[] {
  const name = TEXT_LAYER_FONT_DATA.package;
  const root = dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
  const target = `${outputDir}/node_modules/${name}`;
  return [
    `mkdir -p "${target}/files"`,
    `cp "${root}/package.json" "${target}/package.json"`,
    ...TEXT_LAYER_FONT_DATA.subsets.map(({ file }) => `cp "${root}/files/${file}" "${target}/files/${file}"`),
  ];
}
