// frontend/onboarding -> the form frame's files and `/onboarding.js`, built with esbuild in memory when a
// server starts. The frame: `index.html` (no inline script or style) and content-hashed `assets/` that
// can be cached for good; the page is versioned by its own hash, which the loader puts in the frame's
// address. The loader: small, ES2020, minified, with `__FRAME_ORIGIN__` for the server to replace.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { contentTypeOf, single } from '../build-output';

export interface OnboardingAssets {
  /** The frame's files, `index.html` first, by path under the frame address (no leading slash). */
  frame: Array<{ path: string; contentType: string; body: Uint8Array }>;
  /** `/onboarding.js`; `version` is a hash of its content (before the frame address goes in). */
  loader: { contentType: string; body: Uint8Array; version: string };
}

/** The placeholder in the loader that the server replaces with the environment's frame address. */
export const FRAME_ORIGIN_PLACEHOLDER = '__FRAME_ORIGIN__';

/** The frame's content security policy (README: the frame may be embedded by any page). */
export const FRAME_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'none'",
  "base-uri 'none'",
  'frame-ancestors *',
].join('; ');

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TARGET = 'es2020';

const hash = (body: Uint8Array | string, length = 16): string =>
  createHash('sha256').update(body).digest('hex').slice(0, length);

/** The frame's page: the policy again as a meta tag (without frame-ancestors, which only a header carries). */
const indexHtml = (script: string, style: string): string =>
  [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${FRAME_CSP.replace('; frame-ancestors *', '')}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="robots" content="noindex, nofollow">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Sign-up form</title>',
    `<link rel="stylesheet" href="/${style}">`,
    `<script defer src="/${script}"></script>`,
    '</head>',
    '<body>',
    '<main id="form" class="app">',
    '<p class="loading">Loading the form…</p>',
    '<noscript><p>This form needs JavaScript. Turn it on and reload the page.</p></noscript>',
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');

const buildFrame = async () => {
  const outdir = path.join(HERE, 'dist-frame');
  const result = await build({
    entryPoints: [path.join(HERE, 'frame/form.ts'), path.join(HERE, 'frame/form.css')],
    bundle: true,
    write: false,
    outdir,
    entryNames: 'assets/[name]-[hash]',
    format: 'iife',
    target: TARGET,
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const assets = result.outputFiles.map((file) => ({
    path: path.relative(outdir, file.path).split(path.sep).join('/'),
    contentType: contentTypeOf(file.path),
    body: file.contents,
  }));
  const script = single(result.outputFiles, '.js');
  const style = single(result.outputFiles, '.css');
  const html = indexHtml(
    path.relative(outdir, script.path).split(path.sep).join('/'),
    path.relative(outdir, style.path).split(path.sep).join('/'),
  );
  return {
    files: [
      { path: 'index.html', contentType: 'text/html; charset=utf-8', body: new TextEncoder().encode(html) },
      ...assets,
    ],
    version: hash(html),
  };
};

const buildLoader = async (frameVersion: string) => {
  const result = await build({
    entryPoints: [path.join(HERE, 'loader.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    target: TARGET,
    minify: true,
    legalComments: 'none',
    define: { __FRAME_VERSION__: JSON.stringify(frameVersion) },
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (!output || result.outputFiles.length !== 1)
    throw new Error('expected one file from esbuild for the loader');
  const body = output.contents;
  const text = new TextDecoder().decode(body);
  // The server replaces the placeholder once; the minifier must have left exactly one.
  if (text.split(FRAME_ORIGIN_PLACEHOLDER).length !== 2)
    throw new Error(`the loader must hold ${FRAME_ORIGIN_PLACEHOLDER} exactly once`);
  return { contentType: 'text/javascript; charset=utf-8', body, version: hash(body) };
};

/** Builds the frame's files and the loader (a second or so; call once at start-up). */
export const buildOnboardingAssets = async (): Promise<OnboardingAssets> => {
  const frame = await buildFrame();
  const loader = await buildLoader(frame.version);
  return { frame: frame.files, loader };
};
