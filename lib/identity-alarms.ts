// infra -> the identity stack's alarms (issue 29 item 4, and the back office's): every function of the stack
// (the identity provider, the portal's and the back office's backends, the origin authorizer) on its
// errors, throttles and p99 duration, and every HTTP API on its share of 5xx answers and its p99 latency.
// The identity stack has no topic of its own: its alarms notify the production stage's, which the
// operators already follow (read from the stage's SSM parameter at deployment).
import { Duration, Stack } from 'aws-cdk-lib';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, type IMetric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { publishedValue } from './identity-context';
import { API_5XX_PERCENT, API_P99_ALARM, apiHealth } from './operations';
import { ServiceFunction } from './service-function';

/** A function whose slowest 1% of calls take this long is near its 29 s timeout or stuck on a dependency. */
export const FUNCTION_P99_ALARM = Duration.seconds(10);
const FIVE_MINUTES = Duration.minutes(5);

export class IdentityAlarms extends Construct {
  readonly alarms: Alarm[] = [];

  /** Made last in the stack: it alarms on every function and HTTP API the stack has by then. */
  constructor(scope: Construct, id: string) {
    super(scope, id);
    const stack = Stack.of(this);
    const alarm = (name: string, description: string, metric: IMetric, threshold: number, periods = 1) =>
      this.alarms.push(
        new Alarm(this, name, {
          alarmDescription: `contract-service identity: ${description}`,
          metric,
          threshold,
          evaluationPeriods: periods,
          datapointsToAlarm: periods,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        }),
      );
    // A construct's path within the stack, as an id: `BackOfficeBackend`.
    const label = (node: Construct): string => {
      const path = node.node.scopes;
      return path
        .slice(path.indexOf(stack) + 1)
        .map((scope) => scope.node.id)
        .join('');
    };
    const everything = stack.node.findAll();
    for (const fn of everything.filter((node): node is ServiceFunction => node instanceof ServiceFunction)) {
      const path = label(fn);
      alarm(`${path}Errors`, `${path} failed`, fn.metricErrors({ period: FIVE_MINUTES }), 1);
      alarm(`${path}Throttles`, `${path} was throttled`, fn.metricThrottles({ period: FIVE_MINUTES }), 1);
      alarm(
        `${path}P99Duration`,
        `${path}'s p99 duration reached ${FUNCTION_P99_ALARM.toHumanString()}`,
        fn.metricDuration({ period: FIVE_MINUTES, statistic: 'p99' }),
        FUNCTION_P99_ALARM.toMilliseconds(),
        2,
      );
    }
    for (const api of everything.filter((node): node is HttpApi => node instanceof HttpApi)) {
      const path = label(api);
      const { errorShare, p99Latency } = apiHealth(api, path);
      alarm(
        `${path}5xxRate`,
        `over ${API_5XX_PERCENT}% of ${path} answers are 5xx`,
        errorShare,
        API_5XX_PERCENT,
      );
      alarm(
        `${path}P99Latency`,
        `${path}'s p99 latency reached ${API_P99_ALARM.toHumanString()}`,
        p99Latency,
        API_P99_ALARM.toMilliseconds(),
        2,
      );
    }
    const topic = Topic.fromTopicArn(this, 'Topic', publishedValue(this, 'production', 'alarmTopicArn'));
    const action = new SnsAction(topic);
    for (const made of this.alarms) made.addAlarmAction(action);
  }
}
