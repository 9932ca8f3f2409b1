// infra -> what lib/service-function.ts BUNDLE_SETTINGS.alias leaves out of a deployed function's bundle,
// and that code bundled that way still does what needed the module it replaced.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { build, type Metafile } from 'esbuild';
import { KOA_MIME_DB, TRIMMED_MIME_DB, trimmedMimeDbText } from '../../lib/mime-database';
import { fromRoot, PROJECT_ROOT } from '../../lib/paths';
import { DEPLOYED_BUILD_OPTIONS } from '../../lib/service-function';

const run = promisify(execFile);
const outdir = mkdtempSync(join(tmpdir(), 'function-bundle-aliases-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

/** Bundles `contents` as a function's code; its metafile, and what it printed when run in Node. */
const bundleAndRun = async (
  name: string,
  contents: string,
  alias: Record<string, string> = {},
): Promise<{ inputs: string[]; printed: unknown }> => {
  const outfile = join(outdir, `${name}.mjs`);
  const { metafile } = await build({
    ...DEPLOYED_BUILD_OPTIONS,
    alias: { ...DEPLOYED_BUILD_OPTIONS.alias, ...alias },
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
  expect(inputs.filter((input) => input.endsWith('mime-db/db.json'))).toEqual([]);
  expect(inputs).toContain(relative(PROJECT_ROOT, TRIMMED_MIME_DB));
});

test('the trimmed MIME database is what koa’s makes now (else: npm run mime-db), and mime-types answers from it as from the whole', async () => {
  expect(readFileSync(TRIMMED_MIME_DB, 'utf8')).toBe(trimmedMimeDbText());
  // Every question mime-types answers, for every extension and type the whole database names: bundled as
  // a function is (the trimmed database) and with the whole one.
  const whole = JSON.parse(readFileSync(join(dirname(KOA_MIME_DB), 'db.json'), 'utf8')) as Record<
    string,
    { extensions?: string[] }
  >;
  const asked = {
    types: [...Object.keys(whole), 'text/x-unknown', 'application/x-unknown'],
    extensions: [...new Set(Object.values(whole).flatMap((entry) => entry.extensions ?? []))],
  };
  const script = `import mime from 'mime-types';
    const asked = ${JSON.stringify(asked)};
    console.log(JSON.stringify({
      byType: asked.types.map((type) => [type, mime.charset(type), mime.extension(type), mime.contentType(type)]),
      byExtension: asked.extensions.map((name) => [name, mime.lookup(name), mime.contentType(name)]),
    }));`;
  const trimmed = await bundleAndRun('mime-trimmed', script);
  const untrimmed = await bundleAndRun('mime-whole', script, { 'mime-db': KOA_MIME_DB });
  expect(trimmed.inputs).toContain(relative(PROJECT_ROOT, TRIMMED_MIME_DB));
  expect(trimmed.printed).toEqual(untrimmed.printed);
  // The comparison means something: the whole database answers for thousands of names.
  expect((untrimmed.printed as { byExtension: unknown[] }).byExtension.length).toBeGreaterThan(1000);
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
