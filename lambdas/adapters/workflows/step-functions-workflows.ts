// adapter -> the workflows port deployed: one Step Functions execution per run, named after it so a
// second start of the same run is refused by Step Functions itself (idempotent).
import { ExecutionAlreadyExists, type SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import type { RunKind, RunRequest, Workflows } from '../../core/ports';

/** The execution name of a run: unique per run (kind and subject), at most 80 characters. */
export const executionName = (run: RunRequest): string => {
  switch (run.kind) {
    case 'delivery':
      return `${run.messageId}-r${run.round}`;
    case 'acceptance':
      return `${run.onboardingId}-s${run.submittedAt}`;
    default:
      return `${run.contractReviewId}-v${run.version}-${run.kind}`;
  }
};

export const stepFunctionsWorkflows = (
  client: SFNClient,
  stateMachineArns: Readonly<Partial<Record<RunKind, string>>>,
): Workflows => ({
  start: async (run) => {
    const stateMachineArn = stateMachineArns[run.kind];
    // Without a state machine (before the pipeline is deployed) the recorded run waits for the re-drive.
    if (stateMachineArn === undefined) return;
    try {
      await client.send(
        new StartExecutionCommand({ stateMachineArn, name: executionName(run), input: JSON.stringify(run) }),
      );
    } catch (error) {
      if (!(error instanceof ExecutionAlreadyExists)) throw error;
    }
  },
});
