// adapter -> the workflows port on the local stack. Every run is already recorded (pending) in DynamoDB
// in the transaction that accepted its version; the local workflow runner drives recorded runs. Until
// it is wired in, a start only says so in the log.
import type { ContractRunRequest, Workflows } from '../../core/ports';

export const localWorkflows = (onStart: (run: ContractRunRequest) => void = () => {}): Workflows => ({
  startContractRun: async (run) => {
    onStart(run);
  },
});
