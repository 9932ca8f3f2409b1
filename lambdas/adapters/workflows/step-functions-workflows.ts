// adapter -> the workflows port deployed: one Step Functions execution per version, named after it so a
// second start of the same version is refused by Step Functions itself (idempotent).
import { ExecutionAlreadyExists, type SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import type { ContractRunRequest, Workflows } from '../../core/ports';

export const stepFunctionsWorkflows = (
  client: SFNClient,
  stateMachineArn: string | undefined,
): Workflows => ({
  startContractRun: async (run: ContractRunRequest) => {
    // Without a state machine (before the pipeline is deployed) the recorded run waits for the re-drive.
    if (stateMachineArn === undefined) return;
    try {
      await client.send(
        new StartExecutionCommand({
          stateMachineArn,
          name: `${run.contractReviewId}-v${run.version}`,
          input: JSON.stringify(run),
        }),
      );
    } catch (error) {
      if (!(error instanceof ExecutionAlreadyExists)) throw error;
    }
  },
});
