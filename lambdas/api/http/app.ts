// api -> the one router of an API's route table (`routes.ts`, `frame-routes.ts`), on Hono: each route to
// its endpoint with the path parameters it names, decoded; every other method and path to the table's
// fallback (404 `not_found`, 405 `method_not_allowed`). An ordinary route takes its body whole, up to
// API Gateway's limit; an upload route streams its body into the endpoint.
import { Hono } from 'hono';
import { ServiceError } from '../../core/errors';
import { newRequestId } from '../../core/request-ids';
import type { Services } from '../../core/services';
import type { Route } from '../routes';
import { errorAnswer, responseOf } from './answer';
import { readBodyUpTo } from './body';
import type { Endpoint, RouteTable } from './endpoint';
import { fromRequest } from './request';
import { honoPath } from './router';

/** API Gateway's own limit on a request body. */
export const API_GATEWAY_MAX_BODY = 10 * 1024 * 1024;

/** A path segment decoded, or null when its percent-encoding is malformed or not UTF-8 (`%zz`, `%c0%af`). */
const decodeSegment = (segment: string): string | null => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
};

/** Each segment of a route's path: the name of the parameter it is, or undefined for a literal one. */
const parameterNames = (route: Route): (string | undefined)[] =>
  route.path.split('/').map((segment) => /^\{(\w+)\}$/.exec(segment)?.[1]);

/**
 * The route's parameters in `path`, each decoded from its own segment (a route's parameters are whole
 * segments); null when one cannot be decoded, which no id can be. `names` is the route's parameterNames,
 * worked out once rather than on every request.
 */
const parametersOf = (
  names: readonly (string | undefined)[],
  path: string,
): Record<string, string> | null => {
  const segments = path.split('/');
  const parameters: Record<string, string> = {};
  for (const [index, named] of names.entries()) {
    if (named === undefined) continue;
    const value = decodeSegment(segments[index] ?? '');
    if (value === null) return null;
    parameters[named] = value;
  }
  return parameters;
};

/** The request with its body read whole, or null when it passes API Gateway's limit. */
const taken = async (request: Request): Promise<Request | null> => {
  // A GET or HEAD has no body (no adapter gives it one); asking the Node adapter's request for `body`
  // would build a whole web-standard Request, headers and all, on every GET.
  if (request.method === 'GET' || request.method === 'HEAD' || request.body === null) return request;
  const { bytes, whole } = await readBodyUpTo(request, API_GATEWAY_MAX_BODY);
  if (!whole) return null;
  return new Request(request.url, { method: request.method, headers: request.headers, body: bytes });
};

const TOO_LARGE = () =>
  responseOf(
    errorAnswer(
      newRequestId(),
      new ServiceError('payload_too_large', 'A request body here may be up to 10 MB.'),
    ),
  );

/** `table` as one fetch handler over `services` (asked per request: a root that cannot be built is a 500). */
export const apiApp = <Name extends string, P>(
  table: RouteTable<Name, P>,
  services: () => Promise<Services<P>>,
): Hono => {
  const app = new Hono();
  const fallback = table.endpoints[table.fallback];
  // Hono answers HEAD with a GET route; no route of the API takes HEAD, so the fallback answers it (405).
  const answer = async (
    endpoint: Endpoint<P>,
    request: Request,
    url: URL,
    parameters: Record<string, string>,
    upload: boolean,
  ): Promise<Response> => {
    const whole = upload ? request : await taken(request);
    if (whole === null) return TOO_LARGE();
    return responseOf(await endpoint.handle(fromRequest(whole, parameters, url), await services()));
  };
  const answerFallback = (request: Request) => answer(fallback, request, new URL(request.url), {}, false);
  // Literal routes before parameterised ones, as API Gateway prefers the most specific.
  const routes = [...table.routes].sort(
    (a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0),
  );
  // Each request matches its one route and nothing else (the fallback is Hono's not-found handler, HEAD is
  // turned away before routing): a lone handler is called directly, where a middleware or a catch-all
  // beside it would compose a chain per request.
  for (const route of routes) {
    const endpoint = table.endpoints[route.name];
    const names = parameterNames(route);
    app.on(route.method, honoPath(route.path), (c) => {
      const url = new URL(c.req.url);
      const parameters = parametersOf(names, url.pathname);
      return parameters === null
        ? answer(fallback, c.req.raw, url, {}, false)
        : answer(endpoint, c.req.raw, url, parameters, route.upload === true);
    });
  }
  app.notFound((c) => answerFallback(c.req.raw));
  // Hono answers HEAD with a GET route; no route of the API takes HEAD, so the fallback answers it (405).
  const dispatch = app.fetch;
  app.fetch = (request, ...rest) =>
    request.method === 'HEAD' ? answerFallback(request) : dispatch(request, ...rest);
  return app;
};
