// api -> an endpoint is one function from a request and the environment's services to an answer.
// `endpoint()` wraps it once for every host: `run` (in-process, streaming bodies) and `handler` (Lambda).
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Ports } from '../../core/ports';
import type { Settings } from '../../core/settings';
import { clientGoneAnswer, errorAnswer, type HttpAnswer, jsonAnswer, newRequestId } from './answer';
import { type ApiRequest, fromApiGatewayEvent } from './request';
import type { Router } from './router';

/** What one environment's host wires in at start-up. */
export interface Services {
  ports: Ports;
  settings: Settings;
}

export interface Reply {
  status: number;
  /** A value to serialise, or JSON text to send as it is (idempotent replays). */
  body: unknown;
  headers?: Record<string, string>;
}

export type EndpointFunction = (request: ApiRequest, services: Services) => Promise<Reply>;

export interface Endpoint {
  run(request: ApiRequest, services: Services): Promise<HttpAnswer>;
  handler(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2>;
}

/** One API's routes and their endpoints by name, with the endpoint that answers everything else. */
export interface RouteTable {
  router: Router;
  endpoints: Readonly<Record<string, Endpoint>>;
  fallback: string;
}

type ServicesResolver = (event: APIGatewayProxyEventV2) => Promise<Services>;

/** Deployed, the services come from the AWS composition root, built once per Lambda instance. */
let resolveServices: ServicesResolver = async () =>
  (await import('../../adapters/aws/services')).awsServices();

/** The local stack serves both environments in one process: it picks the services per request. */
export const useServicesResolver = (resolver: ServicesResolver): void => {
  resolveServices = resolver;
};

export const endpoint = (fn: EndpointFunction): Endpoint => {
  const run = async (request: ApiRequest, services: Services): Promise<HttpAnswer> => {
    const requestId = newRequestId();
    try {
      const reply = await fn(request, services);
      if (reply.status === 204)
        return { status: 204, headers: { 'Service-Request-Id': requestId, ...reply.headers }, body: '' };
      return jsonAnswer(requestId, reply.status, reply.body, reply.headers);
    } catch (error) {
      return request.clientGone() ? clientGoneAnswer(requestId, request) : errorAnswer(requestId, error);
    }
  };
  return {
    run,
    handler: async (event) => {
      let answer: HttpAnswer;
      try {
        answer = await run(fromApiGatewayEvent(event), await resolveServices(event));
      } catch (error) {
        answer = errorAnswer(newRequestId(), error);
      }
      return { statusCode: answer.status, headers: answer.headers, body: answer.body };
    },
  };
};

export const ok = (body: unknown, status = 200): Reply => ({ status, body });

/** An answer no cache may keep: what a person typed. */
export const noStore = (body: unknown, status = 200): Reply => ({
  status,
  body,
  headers: { 'Cache-Control': 'no-store' },
});

/** 204, no body. */
export const noContent = (): Reply => ({ status: 204, body: null, headers: { 'Cache-Control': 'no-store' } });
