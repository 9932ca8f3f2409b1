// unit -> where a webhook delivery waits for its next attempt (lambdas/adapters/queues/delivery-queue.ts):
// in the delivery queue with a delay up to SQS's 15 minutes, past that in the wait workflow; and the wait's
// Step Functions execution (step-functions-workflows.ts), with the SFN client faked at the adapter's edge
// (AWS itself cannot run here).
import { ExecutionAlreadyExists, type SFNClient, type StartExecutionCommand } from '@aws-sdk/client-sfn';
import { deliveryRunOf, queuedDeliveries } from '../../lambdas/adapters/queues/delivery-queue';
import { stepFunctionsDeliveryWaits } from '../../lambdas/adapters/workflows/step-functions-workflows';
import type { DeliveryRun, DueDelivery, QueuedWork } from '../../lambdas/core/ports';
import { HOUR, MINUTE, SECOND } from '../../lambdas/core/time';
import { TestClock } from '../support/fixtures';

const run = (n: number): DeliveryRun => ({
  kind: 'delivery',
  environment: 'production',
  messageId: `msg_${'A'.repeat(21)}${n}`,
  round: 2,
});

const setup = (delayScale = 1) => {
  const clock = new TestClock();
  const queued: QueuedWork[] = [];
  const waited: DueDelivery[] = [];
  const deliveries = queuedDeliveries({
    queue: { send: async (messages) => void queued.push(...messages) },
    waits: { start: async (delivery) => void waited.push(delivery) },
    clock,
    delayScale,
  });
  return { clock, queued, waited, deliveries };
};

test('a delivery due within 15 minutes is queued with its delay in whole seconds, rounded up; a later one waits in the workflow', async () => {
  const { clock, queued, waited, deliveries } = setup();
  const now = clock.now();
  const dues = [
    now - SECOND,
    now,
    now + 1,
    now + MINUTE,
    now + 15 * MINUTE,
    now + 15 * MINUTE + 1,
    now + 24 * HOUR,
  ];
  await deliveries.schedule(dues.map((dueAt, i) => ({ run: run(i), dueAt })));
  expect(queued.map(({ body, delaySeconds }) => [deliveryRunOf(body), delaySeconds])).toEqual([
    [run(0), 0],
    [run(1), 0],
    [run(2), 1],
    [run(3), 60],
    [run(4), 900],
  ]);
  expect(waited).toEqual([
    { run: run(5), dueAt: now + 15 * MINUTE + 1 },
    { run: run(6), dueAt: now + 24 * HOUR },
  ]);
});

test('with DELAY_SCALE the queue reaches as far in the scaled schedule: retries past 30 minutes still wait in the workflow', async () => {
  const { clock, queued, waited, deliveries } = setup(20_000);
  const now = clock.now();
  // The schedule's 1, 5 and 30 minutes, scaled: 3 ms and 15 ms are within 900 s / 20000 = 45 ms; 90 ms is not.
  await deliveries.schedule(
    [MINUTE, 5 * MINUTE, 30 * MINUTE].map((pause, i) => ({ run: run(i), dueAt: now + pause / 20_000 })),
  );
  expect(queued.map(({ body, delaySeconds }) => [deliveryRunOf(body), delaySeconds])).toEqual([
    [run(0), 1],
    [run(1), 1],
  ]);
  expect(waited.map(({ run }) => run)).toEqual([run(2)]);
});

test('the queued body is the run and nothing else, read back as it was; anything else is refused', () => {
  const body = JSON.stringify({ ...run(1), secret: 'whsec_x' });
  expect(deliveryRunOf(body)).toEqual(run(1));
  expect(() => deliveryRunOf(JSON.stringify({ ...run(1), kind: 'contract' }))).toThrow('not a delivery run');
  expect(() => deliveryRunOf(JSON.stringify({ ...run(1), messageId: 'evt_1' }))).toThrow(
    'not a delivery run',
  );
  expect(() => deliveryRunOf(JSON.stringify({ ...run(1), round: 0 }))).toThrow('not a delivery run');
});

test('nothing to schedule sends nothing and starts nothing', async () => {
  const { queued, waited, deliveries } = setup();
  await deliveries.schedule([]);
  expect([queued, waited]).toEqual([[], []]);
});

test('a wait is an execution named after the run and its due time, waiting until that time; a second start of it is no error', async () => {
  const sent: StartExecutionCommand[] = [];
  let exists = false;
  const client = {
    send: async (command: StartExecutionCommand) => {
      sent.push(command);
      if (exists) throw new ExecutionAlreadyExists({ message: 'exists', $metadata: {} });
      return {};
    },
  } as unknown as SFNClient;
  const waits = stepFunctionsDeliveryWaits(client, 'arn:aws:states:eu-west-1:1:stateMachine:waits');
  const dueAt = Date.UTC(2026, 10, 21, 11, 30, 0, 123) * 1000 + 456;
  await waits.start({ run: run(1), dueAt });
  exists = true;
  await waits.start({ run: run(1), dueAt });

  expect(sent).toHaveLength(2);
  const input = sent[0]?.input;
  expect(input?.stateMachineArn).toBe('arn:aws:states:eu-west-1:1:stateMachine:waits');
  expect(input?.name).toBe(`${run(1).messageId}-r2-w${dueAt}`);
  expect(input?.name?.length).toBeLessThanOrEqual(80);
  expect(JSON.parse(input?.input ?? '')).toEqual({ ...run(1), dueAt: '2026-11-21T11:30:00.124Z' });
  expect(sent[1]?.input).toEqual(input);
});
