// infra -> webhook delivery of one environment, and the event bus that feeds it. Recorded events are
// published to the environment's EventBridge bus by the publisher (lambdas/core/webhooks/publish.ts; run
// by the table's stream when an event is written, and every minute so a missed invocation only
// delays); the bus's rules (lambdas/adapters/events/bus-rules.ts, the table the local bus routes by)
// hand them to the fan-out queue, whose consumer fans each out to webhook messages
// (lambdas/hosts/queue-consumers/fan-out-records.ts) and hands those to the delivery queue, whose consumer makes the
// attempts (lambdas/hosts/queue-consumers/delivery-records.ts). A retry due within 15 minutes waits in the delivery queue
// (its message's delay); a later one (30 min to 24 h) in the Standard state machine deployed from
// lib/workflows/webhook-delivery.asl.json, which waits and hands the run back to the queue
// (lambdas/workers/hand-back-delivery.ts): only failing endpoints ever start it. A hand-back that keeps
// failing ends in the give-up (lambdas/workers/give-up-delivery-wait.ts), which says so at ERROR.
import { Duration } from 'aws-cdk-lib';
import { EventBus, type EventPattern, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction, SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { BUS_RULES, type EventPattern as BusPattern } from '../lambdas/adapters/events/bus-rules';
import { WORKFLOW_TASKS, type WorkflowTaskName } from '../lambdas/workers/tasks';
import { alarmedWorkQueue } from './dead-letters';
import { ServiceFunction } from './service-function';
import { connectService, type HostResources, handsOnDeliveries, TABLE_WORKER } from './wiring';
import { workflowStateMachine } from './workflow-state-machine';

/** Construct ids of the functions; the delivery wait's two are its tasks (lambdas/workers/tasks.ts). */
export const DELIVER = 'DeliverWebhooks';
export const HAND_BACK_DELIVERY = 'HandBackDelivery' satisfies WorkflowTaskName;
export const GIVE_UP_DELIVERY_WAIT = 'GiveUpDeliveryWait' satisfies WorkflowTaskName;
export const FAN_OUT = 'FanOut';
export const PUBLISH_EVENTS = 'PublishEvents';

/** Minutes between the scheduled publishes (the safety net under the stream). */
export const PUBLISH_MINUTES = 1;

/** Receives of a queued event before it is kept aside in the dead-letter queue (and the alarm sounds). */
export const FAN_OUT_RECEIVES = 5;

/**
 * Receives of a queued delivery before it is kept aside: a delivery whose handling fails this often (the
 * table unavailable throughout) waits there, and the scheduled re-drive hands its run on once overdue.
 */
export const DELIVERY_RECEIVES = 5;

/** A bus rule's pattern as CDK writes it (`detail-type` is `detailType` there). */
const cdkPattern = (pattern: BusPattern): EventPattern =>
  Object.fromEntries(
    Object.entries(pattern).map(([field, value]) => [field === 'detail-type' ? 'detailType' : field, value]),
  ) as EventPattern;

export class WebhookDelivery extends Construct {
  /** The delivery queue's consumer: the due attempts of queued deliveries (signed, sent, recorded). */
  readonly deliver: ServiceFunction;
  /** The delivery wait's one task: hands a delivery back to the queue once due. */
  readonly handBack: ServiceFunction;
  /** The delivery wait's last resort when the hand-back kept failing: logs it at ERROR. */
  readonly giveUp: ServiceFunction;
  /** Fans the queued events out to messages and hands them to the delivery queue. */
  readonly fanOut: ServiceFunction;
  /** Publishes recorded events to the bus. */
  readonly publish: ServiceFunction;
  /** The environment's event bus. */
  readonly bus: EventBus;
  /** The fan-out's queue and its dead-letter queue. */
  readonly fanOutQueue: Queue;
  readonly fanOutDeadLetters: Queue;
  /** The delivery queue and its dead-letter queue. */
  readonly deliveryQueue: Queue;
  readonly deliveryDeadLetters: Queue;
  /** The state machine of deliveries' waits past the queue's 15 minutes. */
  readonly stateMachine: StateMachine;

  constructor(scope: Construct, id: string, resources: HostResources) {
    super(scope, id);
    const table = resources.table;

    // The delivery queue: what the fan-out, the consumer itself (retries within 15 minutes) and the wait
    // workflow hand on. A message's body is a delivery run, never a secret or a receiver's address.
    const delivery = alarmedWorkQueue(this, 'Delivery', {
      holds: 'Webhook deliveries the consumer could not handle',
      // Six times the consumer's timeout, as Lambda advises, so a batch under way is not handed out again.
      visibilityTimeout: Duration.seconds(6 * 30),
      maxReceiveCount: DELIVERY_RECEIVES,
    });
    this.deliveryQueue = delivery.queue;
    this.deliveryDeadLetters = delivery.deadLetters;

    // The wait of a retry past the queue's 15 minutes: its one task hands the run back to the queue.
    this.handBack = new ServiceFunction(this, HAND_BACK_DELIVERY, {
      entry: WORKFLOW_TASKS[HAND_BACK_DELIVERY].entry,
      description: 'delivery wait: hand a webhook delivery back to the delivery queue once due',
      memorySize: 256,
      // The Task's TimeoutSeconds.
      timeout: Duration.seconds(30),
    });
    connectService(this.handBack, resources, TABLE_WORKER);
    this.giveUp = new ServiceFunction(this, GIVE_UP_DELIVERY_WAIT, {
      entry: WORKFLOW_TASKS[GIVE_UP_DELIVERY_WAIT].entry,
      description: 'delivery wait: say at ERROR that a hand-back kept failing (the re-drive hands it on)',
      memorySize: 256,
      timeout: Duration.seconds(30),
    });
    // It touches nothing, but every service function is given the settings the composition root reads.
    connectService(this.giveUp, resources, TABLE_WORKER);
    this.stateMachine = workflowStateMachine(
      this,
      'DeliveryWaits',
      'delivery',
      new Map([
        [HAND_BACK_DELIVERY, this.handBack],
        [GIVE_UP_DELIVERY_WAIT, this.giveUp],
      ]),
    ).stateMachine;

    // Egress: the consumer calls arbitrary public https endpoints, so it runs outside any VPC (Lambda's
    // own internet access; no NAT gateway). Which addresses it may reach is not a network rule but code:
    // the SSRF guard (lambdas/core/webhooks/target.ts) checks every address the name resolves to, at
    // registration and before every attempt, and pins the connection to the checked addresses.
    this.deliver = new ServiceFunction(this, DELIVER, {
      entry: 'lambdas/hosts/aws/functions/deliver-webhooks.ts',
      description: 'webhook delivery: make the due attempts of a batch of queued deliveries',
      // A batch's 10 attempts go out at once, each network-bound (at most 10 s); the memory buys a faster
      // cold start and TLS handshakes.
      memorySize: 512,
      // 10 s for the slowest receiver, and the table's reads and writes around it.
      timeout: Duration.seconds(30),
    });
    connectService(this.deliver, resources, TABLE_WORKER);
    this.deliver.addEventSource(
      new SqsEventSource(this.deliveryQueue, {
        // Up to 10 deliveries a batch, sent at once; no batching window, so a lone delivery is not held back
        // (the event to first attempt time is what receivers notice).
        batchSize: 10,
        reportBatchItemFailures: true,
        // 50 batches at once: 500 attempts under way, enough for a burst of thousands a second at the
        // receivers' usual answer times, while a slow receiver's 10 s holds only its own batch's slot. Each
        // attempt is two table writes (hold, record), well under on-demand limits.
        maxConcurrency: 50,
      }),
    );

    handsOnDeliveries(this.handBack, this.deliveryQueue);
    handsOnDeliveries(this.deliver, this.deliveryQueue, this.stateMachine);

    this.bus = new EventBus(this, 'Bus');
    this.publish = new ServiceFunction(this, PUBLISH_EVENTS, {
      entry: 'lambdas/hosts/aws/functions/publish-events.ts',
      description: 'publish recorded events to the event bus',
      memorySize: 256,
      // A backlog is taken 100 events at a time until none is left; what a time-out leaves, the next takes.
      timeout: Duration.minutes(2),
    });
    connectService(this.publish, resources, TABLE_WORKER);
    this.publish.addEnvironment('EVENT_BUS_NAME', this.bus.eventBusName);
    this.bus.grantPutEventsTo(this.publish);
    this.publish.addEventSource(
      new DynamoEventSource(table, {
        // Events written before this existed are pending in the outbox, where the schedule finds them.
        startingPosition: StartingPosition.LATEST,
        // The publisher reads the outbox itself, so what a batch carries does not matter: a batch is only
        // the signal that events were written, and one invocation takes every publishable event.
        batchSize: 100,
        // A failed batch is split and retried a few times, then dropped (nothing is lost: its events stay
        // pending in the outbox, and the scheduled publish takes them within a minute).
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
    new Rule(this, 'PublishSchedule', {
      schedule: Schedule.rate(Duration.minutes(PUBLISH_MINUTES)),
      targets: [new LambdaFunction(this.publish)],
    });

    this.fanOut = new ServiceFunction(this, FAN_OUT, {
      entry: 'lambdas/hosts/aws/functions/fan-out.ts',
      description: 'fan queued events out to webhook messages and hand them to the delivery queue',
      memorySize: 256,
      // A batch of 10 events, each a read and one transaction.
      timeout: Duration.seconds(30),
    });
    connectService(this.fanOut, resources, TABLE_WORKER);
    handsOnDeliveries(this.fanOut, this.deliveryQueue, this.stateMachine);

    const fanOut = alarmedWorkQueue(this, 'FanOut', {
      holds: 'Events the webhook fan-out could not take',
      // Six times the consumer's timeout, as Lambda advises, so a batch under way is not handed out again.
      visibilityTimeout: Duration.seconds(180),
      maxReceiveCount: FAN_OUT_RECEIVES,
    });
    this.fanOutQueue = fanOut.queue;
    this.fanOutDeadLetters = fanOut.deadLetters;
    const toFanOut = BUS_RULES.find((rule) => rule.name === 'webhook-fan-out');
    if (!toFanOut) throw new Error('the bus rules have no webhook-fan-out');
    new Rule(this, 'ToFanOut', {
      eventBus: this.bus,
      eventPattern: cdkPattern(toFanOut.pattern),
      // What the bus cannot hand the queue (after its own retries) is kept, not dropped.
      targets: [new SqsQueue(this.fanOutQueue, { deadLetterQueue: this.fanOutDeadLetters })],
    });
    this.fanOut.addEventSource(
      new SqsEventSource(this.fanOutQueue, {
        // Up to 10 events a batch, collected for at most a second: a burst is taken in few invocations,
        // and an event alone waits no longer than that.
        batchSize: 10,
        maxBatchingWindow: Duration.seconds(1),
        reportBatchItemFailures: true,
        // Each fan-out is a table transaction: 10 at once keep a burst of thousands of messages well
        // under the table's on-demand limits, and leave the account's concurrency to the API.
        maxConcurrency: 10,
      }),
    );
  }
}
