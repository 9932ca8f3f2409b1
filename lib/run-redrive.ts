// infra -> the re-drive of recorded runs (lambdas/workers/redrive-runs.ts) on a schedule: runs recorded
// but never started (a lost start, or recorded by the operator tool: reviews, redeliveries, test events)
// start within minutes, and deliveries overdue (lost from the delivery queue) are handed to it again. It starts every kind of run, so it is built once every state machine exists.
import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { RunKind } from '../lambdas/core/ports';
import { ServiceFunction } from './service-function';
import {
  connectService,
  type HostResources,
  handsOnDeliveries,
  TABLE_WORKER,
  useStateMachines,
} from './wiring';

/** Minutes between re-drives of runs that never started. */
export const REDRIVE_MINUTES = 5;

export class RunRedrive extends Construct {
  /** Starts every recorded run that has not finished. */
  readonly function: ServiceFunction;

  /** `stateMachines`: every kind's, so that no recorded run is left unstarted. */
  constructor(
    scope: Construct,
    id: string,
    resources: HostResources,
    stateMachines: Readonly<Record<RunKind, IStateMachine>>,
    deliveryQueue: IQueue,
  ) {
    super(scope, id);
    this.function = new ServiceFunction(this, 'RedriveRuns', {
      entry: 'lambdas/hosts/aws/functions/redrive-runs.ts',
      description: 'start every recorded run that has not finished',
      memorySize: 256,
      timeout: Duration.minutes(1),
    });
    connectService(this.function, resources, TABLE_WORKER);
    const { delivery, ...workflows } = stateMachines;
    useStateMachines(this.function, workflows);
    handsOnDeliveries(this.function, deliveryQueue, delivery);
    new Rule(this, 'Schedule', {
      schedule: Schedule.rate(Duration.minutes(REDRIVE_MINUTES)),
      targets: [new LambdaFunction(this.function)],
    });
  }
}
