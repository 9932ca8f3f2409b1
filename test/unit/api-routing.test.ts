// The route table, the endpoint registry and the router agree.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ENDPOINTS } from '../../lambdas/api/endpoints';
import { FRAME_ENDPOINTS } from '../../lambdas/api/frame-endpoints';
import { FRAME_FALLBACK_HANDLER, FRAME_ROUTES } from '../../lambdas/api/frame-routes';
import { matchRoute, methodsAllowed } from '../../lambdas/api/http/router';
import { type ApiEndpointName, FALLBACK_HANDLER, ROUTES } from '../../lambdas/api/routes';

test('every route has its handler module and an endpoint of the same name, and nothing else is registered', () => {
  for (const route of ROUTES) {
    expect(existsSync(fileURLToPath(new URL(`../../lambdas/api/${route.name}.ts`, import.meta.url)))).toBe(
      true,
    );
    expect(ENDPOINTS[route.name]).toBeDefined();
  }
  expect(Object.keys(ENDPOINTS).sort()).toEqual([...ROUTES.map((r) => r.name), FALLBACK_HANDLER].sort());
});

test.each([
  ['POST', '/v1/token', 'token', {}],
  ['POST', '/v1/clients/onboardings/sessions', 'create-onboarding-session', {}],
  ['GET', '/v1/clients/onboardings/onb_1', 'get-onboarding', { id: 'onb_1' }],
  ['GET', '/v1/clients/cli_1', 'get-client', { id: 'cli_1' }],
  ['GET', '/v1/clients', 'list-clients', {}],
  ['POST', '/v1/contract-reviews', 'create-contract-review', {}],
  ['GET', '/v1/contract-reviews/crv_1', 'get-contract-review', { id: 'crv_1' }],
  ['POST', '/v1/contract-reviews/crv_1/versions', 'create-contract-review-version', { id: 'crv_1' }],
  ['GET', '/v1/openapi.json', 'openapi', {}],
])('%s %s -> %s', (method, path, name, parameters) => {
  expect(matchRoute(method, path)).toEqual({
    route: expect.objectContaining({ name }),
    pathParameters: parameters,
  });
});

test('unknown paths match nothing; known paths list their methods', () => {
  expect(matchRoute('GET', '/v1/contract-reviews/crv_1/versions')).toBeNull();
  expect(matchRoute('GET', '/v1/clients/a/b')).toBeNull();
  expect(methodsAllowed('/v1/contract-reviews')).toEqual(['POST', 'GET']);
  expect(methodsAllowed('/nothing')).toEqual([]);
});

test('the frame API: every route has its handler module and endpoint; its router knows no /v1 route', () => {
  for (const route of FRAME_ROUTES) {
    expect(existsSync(fileURLToPath(new URL(`../../lambdas/api/${route.name}.ts`, import.meta.url)))).toBe(
      true,
    );
    expect(FRAME_ENDPOINTS.endpoints[route.name]).toBeDefined();
  }
  expect(Object.keys(FRAME_ENDPOINTS.endpoints).sort()).toEqual(
    [...FRAME_ROUTES.map((r) => r.name), FRAME_FALLBACK_HANDLER].sort(),
  );
  expect(FRAME_ENDPOINTS.routes).toBe(FRAME_ROUTES);
  expect(matchRoute('GET', '/api/form')).toBeNull();
});

test('a name is one the routes declare: a misspelt one does not compile, and each has its function entry', () => {
  // @ts-expect-error a name no route declares (tsc -p . fails when it compiles)
  const misspelt: ApiEndpointName = 'get-clients';
  expect(Object.keys(ENDPOINTS)).not.toContain(misspelt);
  for (const name of [...ROUTES, ...FRAME_ROUTES].map((route) => route.name))
    expect([
      name,
      existsSync(fileURLToPath(new URL(`../../lambdas/hosts/aws/functions/${name}.ts`, import.meta.url))),
    ]).toEqual([name, true]);
  expect(ROUTES.filter((route) => route.issuesAccessTokens).map((route) => route.name)).toEqual(['token']);
});
