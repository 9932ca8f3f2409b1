// infra -> a dead-letter queue with the alarm that says it holds something: whatever a queue or an
// asynchronous invocation gives up on lands in one, kept 14 days, and an operator hears of it at once.
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
