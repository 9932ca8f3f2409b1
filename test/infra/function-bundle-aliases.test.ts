// infra -> what lib/service-function.ts BUNDLE_SETTINGS.alias leaves out of a deployed function's bundle,
// and that code bundled that way still does what needed the module it replaced.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build, type Metafile } from 'esbuild';
import { fromRoot, PROJECT_ROOT } from '../../lib/paths';
import { DEPLOYED_BUILD_OPTIONS } from '../../lib/service-function';

const run = promisify(execFile);
const outdir = mkdtempSync(join(tmpdir(), 'function-bundle-aliases-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

/** Bundles `contents` as a function's code; its metafile, and what it printed when run in Node. */
const bundleAndRun = async (
  name: string,
  contents: string,
): Promise<{ inputs: string[]; printed: unknown }> => {
  const outfile = join(outdir, `${name}.mjs`);
  const { metafile } = await build({
    ...DEPLOYED_BUILD_OPTIONS,
    metafile: true,
    stdin: { contents, resolveDir: PROJECT_ROOT, loader: 'ts' },
    outfile,
  });
  const { stdout } = await run(process.execPath, [outfile], { env: { PATH: process.env.PATH ?? '' } });
  return { inputs: Object.keys((metafile as Metafile).inputs), printed: JSON.parse(stdout) };
};

test('a koa app bundled as a function carries one MIME database, and still tells types by their names', async () => {
  // What the identity provider's koa asks of the database: a body's type by name (type-is), the answer
  // the client prefers by name (accepts), and a short name made a full content type (mime-types).
  const { inputs, printed } = await bundleAndRun(
    'koa-mime',
    `import { createServer } from 'node:http';
    import Koa from 'koa';
    const app = new Koa();
    app.use((ctx) => {
      const seen = { body: ctx.is('html', 'json'), prefers: ctx.accepts('json', 'html') };
      ctx.type = 'json';
      ctx.body = JSON.stringify(seen);
    });
    const server = createServer(app.callback()).listen(0, '127.0.0.1', async () => {
      const answer = await fetch('http://127.0.0.1:' + server.address().port + '/', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/html' },
        body: '{}',
      });
      console.log(JSON.stringify({ type: answer.headers.get('content-type'), ...(await answer.json()) }));
      server.close();
    });`,
  );
  expect(printed).toEqual({
    type: 'application/json; charset=utf-8',
    body: 'json',
    prefers: 'html',
  });
  expect(inputs.filter((input) => input.endsWith('mime-db/db.json'))).toHaveLength(1);
});

test('the mcp function’s bundle carries no Ajv, and the SDK’s JSON Schema validation still refuses bad input', async () => {
  const { metafile } = await build({
    ...DEPLOYED_BUILD_OPTIONS,
    metafile: true,
    entryPoints: [fromRoot('lambdas/hosts/aws/functions/mcp.ts')],
    outfile: join(outdir, 'mcp.mjs'),
  });
  expect(Object.keys(metafile.inputs).filter((input) => /ajv/i.test(input))).toEqual([]);
  // `fromJsonSchema` is one of the two uses of the SDK's default validator (elicitation answers the other).
  const { printed } = await bundleAndRun(
    'mcp-json-schema',
    `import { fromJsonSchema } from '@modelcontextprotocol/server';
    const schema = fromJsonSchema({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] });
    const check = (value) => schema['~standard'].validate(value);
    console.log(JSON.stringify({ good: check({ n: 1 }), bad: 'issues' in check({ n: 'one' }) }));`,
  );
  expect(printed).toEqual({ good: { value: { n: 1 } }, bad: true });
});
