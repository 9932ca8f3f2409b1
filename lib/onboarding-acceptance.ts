// infra -> the automatic acceptance of sandbox sign-ups (decisions.md §7): the Standard state machine of
// acceptance runs, deployed from lib/workflows/onboarding-acceptance.asl.json, whose one Task accepts a
// submission once it is a minute old (lambdas/workers/accept-onboarding.ts).
import { Duration } from 'aws-cdk-lib';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { ServiceFunction } from './service-function';
import { connectService, type HostResources, TABLE_WORKER } from './wiring';
import { workflowStateMachine } from './workflow-state-machine';

/** Construct id of the task's function (the ASL file names it `${AcceptOnboardingFunctionArn}`). */
export const ACCEPT_ONBOARDING = 'AcceptOnboarding';
/** Construct id of the last resort's function (`${GiveUpAcceptanceFunctionArn}`). */
export const GIVE_UP_ACCEPTANCE = 'GiveUpAcceptance';

export class OnboardingAcceptance extends Construct {
  readonly accept: ServiceFunction;
  /** Records a run whose task kept failing as failed, so the re-drive stops restarting it. */
  readonly giveUp: ServiceFunction;
  readonly stateMachine: StateMachine;

  constructor(scope: Construct, id: string, resources: HostResources) {
    super(scope, id);
    this.accept = new ServiceFunction(this, ACCEPT_ONBOARDING, {
      entry: 'lambdas/hosts/aws/functions/accept-onboarding.ts',
      description: 'acceptance run: accept a sandbox sign-up a minute after it was submitted',
      memorySize: 256,
      // The Task's TimeoutSeconds.
      timeout: Duration.seconds(60),
    });
    connectService(this.accept, resources, TABLE_WORKER);
    this.giveUp = new ServiceFunction(this, GIVE_UP_ACCEPTANCE, {
      entry: 'lambdas/hosts/aws/functions/give-up-acceptance.ts',
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
