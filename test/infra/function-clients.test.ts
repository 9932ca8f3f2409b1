// infra -> each deployed function carries the AWS clients its code's ports use and no other: the blob store
// (S3) and the workflows (Step Functions) are wired ports (core/ports.ts WiredPortName), built only by the
// functions whose code names them, so the others' bundles hold none of those clients' code.
import { build } from 'esbuild';
import { fromRoot } from '../../lib/paths';
import { DEPLOYED_BUILD_OPTIONS } from '../../lib/service-function';

/** The bytes each SDK client package puts in a function's bundle, as deployed (esbuild's metafile). */
const clientBytesOf = async (name: string): Promise<Record<'s3' | 'sfn', number>> => {
  const { metafile } = await build({
    ...DEPLOYED_BUILD_OPTIONS,
    entryPoints: [fromRoot(`lambdas/hosts/aws/functions/${name}.ts`)],
    outfile: `/dev/null/${name}/index.mjs`,
    write: false,
    sourcemap: false,
    metafile: true,
  });
  const output = Object.values(metafile.outputs).find((o) => o.entryPoint !== undefined);
  const bytesFrom = (pkg: string) =>
    Object.entries(output?.inputs ?? {})
      .filter(([input]) => input.includes(`node_modules/${pkg}/`))
      .reduce((sum, [, { bytesInOutput }]) => sum + bytesInOutput, 0);
  return { s3: bytesFrom('@aws-sdk/client-s3'), sfn: bytesFrom('@aws-sdk/client-sfn') };
};

test.each([
  ['get-contract-review', { s3: false, sfn: false }],
  ['token', { s3: false, sfn: false }],
  ['frame-show-form', { s3: false, sfn: false }],
  ['publish-viewer', { s3: true, sfn: false }],
  ['redrive-runs', { s3: false, sfn: true }],
  ['create-contract-review', { s3: true, sfn: true }],
])('%s carries the S3 and Step Functions clients only where its ports use them', async (name, carries) => {
  const bytes = await clientBytesOf(name);
  expect({ s3: bytes.s3 > 0, sfn: bytes.sfn > 0 }).toEqual(carries);
});
