// infra -> a deployed function's AWS credentials: its bundle carries only the environment's link of the
// SDK's credential chain (lib/service-function.ts BUNDLE_SETTINGS.alias), and an SDK client bundled that
// way still signs with the credentials Lambda puts in the environment.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { build } from 'esbuild';
import { PROJECT_ROOT } from '../../lib/paths';
import { DEPLOYED_BUILD_OPTIONS, ServiceFunction } from '../../lib/service-function';
import { useBundleCache } from './bundle-cache';
import { SYNTH_DEADLINE_MS } from './synth';
import { testApp } from './test-app';

const run = promisify(execFile);
const outdirs: string[] = [];
afterAll(() => {
  for (const outdir of outdirs) rmSync(outdir, { recursive: true, force: true });
});

/** The log line of the environment's link (@aws-sdk/credential-provider-env). */
const ENVIRONMENT_MARKER = '@aws-sdk/credential-provider-env - fromEnv';
/** Strings only the SDK's full default chain carries (its SSO link's log line, its profile check). */
const FULL_CHAIN_MARKERS = ['defaultProvider::fromSSO', 'AWS_PROFILE is set, skipping fromEnv provider'];

test(
  'a synthesised function’s bundle carries the environment’s credentials and none of the rest of the default chain',
  () => {
    useBundleCache();
    const outdir = mkdtempSync(join(tmpdir(), 'function-credentials-test-'));
    outdirs.push(outdir);
    const stack = new Stack(testApp({ outdir }), 'Credentials');
    new ServiceFunction(stack, 'NotFound', { entry: 'lambdas/hosts/aws/functions/frame-not-found.ts' });
    const code = Object.values(Template.fromStack(stack).findResources('AWS::Lambda::Function'))[0]
      ?.Properties.Code as { S3Key: string };
    const bundle = readFileSync(
      join(outdir, `asset.${code.S3Key.replace(/\.zip$/, '')}`, 'index.mjs'),
      'utf8',
    );
    // Markers, not the bundle itself: a failure names what is (not) there without printing ~600 KB.
    const carried = [ENVIRONMENT_MARKER, ...FULL_CHAIN_MARKERS].filter((marker) => bundle.includes(marker));
    expect(carried).toEqual([ENVIRONMENT_MARKER]);
  },
  SYNTH_DEADLINE_MS,
);

test('an SDK client bundled as a function signs with the credentials in the environment', async () => {
  const outdir = mkdtempSync(join(tmpdir(), 'function-credentials-run-'));
  outdirs.push(outdir);
  const outfile = join(outdir, 'index.mjs');
  await build({
    ...DEPLOYED_BUILD_OPTIONS,
    stdin: {
      contents: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
        const credentials = await new DynamoDBClient({}).config.credentials();
        console.log(JSON.stringify(credentials));`,
      resolveDir: PROJECT_ROOT,
      loader: 'ts',
    },
    outfile,
  });
  const { stdout } = await run(process.execPath, [outfile], {
    env: {
      PATH: process.env.PATH ?? '',
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'AKIAFUNCTIONROLE',
      AWS_SECRET_ACCESS_KEY: 'role-secret',
      AWS_SESSION_TOKEN: 'role-session',
    },
  });
  expect(JSON.parse(stdout)).toMatchObject({
    accessKeyId: 'AKIAFUNCTIONROLE',
    secretAccessKey: 'role-secret',
    sessionToken: 'role-session',
  });
});
