import { DynamoDbRunStore } from '../../lambdas/adapters/dynamodb/run-store';
import type { DeliveryRun } from '../../lambdas/core/ports';
import { WORKERS } from '../../lambdas/workers';
import { giveUpDeliveryWait } from '../../lambdas/workers/give-up-delivery-wait';
import { taskPlaceholder, WORKFLOW_TASK_NAMES } from '../../lambdas/workers/tasks';
import { fromRoot } from '../../lib/paths';
import { WORKFLOW_FILES } from '../../lib/workflow-state-machine';
import { LocalStepFunctions } from '../../local/emulators/step-functions';
import { LocalWaits } from '../../local/emulators/step-functions-waits';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { eventually } from '../support/eventually';
import { id, TestClock } from '../support/fixtures';
import { linesOf } from '../support/log-capture';
import { tableOnlyServices } from '../support/table-services';

const db = useTestDynamoDb();

/** The sandbox's services over a fresh table, whose delivery queue cannot be reached: every hand-back fails. */
const servicesWithoutQueue = (tableName: string, handedBack: unknown[]) =>
  tableOnlyServices(db.doc, tableName, 'sandbox', {
    deliveryQueue: () => ({
      schedule: async (deliveries) => {
        handedBack.push(deliveries);
        throw new Error('the delivery queue is unreachable');
      },
    }),
  });

test('a hand-back that keeps failing is caught into GiveUp: an ERROR line with the message, then the execution ends in GaveUp', async () => {
  const tableName = await db.freshTable();
  const handedBack: unknown[] = [];
  const services = servicesWithoutQueue(tableName, handedBack);
  const waits = new LocalWaits(db.doc, tableName);
  const runs = new DynamoDbRunStore(db.doc, tableName, new TestClock());
  const runnerLog: Array<Record<string, unknown>> = [];
  const runner = await LocalStepFunctions.load({
    definitionFiles: { delivery: fromRoot(WORKFLOW_FILES.delivery) },
    tasks: Object.fromEntries(
      WORKFLOW_TASK_NAMES.map((name) => [
        taskPlaceholder(name),
        (input: unknown) => WORKERS[name].perform(input, services),
      ]),
    ),
    runs: { production: runs, sandbox: runs },
    waits: { production: waits, sandbox: waits },
    // The hand-back's 8 retries (2 s, doubling) in about half a second.
    delayScale: 1000,
    log: (entry) => runnerLog.push(entry),
  });
  const run: DeliveryRun = { kind: 'delivery', environment: 'sandbox', messageId: id('msg_'), round: 1 };
  try {
    const lines = await linesOf(async () => {
      await runner.deliveryWaits('sandbox').start({ run, dueAt: Date.now() * 1000 });
      await eventually(
        async () => runnerLog.find((entry) => entry.message === 'run failed; it will be re-driven'),
        (ended) => ended !== undefined,
        { what: 'the delivery wait to end' },
      );
    });
    // The first hand-back and its 8 retries, then the give-up, once.
    expect(handedBack).toHaveLength(9);
    const gaveUp = lines.filter((line) =>
      line.message?.toString().startsWith('webhook delivery wait gave up'),
    );
    expect(gaveUp).toEqual([
      expect.objectContaining({
        level: 'ERROR',
        messageId: run.messageId,
        // The caught error, as the logger writes an object's fields.
        error: expect.stringContaining("Cause: 'the delivery queue is unreachable'"),
      }),
    ]);
    // Ended in the GaveUp state (the runner says a Fail state's Cause).
    expect(runnerLog.find((entry) => entry.message === 'run failed; it will be re-driven')?.error).toContain(
      'The hand-back kept failing',
    );
    expect(runner.runningCount).toBe(0);
  } finally {
    await runner.stop();
  }
});

test('the give-up refuses a run of another environment', async () => {
  const services = servicesWithoutQueue(await db.freshTable(), []);
  const run = { kind: 'delivery', environment: 'production', messageId: id('msg_'), round: 1 };
  await expect(
    giveUpDeliveryWait.perform({ ...run, dueAt: new Date().toISOString(), error: {} }, services),
  ).rejects.toThrow(/production run reached the sandbox services/);
});

test('the local runner knows the give-up by the name the workflow gives it', () => {
  expect(WORKERS.GiveUpDeliveryWait).toBe(giveUpDeliveryWait);
});
