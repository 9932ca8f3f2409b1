// api -> matching a method and path to a route of a route table with Hono's own router (the one the Hono
// apps route by): for the answers that need a table's routes outside an app, the 405's `Allow` of the
// `/v1` and frame APIs' fallbacks (deployed, their own functions behind API Gateway's `$default`), the
// portal's and the MCP server's.
import { METHOD_NAME_ALL } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';
import { ROUTES } from '../routes';

/** A route as a table declares it: its path in API Gateway's form (`{id}`) or Hono's (`:id{[a-z]+}`). */
export interface RoutePattern {
  readonly method: string;
  readonly path: string;
}

/** `{id}` as Hono writes it, `:id`; a path in Hono's form is left as it is. */
export const honoPath = (path: string): string => path.replace(/\/\{(\w+)\}/g, '/:$1');

/** How many parameters a path has: literal routes go first, as API Gateway prefers the most specific. */
const parameterCount = (route: RoutePattern): number => honoPath(route.path).split('/:').length - 1;

export interface RouteMatch<R extends RoutePattern> {
  route: R;
  pathParameters: Record<string, string>;
}

export interface Router<R extends RoutePattern> {
  match(method: string, path: string): RouteMatch<R> | null;
  /** The methods of the routes at `path`, in the table's order, for `405` and its `Allow` header. */
  methodsAllowed(path: string): string[];
}

/** Parameters decoded, or null when one's percent-encoding is malformed or not UTF-8 (`%zz`, `%c0%af`). */
const decoded = (parameters: Record<string, string>): Record<string, string> | null => {
  const values: Record<string, string> = {};
  try {
    for (const [name, value] of Object.entries(parameters)) values[name] = decodeURIComponent(value);
  } catch {
    return null;
  }
  return values;
};

/** `path` as given (not decoded) matched against `routes`; a route whose parameter cannot be decoded is no match. */
export const createRouter = <R extends RoutePattern>(routes: readonly R[]): Router<R> => {
  const byMethod = new TrieRouter<R>();
  const anyMethod = new TrieRouter<R>();
  for (const route of [...routes].sort((a, b) => parameterCount(a) - parameterCount(b))) {
    byMethod.add(route.method, honoPath(route.path), route);
    anyMethod.add(METHOD_NAME_ALL, honoPath(route.path), route);
  }
  const matches = (router: TrieRouter<R>, method: string, path: string): RouteMatch<R>[] =>
    router.match(method, path)[0].flatMap(([route, parameters]) => {
      const pathParameters = decoded(parameters as Record<string, string>);
      return pathParameters === null ? [] : [{ route, pathParameters }];
    });
  return {
    match: (method, path) => matches(byMethod, method, path)[0] ?? null,
    methodsAllowed: (path) => {
      const found = new Set(matches(anyMethod, 'GET', path).map(({ route }) => route));
      return [...new Set(routes.filter((route) => found.has(route)).map((route) => route.method))];
    },
  };
};

/** The `/v1` API's router. */
export const API_ROUTER = createRouter(ROUTES);

export const matchRoute = (method: string, path: string) => API_ROUTER.match(method, path);

export const methodsAllowed = (path: string): string[] => API_ROUTER.methodsAllowed(path);
