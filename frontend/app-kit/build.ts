// frontend/app-kit -> a web application's files (the portal's, the back office's), built with esbuild in
// memory when its host starts: `index.html` (no inline script or style) and content-hashed `assets/` (one
// script: Preact and the pages; one stylesheet). Every page path answers the same `index.html`; the
// script shows the page of the path (served-files.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type OutputFile, type Plugin } from 'esbuild';
import { APP_CSP, type AppAssets } from '../../lambdas/api/http/served-files';
import { LOOK_CSS } from '../../lambdas/pages/look';
import { contentTypeOf, single } from '../build-output';

const KIT = path.dirname(fileURLToPath(import.meta.url));

/**
 * `@import "look.css"` in an application's stylesheet: the look it shares with the sign-in pages
 * (lambdas/pages/look.ts); `@import "kit.css"`: the layout of the parts every application uses (kit.css here).
 */
const sharedStyles: Plugin = {
  name: 'shared-styles',
  setup(builder) {
    builder.onResolve({ filter: /^look\.css$/ }, () => ({ path: 'look.css', namespace: 'shared-look' }));
    builder.onLoad({ filter: /.*/, namespace: 'shared-look' }, () => ({ contents: LOOK_CSS, loader: 'css' }));
    builder.onResolve({ filter: /^kit\.css$/ }, () => ({ path: path.join(KIT, 'kit.css') }));
  },
};

export interface AppSource {
  /** The application's folder: its script is `app/main.tsx`, its stylesheet `app/<stylesheet>`. */
  folder: string;
  stylesheet: string;
  /** The document's title until the script names the page. */
  title: string;
  /** The id of the element the script renders into. */
  rootId: string;
  /** What the page says before the script runs, and when JavaScript is off. */
  loading: string;
  noscript: string;
}

const indexHtml = (source: AppSource, script: string, style: string): string =>
  [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    // A meta CSP cannot say frame-ancestors; the header says it.
    `<meta http-equiv="Content-Security-Policy" content="${APP_CSP.replace("; frame-ancestors 'none'", '')}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex, nofollow">',
    `<title>${source.title}</title>`,
    `<link rel="stylesheet" href="/${style}">`,
    `<script defer src="/${script}"></script>`,
    '</head>',
    '<body>',
    `<div id="${source.rootId}"><main><p>${source.loading}</p>`,
    `<noscript><p>${source.noscript}</p></noscript></main></div>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');

/** Builds an application's files (a second or so; call once at start-up). */
export const buildApp = async (source: AppSource): Promise<AppAssets> => {
  const outdir = path.join(source.folder, 'dist');
  const result = await build({
    entryPoints: [
      path.join(source.folder, 'app/main.tsx'),
      path.join(source.folder, 'app', source.stylesheet),
    ],
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
    plugins: [sharedStyles],
  });
  const relative = (file: OutputFile) => path.relative(outdir, file.path).split(path.sep).join('/');
  const script = single(result.outputFiles, '.js');
  const style = single(result.outputFiles, '.css');
  return {
    files: [
      {
        path: 'index.html',
        contentType: 'text/html; charset=utf-8',
        body: new TextEncoder().encode(indexHtml(source, relative(script), relative(style))),
      },
      ...result.outputFiles.map((file) => ({
        path: relative(file),
        contentType: contentTypeOf(file.path),
        body: file.contents,
      })),
    ],
  };
};
