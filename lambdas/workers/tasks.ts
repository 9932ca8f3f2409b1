// workers -> every workflow task, declared once: its name, the runs whose state machine file calls it, and
// the module its Lambda runs. The rest is derived: the placeholder the ASL files name it by
// (`${<name>FunctionArn}`), the worker registry (index.ts, one worker per name), the CDK functions and
// the ASL substitutions (lib/); a misspelt name is a compile error, and test/unit/workflow-tasks.test.ts
// checks the ASL files against this table. Data only, so the CDK app may read it without the workers.
import type { RunKind } from '../core/ports';

export interface WorkflowTask {
  /** The runs whose state machine file (lib/workflows/*.asl.json) has a Task calling it. */
  readonly runs: readonly RunKind[];
  /** The Lambda's handler module, relative to the repository root (exporting `handler`). */
  readonly entry: string;
}

export const WORKFLOW_TASKS = {
  PublishViewer: { runs: ['contract'], entry: 'lambdas/hosts/aws/functions/publish-viewer.ts' },
  AnalyseContract: { runs: ['contract'], entry: 'lambdas/hosts/aws/functions/analyse-contract.ts' },
  RequestLawyerReview: { runs: ['contract'], entry: 'lambdas/hosts/aws/functions/request-lawyer-review.ts' },
  PublishReview: { runs: ['contract', 'review'], entry: 'lambdas/hosts/aws/functions/publish-review.ts' },
  FinishRun: { runs: ['contract', 'review'], entry: 'lambdas/hosts/aws/functions/finish-run.ts' },
  HandBackDelivery: { runs: ['delivery'], entry: 'lambdas/hosts/aws/functions/hand-back-delivery.ts' },
  GiveUpDeliveryWait: { runs: ['delivery'], entry: 'lambdas/hosts/aws/functions/give-up-delivery-wait.ts' },
  AcceptOnboarding: { runs: ['acceptance'], entry: 'lambdas/hosts/aws/functions/accept-onboarding.ts' },
  GiveUpAcceptance: { runs: ['acceptance'], entry: 'lambdas/hosts/aws/functions/give-up-acceptance.ts' },
} as const satisfies Readonly<Record<string, WorkflowTask>>;

export type WorkflowTaskName = keyof typeof WORKFLOW_TASKS;

export const WORKFLOW_TASK_NAMES = Object.keys(WORKFLOW_TASKS) as WorkflowTaskName[];

/** The placeholder of a task's function ARN in the ASL files. */
export const taskPlaceholder = <Name extends WorkflowTaskName>(name: Name): `${Name}FunctionArn` =>
  `${name}FunctionArn`;

/** The queues a state machine file sends to (a Task that waits for its token), by construct id. */
export const WORKFLOW_QUEUES = { RenderQueue: { runs: ['contract'] } } as const satisfies Readonly<
  Record<string, { readonly runs: readonly RunKind[] }>
>;

export type WorkflowQueueName = keyof typeof WORKFLOW_QUEUES;

/** The placeholder of a queue's URL in the ASL files. */
export const queuePlaceholder = <Name extends WorkflowQueueName>(name: Name): `${Name}Url` => `${name}Url`;
