// infra -> what every HTTP API of the service gets: stage throttling (API Gateway answers 429 past it, before
// any function runs), an access log of each request in CloudWatch Logs, and the acknowledgement that its
// routes carry no API Gateway authorizer (the functions authenticate every call themselves).
import type { CfnStage, HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { acknowledgeFindings } from './checks';

/** Requests a second (and burst) across an API's routes: far above any client's own rate limit. */
export interface ApiThrottle {
  readonly rate: number;
  readonly burst: number;
}

/**
 * The fields of an access log line: who asked for what and how it went, never a header or a body (the
 * Authorization header and the payloads stay out of the logs).
 */
export const ACCESS_LOG_FORMAT = JSON.stringify({
  requestId: '$context.requestId',
  requestTime: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  method: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  status: '$context.status',
  responseLength: '$context.responseLength',
  latencyMs: '$context.responseLatency',
  integrationLatencyMs: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
});

/** Throttles `api`'s default stage, logs its requests to a log group of its own, kept 3 months. */
export function protectHttpApi(scope: Construct, api: HttpApi, throttle: ApiThrottle): LogGroup {
  const logs = new LogGroup(scope, 'AccessLogs', { retention: RetentionDays.THREE_MONTHS });
  const stage = api.defaultStage?.node.defaultChild as CfnStage | undefined;
  if (!stage) throw new Error('the HTTP API has no default stage');
  stage.accessLogSettings = { destinationArn: logs.logGroupArn, format: ACCESS_LOG_FORMAT };
  stage.defaultRouteSettings = {
    throttlingRateLimit: throttle.rate,
    throttlingBurstLimit: throttle.burst,
  };
  acknowledgeFindings(
    api,
    /AwsSolutions-APIG4/,
    'Each function authenticates its calls itself (bearer access tokens, API keys at POST /v1/token, session tokens in the frame API) and answers in the service’s own error shape; an authorizer would answer in API Gateway’s.',
  );
  return logs;
}
