// host -> serves one environment's API over Node HTTP the way it is served deployed: each request that
// API Gateway would carry becomes the same API Gateway (HTTP API, payload 2.0) event and goes to that
// endpoint's Lambda `handler`; the two upload routes stream their body into the endpoint, as the
// deployed upload ingest service does.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { clientGoneAnswer, errorAnswer, type HttpAnswer } from '../api/http/answer';
import type { RouteTable } from '../api/http/endpoint';
import { fromNodeRequest, unreadOnReturn } from '../api/http/request';
import type { Route } from '../api/routes';
import { ServiceError } from '../core/errors';
import { newRequestId } from '../core/request-ids';
import type { Services } from '../core/services';
import { requestTarget } from './request-target';

/** API Gateway's own limit on a request body. */
const API_GATEWAY_MAX_BODY = 10 * 1024 * 1024;
/** How long an early answer (401, 413, …) waits for the rest of an unread body before closing. */
const DRAIN_MS = 5_000;

const endpointOf = <P>(table: RouteTable<P>, name: string) => {
  const found = table.endpoints[name];
  if (!found) throw new Error(`no endpoint named ${name}`);
  return found;
};

const NO_BODY = Buffer.alloc(0);

/** A request with neither header has no body (RFC 9112 §6.3): a GET answers without waiting to read one. */
const hasBody = (request: IncomingMessage): boolean =>
  request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined;

const readBody = async (request: IncomingMessage): Promise<Buffer | null> => {
  if (!hasBody(request)) {
    request.resume();
    return NO_BODY;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of unreadOnReturn(request)) {
    size += (chunk as Buffer).length;
    if (size > API_GATEWAY_MAX_BODY) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');
let clock = { second: Number.NaN, text: '' };

/**
 * `requestContext.time` as API Gateway writes it (`26/Nov/2026:03:29:40 +0000`). It changes once a
 * second, so it is made once a second: formatting a date per request was a measurable share of a GET.
 */
const requestTime = (epochMs: number): string => {
  const second = Math.floor(epochMs / 1000);
  if (second !== clock.second) {
    const d = new Date(second * 1000);
    const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
    clock = {
      second,
      text: `${two(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${time} +0000`,
    };
  }
  return clock.text;
};

const isText = (contentType: string | undefined): boolean =>
  contentType === undefined || /^(text\/|application\/(json|x-www-form-urlencoded))/i.test(contentType);

/** The event API Gateway's HTTP API hands a Lambda integration (payload format 2.0). */
const toEvent = (
  request: IncomingMessage,
  url: URL,
  route: Route | undefined,
  pathParameters: Record<string, string>,
  body: Buffer,
  stage: string,
): APIGatewayProxyEventV2 => {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const method = (request.method ?? 'GET').toUpperCase();
  const text = isText(headers['content-type']);
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: route ? `${route.method} ${route.path}` : '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    queryStringParameters: url.search ? Object.fromEntries(url.searchParams) : undefined,
    pathParameters: Object.keys(pathParameters).length > 0 ? pathParameters : undefined,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: url.host,
      domainPrefix: 'local',
      http: {
        method,
        path: url.pathname,
        protocol: 'HTTP/1.1',
        sourceIp: request.socket.remoteAddress ?? '',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: route ? `${route.method} ${route.path}` : '$default',
      stage,
      time: requestTime(now),
      timeEpoch: now,
    },
    body: body.length === 0 ? undefined : body.toString(text ? 'utf8' : 'base64'),
    isBase64Encoded: body.length > 0 && !text,
  };
};

const fromLambdaResult = (result: APIGatewayProxyStructuredResultV2): HttpAnswer => ({
  status: result.statusCode ?? 200,
  headers: Object.fromEntries(
    Object.entries(result.headers ?? {}).map(([name, value]) => [name, String(value)]),
  ),
  body: result.body ?? '',
});

const send = (request: IncomingMessage, response: ServerResponse, answer: HttpAnswer): void => {
  const unread = !request.complete;
  // Null once the client has gone; taken before the answer ends, as Node detaches it from a finished exchange.
  const socket: Socket | null = request.socket;
  response.writeHead(answer.status, {
    ...answer.headers,
    'Content-Length': Buffer.byteLength(answer.body),
    ...(unread && { Connection: 'close' }),
  });
  response.end(answer.body);
  if (unread) {
    // Answered before the body was read (401, 413, …): discard what is still coming, then hang up.
    const hangUp = setTimeout(() => socket?.destroy(), DRAIN_MS).unref();
    request.once('end', () => clearTimeout(hangUp));
    request.resume();
  }
};

/**
 * A request listener for one environment's API: the `/v1` API, or another route table (the frame API).
 * `stage` names the environment in the event's `requestContext.stage`, which the local stack's services
 * resolver reads.
 */
export const apiListener =
  <P>(services: Services<P>, stage: string, table: RouteTable<P>) =>
  async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    try {
      const url = requestTarget(request.url);
      const method = (request.method ?? 'GET').toUpperCase();
      const match = table.router.match(method, url.pathname);
      const route = match?.route;
      const pathParameters = match?.pathParameters ?? {};
      const endpoint = endpointOf(table, route?.name ?? table.fallback);
      if (route?.upload) {
        send(request, response, await endpoint.run(fromNodeRequest(request, url, pathParameters), services));
        return;
      }
      const body = await readBody(request);
      if (body === null) {
        send(
          request,
          response,
          errorAnswer(
            newRequestId(),
            new ServiceError('payload_too_large', 'A request body here may be up to 10 MB.'),
          ),
        );
        return;
      }
      const event = toEvent(request, url, route, pathParameters, body, stage);
      const result = await endpoint.handle(event, async () => services);
      send(request, response, fromLambdaResult(result));
    } catch (error) {
      const answer = request.readableAborted
        ? clientGoneAnswer(newRequestId(), {
            method: request.method ?? '',
            path: requestTarget(request.url).pathname,
          })
        : errorAnswer(newRequestId(), error);
      if (!response.headersSent && !request.readableAborted) send(request, response, answer);
      else response.destroy();
    }
  };
