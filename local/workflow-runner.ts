// local -> the local stack's workflow runner: the state machine files CDK deploys, with each Task state
// calling its worker in-process against the run's environment's services.
import { fileURLToPath } from 'node:url';
import type { Environment } from '../lambdas/core/model';
import type { WorkQueue } from '../lambdas/core/ports';
import type { Services } from '../lambdas/core/services';
import { WORKERS } from '../lambdas/workers';
import { queuePlaceholder, taskPlaceholder, WORKFLOW_TASK_NAMES } from '../lambdas/workers/tasks';
import { LocalStepFunctions, type LocalTask } from './emulators/step-functions';
import type { LocalWaits } from './emulators/step-functions-waits';

const workflowFile = (name: string) => fileURLToPath(new URL(`../lib/workflows/${name}`, import.meta.url));

export const localWorkflowRunner = (
  services: Record<Environment, Services>,
  waits: Record<Environment, LocalWaits>,
  renderQueues: Record<Environment, WorkQueue>,
  delayScale: number,
): Promise<LocalStepFunctions> => {
  const tasks: Record<string, LocalTask> = Object.fromEntries(
    WORKFLOW_TASK_NAMES.map((name) => [
      taskPlaceholder(name),
      (input: unknown, environment: Environment, signal: AbortSignal) =>
        WORKERS[name].perform(input, services[environment], signal),
    ]),
  );
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
    // The Process state sends each attempt to the render queue (its consumer: local/event-flow.ts).
    queues: { [queuePlaceholder('RenderQueue')]: renderQueues },
    delayScale,
  });
};
