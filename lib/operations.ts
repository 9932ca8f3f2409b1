// infra -> how a stage tells its operators something is wrong: one SNS topic per stage, which every alarm
// of the stack notifies (found in the tree, so an alarm or function added later is covered without
// naming it here), alarms on each function's errors and throttles, each state machine's failed and
// timed-out executions, each work queue's oldest message, each HTTP API's 5xx share and p99 latency, the ingest
// service's healthy tasks and contracts past their 20-minute promise; and a CloudWatch dashboard of the same.
import { Duration, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ApplicationTargetGroup } from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import { FilterPattern, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { PUBLICATION_CHECK_LINE } from '../lambdas/core/contracts/publication-promise';
import { acknowledge } from './checks';
import type { Environment } from './environments';
import { ServiceFunction } from './service-function';

/** Per cent of an API's answers that are 5xx, over 5 minutes of at least `MIN_REQUESTS`, that alarms. */
export const API_5XX_PERCENT = 5;
/** Fewer requests than this in 5 minutes: a 5xx share means nothing. */
const MIN_REQUESTS = 20;
/** An API whose slowest 1% of answers take this long (twice running) is felt by every person using it. */
export const API_P99_ALARM = Duration.seconds(5);
/** The metric of the functions' `error` log lines (one per stage namespace). */
export const ERROR_LINES_METRIC = 'ErrorLines';
/** Webhook messages given up after their 8th attempt (the delivery consumer's `webhook attempt made` line). */
export const WEBHOOKS_GIVEN_UP_METRIC = 'WebhookMessagesGivenUp';
/** Contract runs whose viewer is past its 20-minute promise, as the re-drive counts them every 5 minutes. */
export const LATE_PUBLICATIONS_METRIC = 'ContractsPastTheirPromise';
/** Age of a work queue's oldest message that alarms: work waiting this long is stuck, not queued. */
export const QUEUE_AGE_ALARM = Duration.hours(1);

export interface OperationsProps {
  readonly environment: Environment;
  /** Where the alarms are mailed (context `service:<environment>`.alarmEmail); none: subscribe by hand. */
  readonly alarmEmail?: string;
  readonly httpApis: Readonly<Record<string, HttpApi>>;
  /** The ingest service's target group: its healthy tasks. */
  readonly ingestTargets: ApplicationTargetGroup;
  /** The scheduled re-drive of runs, whose log says how many contracts are past their promise. */
  readonly redrive: ServiceFunction;
}

const FIVE_MINUTES = Duration.minutes(5);

/**
 * What every HTTP API of the service is alarmed on (the stages' and the identity stack's): its share of 5xx
 * answers over 5 minutes, and its p99 latency. `name` keeps the expression's ids unique where several
 * APIs' expressions share a graph.
 */
export const apiHealth = (
  api: HttpApi,
  name: string,
): { errorShare: MathExpression; p99Latency: IMetric } => ({
  errorShare: new MathExpression({
    label: `${name} 5xx %`,
    expression: `IF(requests${name} >= ${MIN_REQUESTS}, 100 * errors${name} / requests${name}, 0)`,
    usingMetrics: {
      [`requests${name}`]: api.metricCount({ period: FIVE_MINUTES }),
      [`errors${name}`]: api.metricServerError({ period: FIVE_MINUTES }),
    },
    period: FIVE_MINUTES,
  }),
  p99Latency: api.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' }),
});

export class Operations extends Construct {
  /** Every alarm of the stack notifies it. */
  readonly topic: Topic;
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OperationsProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const name = `contract-service-${props.environment}`;
    this.topic = new Topic(this, 'Alarms', { displayName: `${name} alarms`, enforceSSL: true });
    acknowledge(
      this.topic,
      'AwsSolutions-SNS2',
      'Alarm notifications carry alarm names and states, no personal data; CloudWatch cannot publish to a topic under the AWS-managed SNS key.',
    );
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));

    // A resource's alarms and metric filters are made in its own stack (the stateless stack or one of its
    // nested stacks), so a nested stack's resources never cross into this one as parameters.
    const scopes = new Map<Stack, Construct>([[stack, this]]);
    const scopeOf = (node: Construct): Construct => {
      const own = Stack.of(node);
      const existing = scopes.get(own);
      if (existing) return existing;
      const made = new Construct(own, 'Alarms');
      scopes.set(own, made);
      return made;
    };
    const alarm = (
      id: string,
      description: string,
      metric: IMetric,
      threshold: number,
      below = false,
      scope: Construct = this,
      periods = 1,
    ) =>
      new Alarm(scope, id, {
        alarmDescription: `${name}: ${description}`,
        metric,
        threshold,
        evaluationPeriods: periods,
        datapointsToAlarm: periods,
        comparisonOperator: below
          ? ComparisonOperator.LESS_THAN_THRESHOLD
          : ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: below ? TreatMissingData.BREACHING : TreatMissingData.NOT_BREACHING,
      });

    // A construct's path within its own stack, as an id: `PipelinePublishViewer`.
    const label = (node: Construct): string => {
      const path = node.node.scopes;
      return path
        .slice(path.indexOf(Stack.of(node)) + 1)
        .map((scope) => scope.node.id)
        .join('');
    };
    const everything = stack.node.findAll();
    const functions = everything.filter((node): node is ServiceFunction => node instanceof ServiceFunction);
    const stateMachines = everything.filter((node): node is StateMachine => node instanceof StateMachine);
    const workQueues = everything.filter(
      (node): node is Queue => node instanceof Queue && node.deadLetterQueue !== undefined,
    );

    for (const fn of functions) {
      const path = label(fn);
      const scope = scopeOf(fn);
      alarm(`${path}Errors`, `${path} failed`, fn.metricErrors({ period: FIVE_MINUTES }), 1, false, scope);
      alarm(
        `${path}Throttles`,
        `${path} was throttled`,
        fn.metricThrottles({ period: FIVE_MINUTES }),
        1,
        false,
        scope,
      );
    }
    // An `error` line is a fault that needs an operator (README, Logs), e.g. a contract run that gave up,
    // whose execution itself succeeds: every function's error lines count in one metric, one alarm.
    const errorLines = new Metric({
      namespace: `contract-service/${props.environment}`,
      metricName: ERROR_LINES_METRIC,
      statistic: 'Sum',
      period: FIVE_MINUTES,
    });
    for (const fn of functions) {
      new MetricFilter(scopeOf(fn), `${label(fn)}ErrorLines`, {
        logGroup: fn.logGroup,
        filterPattern: FilterPattern.stringValue('$.level', '=', 'ERROR'),
        metricNamespace: errorLines.namespace,
        metricName: errorLines.metricName,
        metricValue: '1',
      });
    }
    alarm(
      'ErrorLines',
      'a function logged an error (a fault that needs an operator; see its logs)',
      errorLines,
      1,
    );
    // A receiver that failed all 8 attempts of a message: the integrator's fault, usually, but one an
    // operator should hear of (a receiver down for a day, or a delivery fault of ours).
    const givenUp = new Metric({
      namespace: errorLines.namespace,
      metricName: WEBHOOKS_GIVEN_UP_METRIC,
      statistic: 'Sum',
      period: FIVE_MINUTES,
    });
    for (const fn of functions) {
      new MetricFilter(scopeOf(fn), `${label(fn)}WebhooksGivenUp`, {
        logGroup: fn.logGroup,
        filterPattern: FilterPattern.all(
          FilterPattern.stringValue('$.message', '=', 'webhook attempt made'),
          FilterPattern.stringValue('$.state', '=', 'failed'),
        ),
        metricNamespace: givenUp.namespace,
        metricName: givenUp.metricName,
        metricValue: '1',
      });
    }
    alarm('WebhooksGivenUp', 'a webhook message was given up after its 8th attempt', givenUp, 1);
    // A contract whose viewer is not live 20 minutes after it was accepted (interface.md's promise). The
    // scheduled re-drive already reads the unfinished runs every 5 minutes, so it checks them and logs
    // the count, 0 included, and a metric filter reads it: nothing new runs, and a run stuck anywhere
    // (a lost start, a render that never ends, a step retrying) is counted while it is stuck, where a
    // duration logged at publication would only tell of a late contract once it was published, and of
    // a stuck one never. (An embedded-metric line would do the same, but no other metric here is one.)
    const late = new Metric({
      namespace: errorLines.namespace,
      metricName: LATE_PUBLICATIONS_METRIC,
      statistic: 'Maximum',
      period: FIVE_MINUTES,
    });
    new MetricFilter(scopeOf(props.redrive), 'LatePublicationsCount', {
      logGroup: props.redrive.logGroup,
      filterPattern: FilterPattern.all(
        FilterPattern.stringValue('$.message', '=', PUBLICATION_CHECK_LINE),
        FilterPattern.numberValue('$.late', '>=', 0),
      ),
      metricNamespace: late.namespace,
      metricName: late.metricName,
      metricValue: '$.late',
    });
    alarm('LatePublications', 'a contract viewer is not published 20 minutes after it was accepted', late, 1);
    for (const machine of stateMachines) {
      const path = label(machine);
      const scope = scopeOf(machine);
      alarm(
        `${path}Failed`,
        `a run of ${path} failed`,
        machine.metricFailed({ period: FIVE_MINUTES }),
        1,
        false,
        scope,
      );
      alarm(
        `${path}TimedOut`,
        `a run of ${path} timed out`,
        machine.metricTimedOut({ period: FIVE_MINUTES }),
        1,
        false,
        scope,
      );
    }
    for (const queue of workQueues) {
      const path = label(queue);
      alarm(
        `${path}Age`,
        `${path} holds a message older than ${QUEUE_AGE_ALARM.toHumanString()}`,
        queue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES }),
        QUEUE_AGE_ALARM.toSeconds(),
        false,
        scopeOf(queue),
      );
    }
    const errorRates = Object.entries(props.httpApis).map(([apiName, api]) => {
      const { errorShare, p99Latency } = apiHealth(api, apiName);
      alarm(
        `${apiName}5xxRate`,
        `over ${API_5XX_PERCENT}% of ${apiName} answers are 5xx`,
        errorShare,
        API_5XX_PERCENT,
      );
      alarm(
        `${apiName}P99Latency`,
        `${apiName}'s p99 latency reached ${API_P99_ALARM.toHumanString()}`,
        p99Latency,
        API_P99_ALARM.toMilliseconds(),
        false,
        this,
        2,
      );
      return errorShare;
    });
    const healthyTasks = props.ingestTargets.metrics.healthyHostCount({
      period: Duration.minutes(1),
      statistic: 'Minimum',
    });
    alarm('IngestHealthyTasks', 'the upload ingest service has no healthy task', healthyTasks, 1, true);

    // Every alarm of the stack, those made elsewhere (the dead-letter queues') included.
    const action = new SnsAction(this.topic);
    for (const node of stack.node.findAll()) if (node instanceof Alarm) node.addAlarmAction(action);

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: name,
      widgets: [
        [
          new GraphWidget({ title: 'API 5xx %', left: errorRates, width: 12 }),
          new GraphWidget({
            title: 'API requests',
            left: Object.values(props.httpApis).map((api) => api.metricCount({ period: FIVE_MINUTES })),
            width: 12,
          }),
        ],
        [
          new GraphWidget({
            title: 'Function errors',
            left: functions.map((fn) => fn.metricErrors({ period: FIVE_MINUTES })),
            width: 12,
          }),
          new GraphWidget({
            title: 'Runs failed or timed out',
            left: stateMachines.flatMap((machine) => [
              machine.metricFailed({ period: FIVE_MINUTES }),
              machine.metricTimedOut({ period: FIVE_MINUTES }),
            ]),
            width: 12,
          }),
        ],
        [
          new GraphWidget({
            title: 'Oldest message (s)',
            left: workQueues.map((queue) =>
              queue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES }),
            ),
            width: 12,
          }),
          new GraphWidget({ title: 'Ingest healthy tasks', left: [healthyTasks], width: 12 }),
        ],
        [new GraphWidget({ title: 'Contracts past their 20-minute promise', left: [late], width: 12 })],
      ],
    });
  }
}
