// frontend/back-office -> the back office's files, built as every application's are (frontend/app-kit/build.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppAssets } from '../../lambdas/api/http/served-files';
import { buildApp } from '../app-kit/build';

export const buildBackOfficeAssets = (): Promise<AppAssets> =>
  buildApp({
    folder: path.dirname(fileURLToPath(import.meta.url)),
    stylesheet: 'back-office.css',
    title: 'Back office',
    rootId: 'back-office',
    loading: 'Loading the back office…',
    noscript: 'The back office needs JavaScript. Turn it on and reload the page.',
  });
