// bench -> section 6: every deployed function's bundle as `cdk synth` makes it (esbuild with the settings
// of lib/service-function.ts), its size (index.mjs and the files beside it: pdf.js's worker and data for
// the functions that read PDFs; the source map beside each is written too but left out of the size, as it is
// read only when a stack trace is first written: lambdas/hosts/aws/source-mapped-stacks.ts) and its cold module
// initialisation: the import of the bundle in a fresh Node process with the Lambda environment set,
// median of 5, against importing an empty module the same way in the same run.
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { fromRoot } from '../lib/paths';
import { DEPLOYED_BUILD_OPTIONS } from '../lib/service-function';
import { median, ms, round, table, verdict } from './report';

const run = promisify(execFile);

const ENTRIES = fromRoot('lambdas/hosts/aws/functions');
const RUNS = 5;
const GOALS = { bytes: 1_000_000, initMs: 150 } as const;

/** What a deployed function's process has in its environment before the handler module loads. */
const LAMBDA_ENVIRONMENT = {
  AWS_REGION: 'eu-west-1',
  AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024',
  SERVICE_ENVIRONMENT: 'sandbox',
  // Read when the identity provider's entry loads (every deployed one has it).
  IDENTITY_ISSUER: 'https://id.example.com',
};

/** Bytes of every file under `target` (a file or a directory). */
const bytesOf = async (target: string): Promise<number> => {
  const info = await stat(target);
  if (!info.isDirectory()) return info.size;
  let sum = 0;
  for (const entry of await readdir(target)) sum += await bytesOf(path.join(target, entry));
  return sum;
};

/** pdf.js's files a function that reads PDFs ships beside its bundle (lib/pdfjs-assets.ts). */
const pdfjsFilesBytes = async (): Promise<number> => {
  const root = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  const parts = ['legacy/build/pdf.worker.mjs', 'package.json', 'standard_fonts', 'cmaps', 'wasm'];
  let sum = 0;
  for (const part of parts) sum += await bytesOf(path.join(root, part));
  return sum;
};

/** Milliseconds a fresh Node process takes to import `file`, measured inside it. */
const importMs = async (file: string): Promise<number> => {
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(performance.now() - t);`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH ?? '', ...LAMBDA_ENVIRONMENT },
  });
  return Number(stdout.trim().split('\n').at(-1));
};

interface FunctionFigures {
  name: string;
  readsPdfs: boolean;
  codeBytes: number;
  besideBytes: number;
  initMs: number[];
}

export const functionsSection = async (workDir: string, progress: (message: string) => void) => {
  const names = (await readdir(ENTRIES))
    .filter((file) => file.endsWith('.ts'))
    .map((file) => file.slice(0, -3));
  const pdfjsBytes = await pdfjsFilesBytes();
  const empty = path.join(workDir, 'functions', 'empty.mjs');
  await mkdir(path.dirname(empty), { recursive: true });
  await writeFile(empty, '');
  const baseline: number[] = [];
  for (let i = 0; i < RUNS; i++) baseline.push(await importMs(empty));

  const figures: FunctionFigures[] = [];
  for (const name of names.sort()) {
    progress(`functions: bundling and importing ${name}…`);
    const entry = path.join(ENTRIES, `${name}.ts`);
    const outfile = path.join(workDir, 'functions', name, 'index.mjs');
    await build({ ...DEPLOYED_BUILD_OPTIONS, entryPoints: [entry], outfile });
    const source = await readFile(entry, 'utf8');
    const readsPdfs = source.includes('lazy-pdf-ports');
    // The rendering function has @napi-rs/canvas installed beside its bundle (lib/service-function.ts).
    if (source.includes('lazyRenderer')) {
      await mkdir(path.join(path.dirname(outfile), 'node_modules'), { recursive: true });
      await symlink(
        fromRoot('node_modules/@napi-rs'),
        path.join(path.dirname(outfile), 'node_modules/@napi-rs'),
      );
    }
    const initMs: number[] = [];
    for (let i = 0; i < RUNS; i++) initMs.push(await importMs(outfile));
    figures.push({
      name,
      readsPdfs,
      codeBytes: (await stat(outfile)).size,
      besideBytes: readsPdfs ? pdfjsBytes : 0,
      initMs,
    });
  }

  const baselineMs = median(baseline);
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(0)} KB`;
  const meets = (f: FunctionFigures) =>
    f.codeBytes + f.besideBytes < GOALS.bytes && median(f.initMs) < GOALS.initMs;
  console.log(
    `\n6. Deployed functions: bundle (index.mjs, and pdf.js's files beside it where PDFs are read) and cold ` +
      `module initialisation (import in a fresh Node process with the Lambda environment, median of ${RUNS}; ` +
      `an empty module: ${ms(baselineMs)})\n`,
  );
  console.log(
    table([
      [
        'function',
        'reads PDFs',
        'index.mjs',
        'beside',
        'total',
        'init',
        'init − empty',
        `goal < 1 MB, < ${GOALS.initMs} ms`,
      ],
      ...figures.map((f) => [
        f.name,
        f.readsPdfs ? 'yes' : 'no',
        kb(f.codeBytes),
        kb(f.besideBytes),
        kb(f.codeBytes + f.besideBytes),
        ms(median(f.initMs)),
        ms(median(f.initMs) - baselineMs),
        f.readsPdfs ? 'reported' : verdict(meets(f)),
      ]),
    ]),
  );
  const others = figures.filter((f) => !f.readsPdfs);
  console.log(
    `\n   functions without PDFs: ${others.filter(meets).length} of ${others.length} under 1 MB and ${GOALS.initMs} ms; ` +
      `largest ${kb(Math.max(...others.map((f) => f.codeBytes)))}, slowest ${ms(Math.max(...others.map((f) => median(f.initMs))))}`,
  );
  console.log(
    `\n${JSON.stringify({
      functions: {
        runs: RUNS,
        empty_module_init_ms: round(baselineMs, 1),
        figures: figures.map((f) => ({
          name: f.name,
          reads_pdfs: f.readsPdfs,
          index_mjs_bytes: f.codeBytes,
          beside_bytes: f.besideBytes,
          init_median_ms: round(median(f.initMs), 1),
          init_runs_ms: f.initMs.map((value) => round(value, 1)),
        })),
        goal_met_by_all_without_pdfs: others.every(meets),
      },
    })}`,
  );
};
