// bin -> writes the typed client's types (clients/typescript/src/api-types.ts) from the OpenAPI document,
// so the client holds no hand-written copy of a schema: `npm run client:types`. A test checks the file
// written is what the document makes now.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { openApiDocument } from '../lambdas/api/openapi-document';

export const CLIENT_TYPES_FILE = fileURLToPath(
  new URL('../clients/typescript/src/api-types.ts', import.meta.url),
);

const HEADER =
  "// client -> the /v1 interface's types, generated from its OpenAPI document by `npm run client:types`\n" +
  '// (bin/client-types.ts, openapi-typescript). Do not edit: change the zod schemas and regenerate.\n\n';

/** The file's text: the servers do not enter the types, so any base addresses do. */
export const clientTypes = async (): Promise<string> => {
  const document = openApiDocument('sandbox', {
    sandbox: 'http://127.0.0.1:3001',
    production: 'http://127.0.0.1:3000',
  });
  return HEADER + astToString(await openapiTS(document as unknown as Parameters<typeof openapiTS>[0]));
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await writeFile(CLIENT_TYPES_FILE, await clientTypes());
  console.log(`wrote ${CLIENT_TYPES_FILE}`);
}
