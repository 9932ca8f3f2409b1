// infra -> the bundle cache filled in one esbuild run (./bundle-cache.ts fillBundleCache): every function's
// staged asset is byte for byte the one CDK's own bundling of that function makes (its asset hash is the
// hash of the whole bundle directory: code, source map, the files its hooks copy beside it).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ServiceFunction } from '../../lib/service-function';
import { bundleCounts, fillBundleCache, useBundleCache } from './bundle-cache';
import { SYNTH_DEADLINE_MS } from './synth';
import { testApp } from './test-app';

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

const temporary = (prefix: string): string => {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  directories.push(directory);
  return directory;
};

/** Two functions with the same settings (one esbuild run) and one whose hook copies files beside its bundle. */
const addFunctions = (stack: Stack) => {
  new ServiceFunction(stack, 'NotFound', { entry: 'lambdas/hosts/aws/functions/frame-not-found.ts' });
  new ServiceFunction(stack, 'Token', { entry: 'lambdas/hosts/aws/functions/token.ts' });
  new ServiceFunction(stack, 'Viewer', {
    entry: 'lambdas/hosts/aws/functions/publish-viewer.ts',
    publishesPages: true,
  });
};

/**
 * The functions synthesised bundled in an app of their own: each one's code key (its asset hash) and files.
 * The assembly is two directories below the temporary one, so a bundle is built as deep in the file system
 * as the cache builds it: a source map names its sources relative to where it was built.
 */
const synthesise = (): Record<string, { key: string; files: string[]; code: string }> => {
  const outdir = join(temporary('bundle-batch-cdk-'), 'assembly');
  mkdirSync(outdir);
  const stack = new Stack(testApp({ outdir }), 'Batched');
  addFunctions(stack);
  const functions = Template.fromStack(stack).findResources('AWS::Lambda::Function');
  return Object.fromEntries(
    Object.entries(functions).map(([id, resource]) => {
      const key = (resource.Properties.Code as { S3Key: string }).S3Key;
      const asset = join(outdir, `asset.${key.replace(/\.zip$/, '')}`);
      const files = (readdirSync(asset, { recursive: true }) as string[]).sort();
      return [id, { key, files, code: readFileSync(join(asset, 'index.mjs'), 'utf8') }];
    }),
  );
};

test(
  'a batch fills the cache with each function’s bundle as CDK’s own bundling makes it',
  () => {
    // Before the cache is in use: CDK bundles each function itself.
    const byCdk = synthesise();
    useBundleCache(temporary('bundle-batch-cache-'));
    fillBundleCache((outdir) => addFunctions(new Stack(testApp({ outdir }), 'Batched')));
    expect(bundleCounts).toEqual({ bundled: 0, fromCache: 0, batched: 3 });
    const fromBatch = synthesise();
    expect(bundleCounts).toEqual({ bundled: 0, fromCache: 3, batched: 3 });
    expect(Object.keys(fromBatch)).toHaveLength(3);
    for (const [id, made] of Object.entries(byCdk)) {
      expect(fromBatch[id]?.files).toEqual(made.files);
      expect(fromBatch[id]?.code === made.code).toBe(true);
      expect(fromBatch[id]?.key).toBe(made.key);
    }
    expect(
      fromBatch[Object.keys(fromBatch).find((id) => id.startsWith('Viewer')) ?? '']?.files.length,
    ).toBeGreaterThan(2);
  },
  SYNTH_DEADLINE_MS,
);
