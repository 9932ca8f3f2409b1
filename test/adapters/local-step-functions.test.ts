// The local workflow runner's task tokens (aws-local-stepfunctions has none): a
// `lambda:invoke.waitForTaskToken` state calls its function with the state's Payload, and a
// `sqs:sendMessage.waitForTaskToken` state sends its MessageBody to its queue, each carrying a token made
// from the run's and the state's names; then it waits until the token's outcome is in the table
// (LocalWaits), where another process may write it: completed, the state's output is the one given;
// failed, the definition catches the error by its name; past its TimeoutSeconds (divided by
// DELAY_SCALE), `States.Timeout`. Against DynamoDB Local.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DynamoDbRunStore } from '../../lambdas/adapters/dynamodb/run-store';
import type { ContractRun } from '../../lambdas/core/ports';
import { LocalStepFunctions } from '../../local/emulators/step-functions';
import { LocalWaits } from '../../local/emulators/step-functions-waits';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { eventually } from '../support/eventually';
import { TestClock } from '../support/fixtures';

const db = useTestDynamoDb();

/** A hundred days: the wait's timeout. */
const WAIT_SECONDS = 100 * 86_400;

/** An ASL placeholder of a function, `${Name}`, as the definitions name their functions. */
const placeholder = (name: string) => `\${${name}}`;

const finish = (outcome: string) => ({
  Type: 'Task',
  Resource: placeholder('FinishFunctionArn'),
  Parameters: { 'id.$': '$.contractReviewId', outcome },
  End: true,
});

const DEFINITION = {
  StartAt: 'Wait',
  States: {
    Wait: {
      Type: 'Task',
      Resource: 'arn:aws:states:::lambda:invoke.waitForTaskToken',
      Parameters: {
        FunctionName: placeholder('KeepTokenFunctionArn'),
        Payload: { 'id.$': '$.contractReviewId', 'taskToken.$': '$$.Task.Token' },
      },
      ResultPath: null,
      TimeoutSeconds: WAIT_SECONDS,
      Catch: [
        { ErrorEquals: ['Superseded'], ResultPath: null, Next: 'Superseded' },
        { ErrorEquals: ['States.Timeout'], ResultPath: null, Next: 'TimedOut' },
      ],
      Next: 'Resumed',
    },
    Resumed: finish('resumed'),
    Superseded: finish('superseded'),
    TimedOut: finish('timed out'),
  },
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'local-sfn-'));
  await writeFile(path.join(dir, 'wait.asl.json'), JSON.stringify(DEFINITION));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** LocalWaits counting the looks that found no outcome yet. */
class CountedWaits extends LocalWaits {
  emptyLooks = 0;

  override async take(token: string) {
    const outcome = await super.take(token);
    if (outcome === null) this.emptyLooks++;
    return outcome;
  }
}

/** A runner of the definition above, recording what each task was given. */
const setUp = async (delayScale: number, waitPollMs = 20) => {
  const tableName = await db.freshTable();
  const waits = new CountedWaits(db.doc, tableName);
  const runs = new DynamoDbRunStore(db.doc, tableName, new TestClock());
  const kept: unknown[] = [];
  const finished: unknown[] = [];
  const runner = await LocalStepFunctions.load({
    definitionFiles: { contract: path.join(dir, 'wait.asl.json') },
    tasks: {
      KeepTokenFunctionArn: async (input) => {
        kept.push(input);
        return null;
      },
      FinishFunctionArn: async (input) => {
        finished.push(input);
        return null;
      },
    },
    runs: { production: runs, sandbox: runs },
    waits: { production: waits, sandbox: waits },
    delayScale,
    waitPollMs,
    log: () => {},
  });
  return { runner, waits, tableName, kept, finished };
};

const RUN: ContractRun = {
  kind: 'contract',
  environment: 'production',
  contractReviewId: 'crv_wait',
  version: 1,
};
const TOKEN = 'local-wait/production/crv_wait/v1/contract/Wait';

test.each([
  ['resumed', (waits: LocalWaits) => waits.ending.completeWait(TOKEN, {})],
  ['superseded', (waits: LocalWaits) => waits.ending.failWait(TOKEN, 'Superseded', 'a newer version')],
])(
  'a waiting state gets its Payload with its own token, waits, and ends %s when told so through the table',
  async (outcome, end) => {
    const { runner, waits, kept, finished } = await setUp(1);
    try {
      await runner.workflows('production').start(RUN);
      await eventually(
        async () => kept.length,
        (n) => n === 1,
        { what: 'the token kept' },
      );
      expect(kept).toEqual([{ id: 'crv_wait', taskToken: TOKEN }]);
      // Waiting: nothing finishes until the outcome is written (a run that finished would show here).
      expect(await waits.take(TOKEN)).toBeNull();
      expect([runner.runningCount, finished]).toEqual([1, []]);
      await end(waits);
      await eventually(
        async () => finished,
        (done) => done.length === 1,
        { what: 'the run finished' },
      );
      expect(finished).toEqual([{ id: 'crv_wait', outcome }]);
    } finally {
      await runner.stop();
    }
  },
);

test('a wait ended in the same process wakes its state at once, not at the runner’s next look at the table', async () => {
  // The runner looks at the table once a day: only the settle's own signal can end this wait.
  const { runner, waits, tableName, kept, finished } = await setUp(1, 86_400_000);
  try {
    await runner.workflows('production').start(RUN);
    // Waiting: the runner has looked once and found nothing.
    await eventually(
      async () => waits.emptyLooks,
      (n) => n === 1,
      { what: 'the runner’s first look at the table' },
    );
    expect(kept).toHaveLength(1);
    // Another LocalWaits of the same table, as the stack's render consumer has its own.
    await new LocalWaits(db.doc, tableName).ending.completeWait(TOKEN, {});
    await eventually(
      async () => finished,
      (done) => done.length === 1,
      { what: 'the run finished after its wait was ended here' },
    );
    expect(finished).toEqual([{ id: 'crv_wait', outcome: 'resumed' }]);
  } finally {
    await runner.stop();
  }
});

test('a wait past its TimeoutSeconds, divided by DELAY_SCALE, ends as States.Timeout', async () => {
  // A hundred days at this scale is one second.
  const { runner, kept, finished } = await setUp(WAIT_SECONDS);
  try {
    await runner.workflows('production').start(RUN);
    await eventually(
      async () => finished,
      (done) => done.length === 1,
      { what: 'the run finished' },
    );
    expect(kept).toHaveLength(1);
    expect(finished).toEqual([{ id: 'crv_wait', outcome: 'timed out' }]);
  } finally {
    await runner.stop();
  }
});

test('a token’s outcome is kept until taken, the first of two; once taken, a retried Task waits for its own', async () => {
  const { waits } = await setUp(1);
  await waits.ending.completeWait('t-1', { plan: 1 });
  await waits.ending.failWait('t-1', 'ProcessingFailed', 'late copy');
  expect(await waits.take('t-1')).toEqual({ succeeded: true, output: { plan: 1 } });
  expect(await waits.take('t-1')).toBeNull();
  await waits.ending.failWait('t-1', 'ProcessingFailed', 'attempt 2');
  expect(await waits.take('t-1')).toEqual({
    succeeded: false,
    error: 'ProcessingFailed',
    cause: 'attempt 2',
  });
  expect(await waits.take('t-unknown')).toBeNull();
});
