// bin -> writes the functions' trimmed MIME database (lambdas/hosts/aws/mime-db.json) from koa's mime-db
// as installed: `npm run mime-db` after an upgrade that changes it (a test says when).
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { TRIMMED_MIME_DB, trimmedMimeDbText } from '../lib/mime-database';

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await writeFile(TRIMMED_MIME_DB, trimmedMimeDbText());
  console.log(`wrote ${TRIMMED_MIME_DB}`);
}
