// infra -> the automatic acceptance of sandbox sign-ups (decisions.md §7): the Standard state machine of
// acceptance runs, deployed from lib/workflows/onboarding-acceptance.asl.json, whose one Task accepts a
// submission once it is a minute old (lambdas/workers/accept-onboarding.ts).
import { Duration } from 'aws-cdk-lib';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { WORKFLOW_TASKS, type WorkflowTaskName } from '../lambdas/workers/tasks';
import { ServiceFunction } from './service-function';
import { connectService, type HostResources, TABLE_WORKER } from './wiring';
import { workflowStateMachine } from './workflow-state-machine';

/** Construct ids of the task's function and of its last resort: their tasks (lambdas/workers/tasks.ts). */
export const ACCEPT_ONBOARDING = 'AcceptOnboarding' satisfies WorkflowTaskName;
export const GIVE_UP_ACCEPTANCE = 'GiveUpAcceptance' satisfies WorkflowTaskName;

export class OnboardingAcceptance extends Construct {
  readonly accept: ServiceFunction;
  /** Records a run whose task kept failing as failed, so the re-drive stops restarting it. */
  readonly giveUp: ServiceFunction;
  readonly stateMachine: StateMachine;

  constructor(scope: Construct, id: string, resources: HostResources) {
    super(scope, id);
    this.accept = new ServiceFunction(this, ACCEPT_ONBOARDING, {
      entry: WORKFLOW_TASKS[ACCEPT_ONBOARDING].entry,
      description: 'acceptance run: accept a sandbox sign-up a minute after it was submitted',
      memorySize: 256,
      // The Task's TimeoutSeconds.
      timeout: Duration.seconds(60),
    });
    connectService(this.accept, resources, TABLE_WORKER);
    this.giveUp = new ServiceFunction(this, GIVE_UP_ACCEPTANCE, {
      entry: WORKFLOW_TASKS[GIVE_UP_ACCEPTANCE].entry,
      description: 'acceptance run: record a run whose task kept failing as failed',
      memorySize: 256,
      timeout: Duration.seconds(60),
    });
    connectService(this.giveUp, resources, TABLE_WORKER);
    this.stateMachine = workflowStateMachine(
      this,
      'AcceptanceRuns',
      'acceptance',
      new Map([
        [ACCEPT_ONBOARDING, this.accept],
        [GIVE_UP_ACCEPTANCE, this.giveUp],
      ]),
    ).stateMachine;
  }
}
