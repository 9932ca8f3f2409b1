// host -> the one Lambda adapter: a web-standard handler as a Lambda behind API Gateway (HTTP API,
// payload 2.0), through hono's: the event becomes a Request (its cookies joined into `Cookie`, a base64
// body decoded) and the Response the result (`Set-Cookie` apart, a binary body in base64).
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { Hono } from 'hono';
import { handle } from 'hono/aws-lambda';
import { atOrigin, guarded } from '../http/fetch-handler';

/** A handler that may read the event API Gateway matched (its path parameters). */
export type EventFetchHandler = (request: Request, event: APIGatewayProxyEventV2) => Promise<Response>;

export type LambdaHandler = (
  event: APIGatewayProxyEventV2,
  context?: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

/** A GET or HEAD has no body (a Request cannot carry one): whatever was sent with one is not read. */
const withoutReadBody = (event: APIGatewayProxyEventV2): APIGatewayProxyEventV2 => {
  const method = event.requestContext.http.method.toUpperCase();
  return (method === 'GET' || method === 'HEAD') && event.body !== undefined
    ? { ...event, body: undefined, isBase64Encoded: false }
    : event;
};

/** `serve` as a Lambda handler; with `origin`, every request is at that public address. */
export const lambdaHandler = (serve: EventFetchHandler, origin?: string): LambdaHandler => {
  const app = new Hono<{ Bindings: { event: APIGatewayProxyEventV2 } }>().all('*', (c) => {
    const { event } = c.env;
    const request = origin === undefined ? c.req.raw : atOrigin(c.req.raw, origin);
    return guarded((r) => serve(r, event))(request);
  });
  const lambda = handle(app);
  return (event, context) =>
    lambda(
      withoutReadBody(event) as unknown as Parameters<typeof lambda>[0],
      context,
    ) as Promise<APIGatewayProxyStructuredResultV2>;
};
