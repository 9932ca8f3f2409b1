// adapters -> a webhook delivery's wait (lib/workflows/webhook-delivery.asl.json) whose hand-back keeps
// failing, run by the local workflow runner on the very file CDK deploys, with the real workers: the
// failure is caught into GiveUp, which says so at ERROR with the message, and the execution ends failed
// under the workflow's own name instead of an uncaught task fault.
import { SFNClient } from '@aws-sdk/client-sfn';
import { createS3Client } from '../../lambdas/adapters/blobs/s3-client';
import { composePorts } from '../../lambdas/adapters/compose';
import { DynamoDbRunStore } from '../../lambdas/adapters/dynamodb/run-store';
import { LocalStepFunctions } from '../../lambdas/adapters/workflows/local-step-functions';
import { LocalWaits } from '../../lambdas/adapters/workflows/local-waits';
import { stepFunctionsWorkflows } from '../../lambdas/adapters/workflows/step-functions-workflows';
import type { DeliveryRun } from '../../lambdas/core/ports';
import type { Services } from '../../lambdas/core/services';
import { WORKERS } from '../../lambdas/workers';
import { giveUpDeliveryWait } from '../../lambdas/workers/give-up-delivery-wait';
import { fromRoot } from '../../lib/paths';
import { WORKFLOW_FILES } from '../../lib/workflow-state-machine';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { eventually } from '../support/eventually';
import { id, TestClock } from '../support/fixtures';
import { linesOf } from '../support/log-capture';

const db = useTestDynamoDb();

/** The sandbox's services over a fresh table, whose delivery queue cannot be reached: every hand-back fails. */
const servicesWithoutQueue = (tableName: string, handedBack: unknown[]): Services => {
  const unreachable = 'http://127.0.0.1:9';
  const ports = composePorts({
    environment: 'sandbox',
    dynamo: db.doc,
    tableName,
    s3: createS3Client({ region: 'us-east-1', endpoint: unreachable }),
    bucket: 'unused',
    tokenSigner: async () => {
      throw new Error('the delivery wait issues no access token');
    },
    tokenPublicKey: async () => {
      throw new Error('the delivery wait checks no access token');
    },
    answersKey: async () => new Uint8Array(32),
    workflows: stepFunctionsWorkflows(new SFNClient({ region: 'us-east-1', endpoint: unreachable }), {}),
    deliveryQueue: () => ({
      schedule: async (deliveries) => {
        handedBack.push(deliveries);
        throw new Error('the delivery queue is unreachable');
      },
    }),
    allowLoopbackWebhooks: false,
    requestHistory: 'off',
  });
  return {
    ports,
    settings: {
      environment: 'sandbox',
      baseUrls: { sandbox: 'https://sandbox.example.com', production: 'https://example.com' },
      pagesBaseUrl: 'https://pages.example.com',
      allowLoopbackWebhooks: false,
      delayScale: 1,
      rateLimits: false,
    },
  };
};

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
      Object.entries(WORKERS).map(([name, worker]) => [
        name,
        (input: unknown) => worker.run(input, services),
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
    giveUpDeliveryWait.run({ ...run, dueAt: new Date().toISOString(), error: {} }, services),
  ).rejects.toThrow(/production run reached the sandbox services/);
});

test('the local runner knows the give-up by the name the workflow gives it', () => {
  expect(WORKERS.GiveUpDeliveryWaitFunctionArn).toBe(giveUpDeliveryWait);
});
