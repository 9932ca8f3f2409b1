// test support -> each function's esbuild bundle made once per version of the sources, shared by every
// test file (and Jest worker) that synthesises the app bundled: app.test.ts and onboarding-frame.test.ts
// bundle the same sandbox stage, and bundling is most of a synthesis's time. CDK stages a bundle from the
// directory its bundling writes to and skips the bundling when that directory already holds one; this
// fills that directory from a cache keyed by the bundling's settings and the content of every file a
// bundle can be made of, so a bundle is esbuild's output for exactly these sources, as without the cache.
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { AssetStaging } from 'aws-cdk-lib';
import { PROJECT_ROOT } from '../../lib/paths';

/** Where the bundles are kept: a directory per digest of the sources, a bundle per bundling's settings. */
export const BUNDLE_CACHE_ROOT = join(tmpdir(), 'contract-service-bundles');

/** What a bundle is made of: the code, the infrastructure that says how, and the installed packages. */
const SOURCES = [
  'lambdas',
  'frontend',
  'clients',
  'lib',
  'package.json',
  'package-lock.json',
  'patches',
  'tsconfig.json',
];

/** A lock older than this whose holder still runs is a hung bundling, reported rather than waited on. */
const LOCK_DEADLINE_MS = 600_000;

/** A digest of the other sources' caches older than this is another checkout's or an old run's. */
const STALE_MS = 6 * 60 * 60 * 1000;

const filesUnder = (path: string): string[] => {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.name !== 'node_modules' && entry.name !== 'dist')
    .flatMap((entry) => filesUnder(join(path, entry.name)));
};

/** The digest of the path (relative to `root`) and content of every file of `sources` (paths under `root`). */
export const digestOf = (sources: readonly string[], root = PROJECT_ROOT): string => {
  const hash = createHash('sha256');
  for (const file of sources.flatMap((source) => filesUnder(join(root, source))).sort()) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 32);
};

/** The digest of every source file a bundle can be made of. */
export const sourcesDigest = (): string => digestOf(SOURCES);

/** Counts of this process's bundles, by where they came from (a test of the cache reads them). */
export const bundleCounts = { bundled: 0, fromCache: 0 };

const pause = (milliseconds: number) =>
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, milliseconds);

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Takes the lock on `entry` (true), or waits until another process has made the entry (false). A lock whose
 * process has ended (a worker Jest killed) is taken over.
 */
export const lockOrAwait = (entry: string, what: string): boolean => {
  const lock = `${entry}.lock`;
  const started = Date.now();
  for (;;) {
    if (existsSync(entry)) return false;
    try {
      // Another checkout's run may have pruned the directory as stale since this process began.
      mkdirSync(dirname(lock), { recursive: true });
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(readFileIfAny(join(lock, 'pid')));
    if (holder && !isRunning(holder)) rmSync(lock, { recursive: true, force: true });
    else if (Date.now() - started > LOCK_DEADLINE_MS)
      throw new Error(`waited ${LOCK_DEADLINE_MS} ms for process ${holder} to bundle ${what} (lock ${lock})`);
    else pause(100);
  }
};

const readFileIfAny = (file: string): string => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

/**
 * Removes the caches under `root` of sources nobody has used for a while, so the temporary directory does not
 * grow, and marks `current`'s as in use (not stale to another checkout's run).
 */
export const pruneStale = (root: string, current: string) => {
  const directory = join(root, current);
  mkdirSync(directory, { recursive: true });
  utimesSync(directory, new Date(), new Date());
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    if (name !== current && Date.now() - statSync(path).mtimeMs > STALE_MS)
      rmSync(path, { recursive: true, force: true });
  }
};

type CommandHooks = Partial<Record<string, (inputDir: string, outputDir: string) => string[]>>;

const hookCommands = (hooks: CommandHooks) =>
  Object.fromEntries(Object.entries(hooks).map(([name, hook]) => [name, hook?.('<input>', '<output>')]));

let installed = false;

/** Makes this process's bundlings go through the cache (once; a synthesis without bundling is unaffected). */
export function useBundleCache(): void {
  if (installed) return;
  installed = true;
  const digest = sourcesDigest();
  pruneStale(BUNDLE_CACHE_ROOT, digest);
  const directory = join(BUNDLE_CACHE_ROOT, digest);
  type Bundle = (this: AssetStaging, options: unknown, bundleDir: string) => void;
  const prototype = AssetStaging.prototype as unknown as { bundle: Bundle };
  const bundle = prototype.bundle;
  prototype.bundle = function (this, options, bundleDir) {
    if (existsSync(bundleDir)) return bundle.call(this, options, bundleDir);
    // The hooks are functions, which JSON leaves out: their commands are part of the settings. The settings
    // name the checkout's directory; the same bundling of the same sources in another one is the same.
    const settings = JSON.stringify(options, (key, value) =>
      key === 'commandHooks' ? hookCommands(value as CommandHooks) : value,
    ).replaceAll(PROJECT_ROOT, '<root>');
    const entry = join(directory, createHash('sha256').update(settings).digest('hex').slice(0, 32));
    if (lockOrAwait(entry, this.node.path)) {
      try {
        bundle.call(this, options, bundleDir);
        bundleCounts.bundled += 1;
        const partial = `${entry}.partial-${process.pid}`;
        cpSync(bundleDir, partial, { recursive: true, verbatimSymlinks: true });
        renameSync(partial, entry);
        return;
      } finally {
        rmSync(`${entry}.lock`, { recursive: true, force: true });
      }
    }
    cpSync(entry, bundleDir, { recursive: true, verbatimSymlinks: true });
    bundleCounts.fromCache += 1;
  };
}
