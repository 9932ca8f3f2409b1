// adapters -> `ops dev-bootstrap` over tables of DynamoDB Local: runs racing on a new stack (test files
// sharing one, two terminals) each end with the same organisation, integration, person and staff, and a
// fresh key per environment; none fails because another made a record first.
import { expect, test } from '@jest/globals';
import { composeCommonPorts, composeDirectory } from '../../lambdas/adapters/compose';
import {
  DEV_INTEGRATION_ID,
  DEV_ORGANISATION_ID,
  DEV_PERSON,
  devBootstrap,
} from '../../lambdas/core/dev-bootstrap';
import { useTestDynamoDb } from '../support/dynamodb-local';

const db = useTestDynamoDb();

test('four dev-bootstraps at once on empty tables all succeed with the same records and their own keys', async () => {
  const directory = composeDirectory(db.doc, await db.freshTable());
  const portsIn = async (environment: 'sandbox' | 'production') =>
    composeCommonPorts({
      environment,
      dynamo: db.doc,
      tableName: await db.freshTable(),
      requestHistory: 'off',
    });
  const portsOf = { sandbox: await portsIn('sandbox'), production: await portsIn('production') };

  const runs = await Promise.all([1, 2, 3, 4].map(() => devBootstrap(directory, portsOf)));

  for (const run of runs)
    expect(run).toMatchObject({ organisation_id: DEV_ORGANISATION_ID, integration_id: DEV_INTEGRATION_ID });
  const keys = runs.flatMap((run) => [run.keys.sandbox, run.keys.production]);
  expect(new Set(keys).size).toBe(8);
  expect(await directory.organisations.get(DEV_ORGANISATION_ID)).toMatchObject({ ownerId: DEV_PERSON.id });
  expect((await directory.organisations.listIntegrations(DEV_ORGANISATION_ID)).map((i) => i.id)).toEqual([
    DEV_INTEGRATION_ID,
  ]);
  expect(await directory.people.findByEmail(DEV_PERSON.email)).toMatchObject({
    id: DEV_PERSON.id,
    organisationId: DEV_ORGANISATION_ID,
  });
  expect((await directory.staff.get('lawyer@localhost.test'))?.roles).toEqual(['lawyer']);
  expect((await directory.staff.get('operator@localhost.test'))?.roles).toEqual(['operator', 'admin']);
});
