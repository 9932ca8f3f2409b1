// api -> matching a method and path to a route of `routes.ts`, as API Gateway does deployed; used by
// the hosts that serve HTTP themselves (local stack, upload ingest service) and by the 405 answer.
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

const COMPILED = ROUTES.map(compile);

export interface RouteMatch {
  route: Route;
  pathParameters: Record<string, string>;
}

const matchPath = (compiled: CompiledRoute, path: string): Record<string, string> | null => {
  const match = compiled.pattern.exec(path);
  if (!match) return null;
  return Object.fromEntries(
    compiled.names.map((name, index) => [name, decodeURIComponent(match[index + 1] ?? '')]),
  );
};

export const matchRoute = (method: string, path: string): RouteMatch | null => {
  // Literal routes before parameterised ones, as API Gateway prefers the most specific.
  const candidates = COMPILED.filter((c) => c.route.method === method).sort(
    (a, b) => a.names.length - b.names.length,
  );
  for (const compiled of candidates) {
    const pathParameters = matchPath(compiled, path);
    if (pathParameters) return { route: compiled.route, pathParameters };
  }
  return null;
};

export const methodsAllowed = (path: string): string[] => [
  ...new Set(
    COMPILED.filter((compiled) => matchPath(compiled, path) !== null).map(
      (compiled) => compiled.route.method,
    ),
  ),
];
