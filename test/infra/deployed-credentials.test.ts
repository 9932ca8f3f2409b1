// The deployed bundling's credentials: BUNDLE_SETTINGS aliases the SDK's default chain to its environment
// link, so a bundled client must still sign with the credentials Lambda puts in the environment, and the
// chain's other links (with their STS and SSO clients) must be left out of the bundle.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { PROJECT_ROOT } from '../../lib/paths';
import { BUNDLE_SETTINGS, EXTERNAL_MODULES } from '../../lib/service-function';

const ENTRY = `
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
const credentials = await new DynamoDBClient({ region: 'eu-west-2' }).config.credentials();
process.stdout.write(JSON.stringify(credentials));
`;

const bundle = async () =>
  build({
    stdin: { contents: ENTRY, resolveDir: PROJECT_ROOT, loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    target: BUNDLE_SETTINGS.target,
    mainFields: [...BUNDLE_SETTINGS.mainFields],
    banner: { js: BUNDLE_SETTINGS.banner },
    minify: BUNDLE_SETTINGS.minify,
    alias: BUNDLE_SETTINGS.alias,
    external: EXTERNAL_MODULES,
    logLevel: 'error',
  });

describe('the deployed bundling of an AWS client', () => {
  it('leaves the default chain, its STS and SSO clients out of the bundle', async () => {
    const inputs = Object.keys((await bundle()).metafile.inputs);
    expect(inputs.filter((input) => /credential-provider-(node|ini|sso)|nested-clients/.test(input))).toEqual(
      [],
    );
    expect(inputs.some((input) => input.includes('credential-provider-env'))).toBe(true);
  });

  it('signs with the credentials the environment holds, as Lambda sets them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'deployed-credentials-'));
    try {
      const file = join(dir, 'entry.mjs');
      await writeFile(file, (await bundle()).outputFiles.map((output) => output.text).join(''));
      const { stdout } = await promisify(execFile)(process.execPath, [file], {
        env: {
          PATH: process.env.PATH,
          AWS_ACCESS_KEY_ID: 'AKIDFROMLAMBDAENV',
          AWS_SECRET_ACCESS_KEY: 'secret-from-lambda-env',
          AWS_SESSION_TOKEN: 'session-from-lambda-env',
        },
      });
      expect(JSON.parse(stdout)).toMatchObject({
        accessKeyId: 'AKIDFROMLAMBDAENV',
        secretAccessKey: 'secret-from-lambda-env',
        sessionToken: 'session-from-lambda-env',
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
