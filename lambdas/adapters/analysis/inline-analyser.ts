// adapters -> the contract analysis in the calling thread, within its deadline: for a Lambda, which runs
// one task at a time and has nothing else to answer meanwhile.
import { analyseContract, deadlineBudget } from '../../core/analysis';
import type { ContractAnalyser } from '../../core/ports';

export const inlineAnalyser = (): ContractAnalyser => ({
  analyse: async (contract, deadlineMs) => analyseContract(contract, deadlineBudget(deadlineMs, Date.now)),
});
