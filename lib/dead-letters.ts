// infra -> a dead-letter queue with the alarm that says it holds something: whatever a queue or an
// asynchronous invocation gives up on lands in one, kept 14 days, and an operator hears of it at once;
// and a work queue with its own.
import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

export const DEAD_LETTER_RETENTION = Duration.days(14);

export const alarmedDeadLetterQueue = (scope: Construct, id: string, holds: string): Queue => {
  const queue = new Queue(scope, id, {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: DEAD_LETTER_RETENTION,
  });
  new Alarm(scope, `${id}Alarm`, {
    alarmDescription: `${holds}: look at the dead-letter queue`,
    metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1) }),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  return queue;
};

export interface AlarmedWorkQueueProps {
  /** What the dead-letter queue holds, for its alarm's description. */
  holds: string;
  /** How long a received message stays hidden from the other consumers. */
  visibilityTimeout: Duration;
  /** Receives of a message before it goes to the dead-letter queue. */
  maxReceiveCount: number;
}

/**
 * A queue that carries work (`<name>Queue`) with its alarmed dead-letter queue (`<name>DeadLetters`):
 * TLS only, encrypted, like every queue here.
 */
export const alarmedWorkQueue = (
  scope: Construct,
  name: string,
  { holds, visibilityTimeout, maxReceiveCount }: AlarmedWorkQueueProps,
): { queue: Queue; deadLetters: Queue } => {
  const deadLetters = alarmedDeadLetterQueue(scope, `${name}DeadLetters`, holds);
  const queue = new Queue(scope, `${name}Queue`, {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    visibilityTimeout,
    deadLetterQueue: { queue: deadLetters, maxReceiveCount },
  });
  return { queue, deadLetters };
};
