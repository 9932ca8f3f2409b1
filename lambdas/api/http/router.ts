// api -> matching a method and path to a route of a route table (`routes.ts`, `frame-routes.ts`), as API
// Gateway does deployed; used by the hosts that serve HTTP themselves (local stack, upload ingest service)
// and by the 405 answers.
import { ROUTES, type Route } from '../routes';

interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  names: string[];
}

const compile = (route: Route): CompiledRoute => {
  const names: string[] = [];
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { route, pattern: new RegExp(`^${source}$`), names };
};

export interface RouteMatch {
  route: Route;
  pathParameters: Record<string, string>;
}

export interface Router {
  match(method: string, path: string): RouteMatch | null;
  /** The methods of the routes at `path`, for `405` and its `Allow` header. */
  methodsAllowed(path: string): string[];
}

/** A path segment decoded, or null when its percent-encoding is malformed or not UTF-8 (`%zz`, `%c0%af`). */
const decodeSegment = (segment: string): string | null => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
};

/** The route's parameters in `path`; null when it does not match, or a parameter cannot be decoded (no id). */
const matchPath = (compiled: CompiledRoute, path: string): Record<string, string> | null => {
  const match = compiled.pattern.exec(path);
  if (!match) return null;
  const parameters: Record<string, string> = {};
  for (const [index, name] of compiled.names.entries()) {
    const value = decodeSegment(match[index + 1] ?? '');
    if (value === null) return null;
    parameters[name] = value;
  }
  return parameters;
};

export const createRouter = (routes: readonly Route[]): Router => {
  const compiled = routes.map(compile);
  // Each method's routes, literal ones before parameterised ones, as API Gateway prefers the most specific.
  const byMethod = new Map<string, CompiledRoute[]>();
  for (const c of [...compiled].sort((a, b) => a.names.length - b.names.length)) {
    byMethod.set(c.route.method, [...(byMethod.get(c.route.method) ?? []), c]);
  }
  return {
    match: (method, path) => {
      for (const candidate of byMethod.get(method) ?? []) {
        const pathParameters = matchPath(candidate, path);
        if (pathParameters) return { route: candidate.route, pathParameters };
      }
      return null;
    },
    methodsAllowed: (path) => [
      ...new Set(compiled.filter((c) => matchPath(c, path) !== null).map((c) => c.route.method)),
    ],
  };
};

/** The `/v1` API's router. */
export const API_ROUTER = createRouter(ROUTES);

export const matchRoute = (method: string, path: string): RouteMatch | null => API_ROUTER.match(method, path);

export const methodsAllowed = (path: string): string[] => API_ROUTER.methodsAllowed(path);
