// infra -> webhook delivery of one environment: the fan-out of recorded events to webhook messages
// (lambdas/workers/fan-out.ts; run by the table's stream when an event is written, and every minute so
// a missed invocation only delays) and the Standard state machine of delivery runs, deployed from
// lib/workflows/webhook-delivery.asl.json, whose one Task attempts a message
// (lambdas/workers/attempt-delivery.ts).
import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { ServiceFunction } from './service-function';
import { connectService, type HostResources, useStateMachines } from './wiring';
import { workflowStateMachine } from './workflow-state-machine';

/** Construct ids of the two functions (the ASL file names the attempt `${AttemptDeliveryFunctionArn}`). */
export const ATTEMPT_DELIVERY = 'AttemptDelivery';
export const FAN_OUT = 'FanOut';

/** Minutes between the scheduled fan-outs (the safety net under the stream). */
export const FAN_OUT_MINUTES = 1;

export class WebhookDelivery extends Construct {
  /** The delivery workflow's one task: one attempt of a message (signed, sent, recorded). */
  readonly attempt: ServiceFunction;
  /** Fans recorded events out to messages and starts their delivery runs. */
  readonly fanOut: ServiceFunction;
  /** The state machine of delivery runs (as `StateMachines` for the hosts that start runs). */
  readonly stateMachine: StateMachine;

  constructor(scope: Construct, id: string, resources: HostResources) {
    super(scope, id);
    const table = resources.table;

    // Egress: the attempt calls arbitrary public https endpoints, so it runs outside any VPC (Lambda's
    // own internet access; no NAT gateway). Which addresses it may reach is not a network rule but code:
    // the SSRF guard (lambdas/core/webhooks/target.ts) checks every address the name resolves to, at
    // registration and before every attempt, and pins the connection to the checked addresses.
    this.attempt = new ServiceFunction(this, ATTEMPT_DELIVERY, {
      entry: 'lambdas/hosts/aws/functions/attempt-delivery.ts',
      description: 'delivery run: attempt a webhook message when it is due',
      // An attempt is network-bound (at most 10 s for everything); the memory buys a faster cold start.
      memorySize: 512,
      // The Task's TimeoutSeconds.
      timeout: Duration.seconds(60),
    });
    connectService(this.attempt, resources, 'none');

    this.stateMachine = workflowStateMachine(
      this,
      'DeliveryRuns',
      'delivery',
      new Map([[ATTEMPT_DELIVERY, this.attempt]]),
    ).stateMachine;

    this.fanOut = new ServiceFunction(this, FAN_OUT, {
      entry: 'lambdas/hosts/aws/functions/fan-out.ts',
      description: 'fan recorded events out to webhook messages and start their delivery runs',
      memorySize: 256,
      // A backlog is taken 100 events at a time until none is left; what a time-out leaves, the next takes.
      timeout: Duration.minutes(2),
    });
    connectService(this.fanOut, resources, 'none');
    useStateMachines(this.fanOut, { delivery: this.stateMachine });
    this.fanOut.addEventSource(
      new DynamoEventSource(table, {
        // Events written before this existed are pending in the outbox, where the schedule finds them.
        startingPosition: StartingPosition.LATEST,
        // The fan-out reads the outbox itself, so what a batch carries does not matter: a batch is only
        // the signal that events were written, and one invocation takes every pending event.
        batchSize: 100,
        // A failed batch is split and retried a few times, then dropped (nothing is lost: its events stay
        // pending in the outbox, and the scheduled fan-out takes them within a minute).
        bisectBatchOnError: true,
        retryAttempts: 3,
        maxRecordAge: Duration.hours(1),
        // Only outbox events written: inserted items of `type` `event`.
        filters: [
          FilterCriteria.filter({
            eventName: FilterRule.isEqual('INSERT'),
            dynamodb: { NewImage: { type: { S: FilterRule.isEqual('event') } } },
          }),
        ],
      }),
    );
    new Rule(this, 'FanOutSchedule', {
      schedule: Schedule.rate(Duration.minutes(FAN_OUT_MINUTES)),
      targets: [new LambdaFunction(this.fanOut)],
    });
  }
}
