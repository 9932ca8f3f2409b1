// infra -> where the sources live, so constructs find entries and assets wherever the app runs from.
import { fileURLToPath } from 'node:url';

/** The repository root (this file is `lib/paths.ts`). */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Absolute path of a file given relative to the repository root. */
export const fromRoot = (relative: string): string =>
  fileURLToPath(new URL(`../${relative}`, import.meta.url));
