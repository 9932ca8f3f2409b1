// local -> the contract analysis in a thread of its own, one per analysis: the local stack's one
// process also answers every request, and an analysis of a long contract would hold its event loop
// (issue 26: a GET hung for a minute behind one). Rendering runs in threads for the same reason
// (adapters/pdf/pdfjs-render-thread.ts). The thread stops itself at the deadline (the analysis's
// budget); should it not, it is ended a little after.
import { Worker } from 'node:worker_threads';
import { AnalysisTimedOut } from '../lambdas/core/analysis';
import type { ContractAnalysis } from '../lambdas/core/analysis/types';
import type { ContractAnalyser } from '../lambdas/core/ports';
import type { RenderedContract } from '../lambdas/core/rendered-contract';

export interface ThreadTask {
  contract: RenderedContract;
  deadlineMs: number;
}

export type ThreadOutcome = { analysis: ContractAnalysis } | { error: { name: string; message: string } };

/** From the sources a bootstrap that registers tsx's loader in the thread (see the renderer's). */
const FROM_SOURCES = import.meta.url.endsWith('.ts');
const THREAD_MODULE = new URL(
  FROM_SOURCES ? './analysis-thread-tsx.mjs' : './analysis-thread-main.mjs',
  import.meta.url,
);

/** How long past its deadline a thread that has not stopped itself is left before it is ended. */
const GRACE_MS = 5_000;

const failure = ({ name, message }: { name: string; message: string }): Error => {
  if (name === 'AnalysisTimedOut') return new AnalysisTimedOut(message);
  const error = new Error(message);
  error.name = name;
  return error;
};

export const threadAnalyser = (): ContractAnalyser => ({
  analyse: (contract, deadlineMs) =>
    new Promise<ContractAnalysis>((resolve, reject) => {
      const task: ThreadTask = { contract, deadlineMs };
      const thread = new Worker(THREAD_MODULE, { workerData: task, ...(FROM_SOURCES && { execArgv: [] }) });
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(backstop);
        outcome();
        void thread.terminate();
      };
      const backstop = setTimeout(
        () => settle(() => reject(new AnalysisTimedOut())),
        Math.max(0, deadlineMs - Date.now()) + GRACE_MS,
      );
      thread.on('message', (outcome: ThreadOutcome) =>
        settle(() => ('analysis' in outcome ? resolve(outcome.analysis) : reject(failure(outcome.error)))),
      );
      thread.on('error', (error) => settle(() => reject(error)));
      thread.on('exit', (code) =>
        settle(() => reject(new Error(`The analysis thread ended (exit code ${code}) without an outcome.`))),
      );
    }),
});
