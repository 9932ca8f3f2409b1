// test support -> each function's esbuild bundle made once per version of the sources, shared by every
// test file (and Jest worker) that synthesises the app bundled: app.test.ts and onboarding-frame.test.ts
// bundle the same sandbox stage, and bundling is most of a synthesis's time. CDK stages a bundle from the
// directory its bundling writes to and skips the bundling when that directory already holds one; this
// fills that directory from a cache keyed by the bundling's settings and the content of every file a
// bundle can be made of, so a bundle is esbuild's output for exactly these sources, as without the cache.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, relative } from 'node:path';
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

/** Counts of this process's bundles, by where they came from, and of those it put in the cache in a batch. */
export const bundleCounts = { bundled: 0, fromCache: 0, batched: 0 };

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
 * Takes the lock on `entry` (true), or leaves it to the process that holds it or has made the entry (false).
 * A lock whose process has ended (a worker Jest killed) is taken over.
 */
const tryLock = (entry: string): boolean => {
  const lock = `${entry}.lock`;
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
  if (!holder || isRunning(holder)) return false;
  rmSync(lock, { recursive: true, force: true });
  return tryLock(entry);
};

/**
 * Takes the lock on `entry` (true), or waits until another process has made the entry (false). A lock whose
 * process has ended (a worker Jest killed) is taken over.
 */
