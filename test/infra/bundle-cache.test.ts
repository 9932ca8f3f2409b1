// infra -> the test suite's bundle cache (./bundle-cache.ts): a function bundled by one synthesis is staged
// by the next from the cache, byte for byte the asset the bundling made, whatever directory it synthesises in.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ServiceFunction } from '../../lib/service-function';
import { bundleCounts, useBundleCache } from './bundle-cache';
import { SYNTH_DEADLINE_MS } from './synth';
import { testApp } from './test-app';

const outdirs: string[] = [];
afterAll(() => {
  for (const outdir of outdirs) rmSync(outdir, { recursive: true, force: true });
});

/** One small function synthesised bundled in a directory of its own: its code's S3 key and staged bundle. */
const synthesiseOne = (): { key: string; bundle: string } => {
  const outdir = mkdtempSync(join(tmpdir(), 'bundle-cache-test-'));
  outdirs.push(outdir);
  const stack = new Stack(testApp({ outdir }), 'Cached');
  new ServiceFunction(stack, 'NotFound', { entry: 'lambdas/hosts/aws/functions/frame-not-found.ts' });
  const code = Object.values(Template.fromStack(stack).findResources('AWS::Lambda::Function'))[0]?.Properties
    .Code as { S3Key: string };
  const bundle = readFileSync(join(outdir, `asset.${code.S3Key.replace(/\.zip$/, '')}`, 'index.mjs'), 'utf8');
  return { key: code.S3Key, bundle };
};

test(
  'a second synthesis in another directory stages the first one’s bundle from the cache, the same asset',
  () => {
    useBundleCache();
    const first = synthesiseOne();
    const before = { ...bundleCounts };
    const second = synthesiseOne();
    expect(bundleCounts).toEqual({ ...before, fromCache: before.fromCache + 1 });
    expect(second.key).toBe(first.key);
    expect(second.bundle).toBe(first.bundle);
    expect(second.bundle).toContain('export');
  },
  SYNTH_DEADLINE_MS,
);
