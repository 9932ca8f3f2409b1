// test support -> the event API Gateway's HTTP API (payload 2.0) hands a function, for the tests of the
// one Lambda adapter and what runs behind it: `method` and the overrides on a POST to `/`.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

export type EventOverrides = Partial<APIGatewayProxyEventV2> & { method?: string };

export const apiGatewayEvent = ({ method = 'POST', ...rest }: EventOverrides): APIGatewayProxyEventV2 => ({
  version: '2.0',
  routeKey: '$default',
  rawPath: '/',
  rawQueryString: '',
  headers: {},
  requestContext: {
    accountId: '1',
    apiId: 'api',
    domainName: 'api.execute-api.eu-west-1.amazonaws.com',
    domainPrefix: 'api',
    http: {
      method,
      path: rest.rawPath ?? '/',
      protocol: 'HTTP/1.1',
      sourceIp: '203.0.113.1',
      userAgent: 'agent',
    },
    requestId: 'r1',
    routeKey: '$default',
    stage: '$default',
    time: '26/Nov/2026:07:00:00 +0000',
    timeEpoch: 0,
  },
  isBase64Encoded: false,
  ...rest,
});