export const lockOrAwait = (entry: string, what: string): boolean => {
  const started = Date.now();
  for (;;) {
    if (tryLock(entry)) return true;
    if (existsSync(entry)) return false;
    if (Date.now() - started > LOCK_DEADLINE_MS) {
      const holder = readFileIfAny(join(`${entry}.lock`, 'pid'));
      throw new Error(
        `waited ${LOCK_DEADLINE_MS} ms for process ${holder} to bundle ${what} (lock ${entry}.lock)`,
      );
    }
    pause(100);
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

type Bundle = (this: AssetStaging, options: unknown, bundleDir: string) => void;
const prototype = AssetStaging.prototype as unknown as { bundle: Bundle };
/** CDK's own staging of a bundle, which the cache wraps. */
const stageByCdk = prototype.bundle;

/** This process's cache (set by `useBundleCache`): a directory per bundling's settings. */
let cacheDirectory: string | undefined;

/** The entry of the cache for a bundling's settings. */
const entryOf = (options: unknown): string => {
  if (!cacheDirectory) throw new Error('useBundleCache() first');
  // The hooks are functions, which JSON leaves out: their commands are part of the settings. The settings
  // name the checkout's directory; the same bundling of the same sources in another one is the same.
  const settings = JSON.stringify(options, (key, value) =>
    key === 'commandHooks' ? hookCommands(value as CommandHooks) : value,
  ).replaceAll(PROJECT_ROOT, '<root>');
  return join(cacheDirectory, createHash('sha256').update(settings).digest('hex').slice(0, 32));
};

/** Stages bundles through the cache: from it when it has the settings' bundle, else bundled and kept. */
const stageThroughCache: Bundle = function (options, bundleDir) {
  if (existsSync(bundleDir)) return stageByCdk.call(this, options, bundleDir);
  const entry = entryOf(options);
  if (lockOrAwait(entry, this.node.path)) {
    try {
      stageByCdk.call(this, options, bundleDir);
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

/**
 * Makes this process's bundlings go through the cache under `root` (once: the first call's root is the
 * process's; a synthesis without bundling is unaffected).
 */
export function useBundleCache(root = BUNDLE_CACHE_ROOT): void {
  if (cacheDirectory) return;
  const digest = sourcesDigest();
  pruneStale(root, digest);
  cacheDirectory = join(root, digest);
  prototype.bundle = stageThroughCache;
}

/** A step of CDK's local bundling of a NodejsFunction (aws-lambda-nodejs's Bundling, not exported). */
type BundlingStep =
  | { type: 'spawn'; command: string[]; cwd?: string }
  | { type: 'shell'; commands: string[] }
  | { type: 'callback'; operation: () => void };

/** What of aws-lambda-nodejs's Bundling the batch uses: the steps its local bundling runs, and their runner. */
interface NodejsBundling {
  readonly props: { readonly environment?: Record<string, string> };
  createBundlingSteps(
    scope: AssetStaging,
    options: {
      inputDir: string;
      outputDir: string;
      pathJoin: (...paths: string[]) => string;
      esbuildRunner: string[];
      createFileOps: (dependencies: unknown) => BundlingStep[];
    },
  ): BundlingStep[];
  localFileOps(outputDir: string, dependencies: unknown): BundlingStep[];
  executeBundlingSteps(scope: AssetStaging, steps: BundlingStep[]): void;
}

const isNodejsBundling = (options: unknown): options is NodejsBundling =>
  typeof (options as Partial<NodejsBundling>).createBundlingSteps === 'function';

/** A function the batch bundles: its staging (for CDK's errors), bundling, steps, and where they write. */
interface Planned {
  readonly entry: string;
  readonly partial: string;
  readonly scope: AssetStaging;
  readonly bundling: NodejsBundling;
  readonly esbuild: string[];
  readonly rest: BundlingStep[];
}

/** The esbuild CDK's bundling runs (`npx --no-install esbuild` finds the same binary). */
const ESBUILD = join(PROJECT_ROOT, 'node_modules', '.bin', 'esbuild');

/**
 * Fills the cache, before a synthesis, with the bundle of every function that `construct` (building the app
 * in the directory it is given) bundles and the cache lacks. Each function's steps are the ones CDK's local
 * bundling makes for it (lib/service-function.ts's settings), but the functions whose esbuild commands differ
 * only in the entry point and the output file are bundled by one esbuild run, all their entry points at once
 * (esbuild's `out=in` form): it starts once rather than once a function through `npx`, and reads and parses
 * the modules they share (the SDK, the core) once. The other steps (the hooks' copies, `npm ci`) run after it
 * as CDK runs them. A bundle so made is byte for byte the one CDK's bundling makes (bundle-batch.test.ts).
 */
export function fillBundleCache(construct: (outdir: string) => void): void {
  useBundleCache();
  const planned = new Map<string, Planned>();
  const scratch = mkdtempSync(join(tmpdir(), 'bundle-batch-'));
  // The app is built once to learn its bundlings, each staged as a placeholder and the build thrown away.
  prototype.bundle = function (this, options, bundleDir) {
    const entry = isNodejsBundling(options) ? entryOf(options) : undefined;
    if (entry && !planned.has(entry) && tryLock(entry)) {
      const bundling = options as NodejsBundling;
      const partial = `${entry}.partial-${process.pid}`;
      const [esbuild, ...rest] = bundling.createBundlingSteps(this, {
        inputDir: PROJECT_ROOT,
        outputDir: partial,
        pathJoin: join,
        esbuildRunner: [ESBUILD],
        createFileOps: (dependencies) => bundling.localFileOps(partial, dependencies),
      });
      if (esbuild?.type === 'spawn' && esbuild.command[0] === ESBUILD)
        planned.set(entry, { entry, partial, scope: this, bundling, esbuild: esbuild.command, rest });
      else rmSync(`${entry}.lock`, { recursive: true, force: true });
    }
    mkdirSync(bundleDir, { recursive: true });
    writeFileSync(join(bundleDir, 'placeholder'), '');
  };
  try {
    construct(scratch);
    prototype.bundle = stageThroughCache;
    for (const batch of batchesOf([...planned.values()])) bundleTogether(batch);
  } finally {
    prototype.bundle = stageThroughCache;
    rmSync(scratch, { recursive: true, force: true });
    for (const { entry, partial } of planned.values()) {
      rmSync(partial, { recursive: true, force: true });
      rmSync(`${entry}.lock`, { recursive: true, force: true });
    }
  }
}

/** The esbuild command's arguments other than its entry point and output file, with the output's extension. */
const sharedArguments = ({ esbuild, bundling }: Planned) => {
  const outfile = esbuild.find((argument) => argument.startsWith('--outfile='));
  if (!outfile) throw new Error(`no --outfile in ${esbuild.join(' ')}`);
  return {
    extension: extname(outfile),
    shared: esbuild.slice(3).filter((argument) => argument !== outfile),
    environment: bundling.props.environment ?? {},
  };
};

/** The planned functions grouped by the esbuild settings they share. */
const batchesOf = (functions: Planned[]): Planned[][] => {
  const batches = new Map<string, Planned[]>();
  for (const planned of functions) {
    const key = JSON.stringify(sharedArguments(planned));
    batches.set(key, [...(batches.get(key) ?? []), planned]);
  }
  return [...batches.values()];
};

/** One esbuild run for the batch's functions (`[esbuild, '--bundle', entry, ...settings]` each), then their other steps. */
const bundleTogether = (batch: Planned[]) => {
  const [first] = batch;
  if (!first || !cacheDirectory) return;
  const { extension, shared, environment } = sharedArguments(first);
  const entryPoints = batch.map(({ esbuild, partial }) => {
    // As CDK's bundling makes its output directory, writable by a container's user too.
    mkdirSync(partial);
    chmodSync(partial, 0o777);
    return `${relative(cacheDirectory as string, join(partial, 'index'))}=${esbuild[2]}`;
  });
  execFileSync(
    ESBUILD,
    ['--bundle', ...entryPoints, `--outdir=${cacheDirectory}`, `--out-extension:.js=${extension}`, ...shared],
    { cwd: PROJECT_ROOT, env: { ...process.env, ...environment }, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  for (const { entry, partial, scope, bundling, rest } of batch) {
    bundling.executeBundlingSteps(scope, rest);
    renameSync(partial, entry);
    rmSync(`${entry}.lock`, { recursive: true, force: true });
    bundleCounts.batched += 1;
  }
};
