// bin -> `npm run fonts`: writes lambdas/pages/text-layer-font-data.ts from the installed font package,
// after an upgrade of it (the unit tests fail until the data matches the package again).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readTextLayerFontData } from '../lambdas/pages/text-layer-font-source';

const target = fileURLToPath(new URL('../lambdas/pages/text-layer-font-data.ts', import.meta.url));
const data = readTextLayerFontData();

writeFileSync(
  target,
  [
    `// pages -> the text layer's font, as read from ${data.package}@${data.version} by \`npm run fonts\``,
    '// (bin/fonts.ts): do not edit by hand.',
    "import type { TextLayerFontData } from './text-layer-font-shape';",
    '',
    `export const TEXT_LAYER_FONT_DATA: TextLayerFontData = ${JSON.stringify(data)};`,
    '',
  ].join('\n'),
);
// Into the project's own format, so the check in `npm test` passes on the file as written.
execFileSync(
  fileURLToPath(new URL('../node_modules/.bin/biome', import.meta.url)),
  ['format', '--write', target],
  {
    stdio: 'inherit',
  },
);
console.log(`${target}: ${data.subsets.length} subsets, ${data.advanceRuns.length} runs of widths`);
