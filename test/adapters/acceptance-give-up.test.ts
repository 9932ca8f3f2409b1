// The acceptance workflow's last resort over DynamoDB Local: a run whose task kept failing is recorded
// failed by GiveUp (lib/workflows/onboarding-acceptance.asl.json), so the re-drive, which starts the
// unfinished runs oldest first, no longer restarts it, while newer runs stay due.
import { readFileSync } from 'node:fs';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { runItem } from '../../lambdas/adapters/dynamodb/items';
import type { WorkflowRun } from '../../lambdas/core/ports';
import { WORKERS } from '../../lambdas/workers';
import { giveUpAcceptance } from '../../lambdas/workers/give-up-acceptance';
import { fromRoot } from '../../lib/paths';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { id } from '../support/fixtures';
import { tableOnlyServices } from '../support/table-services';

const db = useTestDynamoDb();

/** The sandbox's services over a fresh table; no blob, workflow or queue is reached by this worker. */
const servicesOver = (tableName: string) => tableOnlyServices(db.doc, tableName, 'sandbox', {});

const acceptanceRun = (submittedAt: number): WorkflowRun => ({
  kind: 'acceptance',
  environment: 'sandbox',
  onboardingId: id('onb_'),
  submittedAt,
});

test('a run that gave up is finished (failed) and leaves the re-drive’s list; a newer one stays on it', async () => {
  const tableName = await db.freshTable();
  const services = servicesOver(tableName);
  const failing = acceptanceRun(1_000_000);
  const newer = acceptanceRun(2_000_000);
  for (const [run, at] of [
    [failing, 1_000_000],
    [newer, 2_000_000],
  ] as const)
    await db.doc.send(new PutCommand({ TableName: tableName, Item: runItem(run, at) }));
  expect(await services.ports.runs.unfinished(10)).toEqual([failing, newer]);

  // As the state machine hands it on: the run's input, with the caught error in `error`.
  await giveUpAcceptance.perform(
    { ...failing, next: { done: false }, error: { Error: 'Error', Cause: 'the table was unavailable' } },
    services,
  );
  expect(await services.ports.runs.unfinished(10)).toEqual([newer]);
  // Giving up again (a retried GiveUp) changes nothing.
  await giveUpAcceptance.perform({ ...failing, error: {} }, services);
  expect(await services.ports.runs.unfinished(10)).toEqual([newer]);
});

test('refuses a run of another environment, recording nothing', async () => {
  const tableName = await db.freshTable();
  const services = servicesOver(tableName);
  const run = acceptanceRun(3_000_000);
  await db.doc.send(new PutCommand({ TableName: tableName, Item: runItem(run, 3_000_000) }));
  await expect(giveUpAcceptance.perform({ ...run, environment: 'production' }, services)).rejects.toThrow(
    /production run reached the sandbox services/,
  );
  expect(await services.ports.runs.unfinished(10)).toEqual([run]);
});

test('the workflow catches every failure of its task into GiveUp, which the local runner knows by the same name', () => {
  const definition = JSON.parse(
    readFileSync(fromRoot('lib/workflows/onboarding-acceptance.asl.json'), 'utf8'),
  ) as { States: Record<string, { Type: string; Resource?: string; Catch?: unknown; Next?: string }> };
  expect(definition.States.AcceptWhenDue?.Catch).toEqual([
    { ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'GiveUp' },
  ]);
  expect(definition.States.GiveUp).toMatchObject({
    Type: 'Task',
    Resource: `\${GiveUpAcceptanceFunctionArn}`,
    Next: 'GaveUp',
  });
  expect(definition.States.GaveUp?.Type).toBe('Fail');
  expect(WORKERS.GiveUpAcceptance).toBe(giveUpAcceptance);
});
