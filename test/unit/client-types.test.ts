// The typed client's types are what the OpenAPI document makes now: a change to a schema that was not
// regenerated (`npm run client:types`) fails here.
import { readFile } from 'node:fs/promises';
import { CLIENT_TYPES_FILE, clientTypes } from '../../bin/client-types';

test('clients/typescript/src/api-types.ts is generated from the current document', async () => {
  expect(await readFile(CLIENT_TYPES_FILE, 'utf8')).toBe(await clientTypes());
});
