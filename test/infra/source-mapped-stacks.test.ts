// infra -> a deployed function's stack traces: every bundle carries lambdas/hosts/aws/source-mapped-stacks.ts
// (lib/service-function.ts BUNDLE_SETTINGS.inject), which writes a stack's frames at their places in the
// sources, reading the bundle's map only when a stack is first written (no `--enable-source-maps`).
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { DEPLOYED_BUILD_OPTIONS } from '../../lib/service-function';
import { scratchDirsOfThisFile } from '../support/scratch-dirs';
import { SYNTH_DEADLINE_MS, synthesiseLoneFunction } from './synth';

const run = promisify(execFile);
const scratch = scratchDirsOfThisFile();

/** A function's code that fails two calls deep, at line 3 of its source, and prints the stack. */
const FAILING_SOURCE = `export const failDeeply = (reason: string): never => {
  // the throw below is line 3, column 9
  throw new TypeError(reason);
};
function callsIt(): void {
  failDeeply('the fixture failed here');
}
try {
  callsIt();
} catch (error) {
  console.log((error as Error).stack);
}
`;

/** The stack the fixture prints when bundled as a function is, run with the Lambda environment. */
const stackOfBundledFixture = async (prepareMap: (mapFile: string) => void = () => {}) => {
  const outdir = scratch.make('source-mapped-stacks-');
  const source = join(outdir, 'failing-handler.ts');
  writeFileSync(source, FAILING_SOURCE);
  const outfile = join(outdir, 'bundle', 'index.mjs');
  await build({ ...DEPLOYED_BUILD_OPTIONS, entryPoints: [source], outfile });
  prepareMap(`${outfile}.map`);
  const { stdout } = await run(process.execPath, [outfile], {
    env: { PATH: process.env.PATH ?? '', AWS_REGION: 'eu-west-1' },
  });
  return stdout;
};

test('a bundled function’s stack names its source’s files, lines and functions', async () => {
  const stack = await stackOfBundledFixture();
  const frames = stack
    .split('\n')
    .slice(1, 3)
    .map((line) => line.trim());
  expect(stack.split('\n')[0]).toBe('TypeError: the fixture failed here');
  expect(frames).toEqual([
    'at failDeeply (../failing-handler.ts:3:9)',
    'at callsIt (../failing-handler.ts:6:3)',
  ]);
});

test('a missing or unreadable map leaves the bundle’s own places, and the stack is still written', async () => {
  for (const prepare of [(map: string) => rmSync(map), (map: string) => writeFileSync(map, '{ not json')]) {
    const stack = await stackOfBundledFixture(prepare);
    expect(stack.split('\n')[0]).toBe('TypeError: the fixture failed here');
    expect(stack.split('\n')[1]).toMatch(/^ {4}at \S+ \(file:\/\/.+\/bundle\/index\.mjs:\d+:\d+\)$/);
  }
});

test(
  'a synthesised function carries the on-demand stacks and its map, and no --enable-source-maps',
  () => {
    const lone = synthesiseLoneFunction('lambdas/hosts/aws/functions/frame-not-found.ts');
    scratch.removeAfterAll(lone.remove);
    expect(lone.properties.Environment?.Variables?.NODE_OPTIONS).toBeUndefined();
    const map = JSON.parse(readFileSync(join(lone.assetDir, 'index.mjs.map'), 'utf8')) as {
      sources: string[];
    };
    expect(map.sources.some((source) => source.endsWith('lambdas/hosts/aws/source-mapped-stacks.ts'))).toBe(
      true,
    );
  },
  SYNTH_DEADLINE_MS,
);
