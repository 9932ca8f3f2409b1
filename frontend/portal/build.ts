// frontend/portal -> the portal's files, built as every application's are (frontend/app-kit/build.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../app-kit/build';
import type { AppAssets } from '../app-kit/served-files';

export const buildPortalAssets = (): Promise<AppAssets> =>
  buildApp({
    folder: path.dirname(fileURLToPath(import.meta.url)),
    stylesheet: 'portal.css',
    title: 'Developer portal',
    rootId: 'portal',
    loading: 'Loading the portal…',
    noscript: 'The portal needs JavaScript. Turn it on and reload the page.',
  });
