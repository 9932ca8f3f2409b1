// infra -> the MIME database the functions' bundles carry in place of mime-db: koa's copy (the newest of
// the three npm nests) with only what mime-types reads of an entry, written by `npm run mime-db`
// (bin/mime-db.ts). A test checks the file is what koa's database makes now, and that mime-types answers
// from it as from the whole.
import { createRequire } from 'node:module';
import { fromRoot } from './paths';

/** The `mime-types` koa loads; every bundle's `mime-types` is aliased to it. */
export const KOA_MIME_TYPES = createRequire(
  createRequire(import.meta.url).resolve('koa/package.json'),
).resolve('mime-types');

/** The `mime-db` that `mime-types` loads (~160 KB of JSON, half of it types no name maps to). */
export const KOA_MIME_DB = createRequire(KOA_MIME_TYPES).resolve('mime-db');

/** The trimmed database every bundle's `mime-db` is aliased to. */
export const TRIMMED_MIME_DB = fromRoot('lambdas/hosts/aws/mime-db.json');

interface MimeEntry {
  source?: string;
  extensions?: string[];
  charset?: string;
  compressible?: boolean;
}

/**
 * What mime-types reads of the database: a type's extensions and their source (which type an extension
 * names when several claim it), and its charset. A type with neither is dropped; so is `compressible`,
 * which only the `compressible` package reads, and no function bundles it.
 */
export const trimMimeDb = (db: Readonly<Record<string, MimeEntry>>): Record<string, MimeEntry> => {
  const trimmed: Record<string, MimeEntry> = {};
  for (const [type, { source, extensions, charset }] of Object.entries(db)) {
    const kept: MimeEntry = {};
    if (extensions?.length) Object.assign(kept, { source, extensions });
    if (charset !== undefined) kept.charset = charset;
    if (Object.keys(kept).length > 0) trimmed[type] = kept;
  }
  return trimmed;
};

/** The trimmed database's file text, from koa's database as installed. */
export const trimmedMimeDbText = (): string =>
  `${JSON.stringify(trimMimeDb(createRequire(import.meta.url)(KOA_MIME_DB)))}\n`;
