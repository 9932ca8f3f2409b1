// adapter -> the workflows port deployed: one Step Functions execution per run, named after it so a
// second start of the same run is refused by Step Functions itself (idempotent), and the end of a run's
// wait by its task token; and the waits of webhook deliveries past the delivery queue's reach.
import {
  ExecutionAlreadyExists,
  SendTaskFailureCommand,
  SendTaskSuccessCommand,
  type SFNClient,
  StartExecutionCommand,
  TaskDoesNotExist,
  TaskTimedOut,
} from '@aws-sdk/client-sfn';
import type { DueDelivery, WorkflowRun, Workflows } from '../../core/ports';
import { deliveryWaitInput } from '../../core/webhooks/delivery-run';
import type { DeliveryWaits } from '../queues/delivery-queue';

/** The execution name of a run: unique per run (kind and subject), at most 80 characters. */
export const executionName = (run: WorkflowRun): string => {
  switch (run.kind) {
    case 'acceptance':
      return `${run.onboardingId}-s${run.submittedAt}`;
    default:
      return `${run.contractReviewId}-v${run.version}-${run.kind}`;
  }
};

/** Starts an execution, taking one of the same name already there as started (idempotent). */
const startOnce = async (client: SFNClient, stateMachineArn: string, name: string, input: object) => {
  try {
    await client.send(new StartExecutionCommand({ stateMachineArn, name, input: JSON.stringify(input) }));
  } catch (error) {
    if (!(error instanceof ExecutionAlreadyExists)) throw error;
  }
};

/**
 * The wait of a delivery past the queue's reach: an execution of the delivery state machine, named
 * after the run and its due time (so one wait per attempt however often it is asked for), whose input
 * is the run and the time its Wait state waits until.
 */
export const stepFunctionsDeliveryWaits = (client: SFNClient, stateMachineArn: string): DeliveryWaits => ({
  start: (delivery: DueDelivery) =>
    startOnce(
      client,
      stateMachineArn,
      `${delivery.run.messageId}-r${delivery.run.round}-w${delivery.dueAt}`,
      deliveryWaitInput(delivery),
    ),
});

/** Ends a wait; one that is over already (answered, timed out, its execution gone) is left as it is. */
const endWait = async (sending: Promise<unknown>) => {
  try {
    await sending;
  } catch (error) {
    if (!(error instanceof TaskDoesNotExist || error instanceof TaskTimedOut)) throw error;
  }
};

export const stepFunctionsWorkflows = (
  client: SFNClient,
  stateMachineArns: Readonly<Partial<Record<WorkflowRun['kind'], string>>>,
): Workflows => ({
  start: async (run) => {
    const stateMachineArn = stateMachineArns[run.kind];
    // Without a state machine (before the pipeline is deployed) the recorded run waits for the re-drive.
    if (stateMachineArn === undefined) return;
    await startOnce(client, stateMachineArn, executionName(run), run);
  },
  completeWait: (taskToken, output) =>
    endWait(client.send(new SendTaskSuccessCommand({ taskToken, output: JSON.stringify(output) }))),
  // Step Functions takes an error name of up to 256 characters and a cause of up to 32,768.
  failWait: (taskToken, error, cause) =>
    endWait(
      client.send(
        new SendTaskFailureCommand({ taskToken, error: error.slice(0, 256), cause: cause.slice(0, 32_768) }),
      ),
    ),
});
