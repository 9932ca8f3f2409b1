// test support -> each configuration of the app synthesised once per version of the sources, its cloud
// assembly shared by every test file (and Jest worker) that asks for the same one: a synthesis (cdk-nag's
// checks, the templates, the assets) is most of an infra test file's time, and several files read the same
// app. An entry is keyed by the digest of every file the synthesis reads and by the configuration's
// settings; it is written by one process under a lock, renamed into place whole, and read, never written,
// by the others.
import { createHash } from 'node:crypto';
import { renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../lib/paths';
import { digestOf, lockOrAwait, pruneStale } from './bundle-cache';

/** Where the assemblies are kept: a directory per digest of the sources, an assembly per configuration. */
export const ASSEMBLY_CACHE_ROOT = join(tmpdir(), 'contract-service-assemblies');

/**
 * What a synthesis of the app reads: the infrastructure and the code it bundles, the installed packages, the
 * scripts and context the app is built with, and the test support that builds it.
 */
export const SYNTHESIS_SOURCES = [
  'lambdas',
  'frontend',
  'clients',
  'lib',
  'bin',
  'cdk.json',
  'package.json',
  'package-lock.json',
  'patches',
  'tsconfig.json',
  'test/infra/synth.ts',
  'test/infra/assembly-cache.ts',
  'test/infra/bundle-cache.ts',
];

/** Counts of this process's assemblies, by where they came from (a test of the cache reads them). */
export const assemblyCounts = { synthesised: 0, fromCache: 0 };

export interface AssemblyKey {
  /** The configuration: whatever makes two syntheses of the same sources differ (JSON). */
  readonly settings: unknown;
  /** What the synthesis is, for a message about a hung one. */
  readonly what: string;
  readonly sources?: readonly string[];
  readonly projectRoot?: string;
  readonly cacheRoot?: string;
}

/**
 * The directory of the cloud assembly `synthesise` writes into the directory it is given, for these settings
 * and these sources: synthesised by this process, or by another that did (or is doing) the same. Read it,
 * never write it: other test files read it too.
 */
export function cachedAssembly(
  {
    settings,
    what,
    sources = SYNTHESIS_SOURCES,
    projectRoot = PROJECT_ROOT,
    cacheRoot = ASSEMBLY_CACHE_ROOT,
  }: AssemblyKey,
  synthesise: (outdir: string) => void,
): string {
  const digest = digestOf(sources, projectRoot);
  pruneStale(cacheRoot, digest);
  const entry = join(
    cacheRoot,
    digest,
    createHash('sha256').update(JSON.stringify(settings)).digest('hex').slice(0, 32),
  );
  if (!lockOrAwait(entry, what)) {
    assemblyCounts.fromCache += 1;
    return entry;
  }
  const partial = `${entry}.partial-${process.pid}`;
  try {
    synthesise(partial);
    assemblyCounts.synthesised += 1;
    // A CDK assembly names its files relative to its directory: it reads the same once moved.
    renameSync(partial, entry);
    return entry;
  } finally {
    rmSync(partial, { recursive: true, force: true });
    rmSync(`${entry}.lock`, { recursive: true, force: true });
  }
}
