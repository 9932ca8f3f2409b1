// frontend/portal -> the portal's files, built with esbuild in memory when its host starts: `index.html`
// (no inline script or style) and content-hashed `assets/` (one script, Preact and the pages; one
// stylesheet). Every page path answers the same `index.html`; the script shows the page of the path.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type OutputFile, type Plugin } from 'esbuild';
import { contentTypeOf, single } from '../build-output';
import { LOOK_CSS } from '../look';
import { PORTAL_CSP, type PortalAssets } from './served-files';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** `@import "look.css"` in the portal's stylesheet: the look it shares with the sign-in pages (frontend/look.ts). */
const sharedLook: Plugin = {
  name: 'shared-look',
  setup(builder) {
    builder.onResolve({ filter: /^look\.css$/ }, () => ({ path: 'look.css', namespace: 'shared-look' }));
    builder.onLoad({ filter: /.*/, namespace: 'shared-look' }, () => ({ contents: LOOK_CSS, loader: 'css' }));
  },
};

const indexHtml = (script: string, style: string): string =>
  [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${PORTAL_CSP.replace("; frame-ancestors 'none'", '')}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex, nofollow">',
    '<title>Developer portal</title>',
    `<link rel="stylesheet" href="/${style}">`,
    `<script defer src="/${script}"></script>`,
    '</head>',
    '<body>',
    '<div id="portal"><main><p>Loading the portal…</p>',
    '<noscript><p>The portal needs JavaScript. Turn it on and reload the page.</p></noscript></main></div>',
    '</body>',
    '</html>',
    '',
  ].join('\n');

/** Builds the portal's files (a second or so; call once at start-up). */
export const buildPortalAssets = async (): Promise<PortalAssets> => {
  const outdir = path.join(HERE, 'dist');
  const result = await build({
    entryPoints: [path.join(HERE, 'app/main.tsx'), path.join(HERE, 'app/portal.css')],
    bundle: true,
    write: false,
    outdir,
    entryNames: 'assets/[name]-[hash]',
    format: 'iife',
    target: 'es2020',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
    plugins: [sharedLook],
  });
  const relative = (file: OutputFile) => path.relative(outdir, file.path).split(path.sep).join('/');
  const script = single(result.outputFiles, '.js');
  const style = single(result.outputFiles, '.css');
  return {
    files: [
      {
        path: 'index.html',
        contentType: 'text/html; charset=utf-8',
        body: new TextEncoder().encode(indexHtml(relative(script), relative(style))),
      },
      ...result.outputFiles.map((file) => ({
        path: relative(file),
        contentType: contentTypeOf(file.path),
        body: file.contents,
      })),
    ],
  };
};
