// api -> an endpoint is one function from a request and the environment's services to an answer.
// `endpoint()` wraps it once for every host: its `handle` answers the one request model (request.ts) that
// the router (app.ts, locally and in the upload ingest service) or the Lambda adapter (deployed) hands
// it, with the services the host built. Once answered, a call whose credential the core accepted goes to
// the request history's recorder.
import { log, withLogKeys } from '../../core/log';
import { REQUEST_MESSAGE } from '../../core/log-lines';
import type { Ports } from '../../core/ports';
import { newRequestId } from '../../core/request-ids';
import type { Services } from '../../core/services';
import type { Route } from '../routes';
import { clientGoneAnswer, errorAnswer, type HttpAnswer, jsonAnswer } from './answer';
import type { ApiRequest } from './request';

export interface Reply {
  status: number;
  /** A value to serialise, or JSON text to send as it is (idempotent replays). */
  body: unknown;
  headers?: Record<string, string>;
}

export type EndpointFunction<P> = (request: ApiRequest, services: Services<P>) => Promise<Reply>;

/** The ports every endpoint's wrapper calls: the clock it times a call by, and the request history's recorder. */
export type AnsweringPorts = Pick<Ports, 'clock' | 'apiRequestRecorder'>;

/**
 * An endpoint over the ports `P` it calls (`AnsweringPorts` among them); by default, any. Its member is a
 * property, not a method, so that a host's services are checked against `P` strictly.
 */
export interface Endpoint<P = Ports> {
  /** Answers a request (a body streams when the host streams it: the upload routes). */
  handle: (request: ApiRequest, services: Services<P>) => Promise<HttpAnswer>;
}

/** One API's routes and their endpoints by name, with the endpoint that answers everything else. */
export interface RouteTable<Name extends string = string, P = Ports> {
  routes: readonly Route<Name>[];
  endpoints: Readonly<Record<Name, Endpoint<P>>>;
  fallback: Name;
}

export const endpoint = <P>(fn: EndpointFunction<P>): Endpoint<P & AnsweringPorts> => {
  const answer = async (
    request: ApiRequest,
    services: Services<P>,
    requestId: string,
  ): Promise<HttpAnswer> => {
    try {
      const reply = await fn(request, services);
      if (reply.status === 204)
        return { status: 204, headers: { 'Service-Request-Id': requestId, ...reply.headers }, body: '' };
      return jsonAnswer(requestId, reply.status, reply.body, reply.headers);
    } catch (error) {
      return request.clientGone() ? clientGoneAnswer(requestId, request) : errorAnswer(requestId, error);
    }
  };
  const handle = async (request: ApiRequest, services: Services<P & AnsweringPorts>): Promise<HttpAnswer> => {
    const requestId = newRequestId();
    const { clock, apiRequestRecorder } = services.ports;
    const started = clock.now();
    // Every line logged while answering names the request and its environment.
    const keys = { service_request_id: requestId, environment: services.settings.environment };
    const result = await withLogKeys(keys, () => answer(request, services, requestId));
    const durationMs = Math.round((clock.now() - started) / 1000);
    // One line per request, whatever its answer: what a person watching the stack's log follows.
    log.info(REQUEST_MESSAGE, {
      ...keys,
      method: request.method,
      path: request.path,
      status: result.status,
      duration_ms: durationMs,
    });
    // Outside the request's log keys: the recorder's later writes are no one request's work.
    const { caller } = request;
    if (caller !== undefined)
      apiRequestRecorder.record({
        id: requestId,
        time: started,
        method: request.method,
        path: request.path,
        status: result.status,
        durationMs,
        environment: caller.environment,
        integrationId: caller.integrationId,
      });
    return result;
  };
  return { handle };
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
