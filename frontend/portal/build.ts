// frontend/portal -> the portal's files, built as every application's are (frontend/app-kit/build.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppAssets } from '../../lambdas/api/http/served-files';
import { buildApp } from '../app-kit/build';

export const buildPortalAssets = (): Promise<AppAssets> =>
  buildApp({
    folder: path.dirname(fileURLToPath(import.meta.url)),
    stylesheet: 'portal.css',
    title: 'Developer portal',
    rootId: 'portal',
    loading: 'Loading the portal…',
    noscript: 'The portal needs JavaScript. Turn it on and reload the page.',
  });
