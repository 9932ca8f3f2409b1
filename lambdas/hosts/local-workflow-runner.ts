// host -> the local stack's workflow runner: the state machine files CDK deploys, with each Task state
// calling its worker in-process against the run's environment's services.
import { fileURLToPath } from 'node:url';
import { LocalStepFunctions, type LocalTask } from '../adapters/workflows/local-step-functions';
import type { LocalWaits } from '../adapters/workflows/local-waits';
import type { Environment } from '../core/model';
import type { Services } from '../core/services';
import { WORKERS } from '../workers';

const workflowFile = (name: string) => fileURLToPath(new URL(`../../lib/workflows/${name}`, import.meta.url));

/** Pages rendered at once: each render holds a few canvases and keeps a core busy (Lambda scales out instead). */
const RENDERS_AT_ONCE = 2;

/** At most `limit` calls of `task` under way; the rest wait their turn, in order. */
const limitConcurrency = (task: LocalTask, limit: number): LocalTask => {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (input, environment, signal) => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await task(input, environment, signal);
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
};

export const localWorkflowRunner = (
  services: Record<Environment, Services>,
  waits: Record<Environment, LocalWaits>,
  delayScale: number,
): Promise<LocalStepFunctions> => {
  const tasks: Record<string, LocalTask> = Object.fromEntries(
    Object.entries(WORKERS).map(([name, worker]) => [
      name,
      (input: unknown, environment: Environment, signal: AbortSignal) =>
        worker.run(input, services[environment], signal),
    ]),
  );
  const process = tasks.ProcessContractFunctionArn;
  if (process) tasks.ProcessContractFunctionArn = limitConcurrency(process, RENDERS_AT_ONCE);
  return LocalStepFunctions.load({
    definitionFiles: {
      contract: workflowFile('contract-pipeline.asl.json'),
      review: workflowFile('review-publication.asl.json'),
      delivery: workflowFile('webhook-delivery.asl.json'),
      acceptance: workflowFile('onboarding-acceptance.asl.json'),
    },
    tasks,
    runs: { production: services.production.ports.runs, sandbox: services.sandbox.ports.runs },
    waits,
    delayScale,
  });
};
