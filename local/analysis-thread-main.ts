// local -> the module an analysis thread runs (see thread-analyser.ts): the analysis of the contract in
// `workerData`, within its deadline, posted back once: the analysis, or the error that stopped it.
import { parentPort, workerData } from 'node:worker_threads';
import { analyseContract, deadlineBudget } from '../lambdas/core/analysis';
import type { ThreadOutcome, ThreadTask } from './thread-analyser';

if (!parentPort) throw new Error('analysis-thread-main runs in a worker thread');
const { contract, deadlineMs } = workerData as ThreadTask;
let outcome: ThreadOutcome;
try {
  outcome = { analysis: analyseContract(contract, deadlineBudget(deadlineMs, Date.now)) };
} catch (error) {
  outcome = {
    error:
      error instanceof Error
        ? { name: error.name, message: error.message }
        : { name: 'Error', message: String(error) },
  };
}
parentPort.postMessage(outcome);
