// api -> the nine endpoints of the interface and its OpenAPI document, one typed declaration each: its
// name (the endpoint's module `lambdas/api/<name>.ts`, and its function's entry
// `lambdas/hosts/aws/functions/<name>.ts`), method, path and what its function is given. The router
// (http/app.ts), the endpoint registry (endpoints.ts, keyed by these names: a misspelt or missing one is
// a compile error) and the CDK wiring (lib/service-api.ts) are derived from it.

export interface Route<Name extends string = string> {
  /** The endpoint's module and its function's entry, by file name without `.ts`. */
  readonly name: Name;
  readonly method: 'GET' | 'POST' | 'PUT';
  /** API Gateway route path, `{id}` for a path parameter. */
  readonly path: string;
  /** Multipart PDF uploads, which the deployed service also takes through the upload ingest service. */
  readonly upload?: true;
  /** Answered to anyone, whatever credential is sent or none (the OpenAPI document). */
  readonly public?: true;
  /** The one endpoint that signs access tokens: only its function is given the signing key. */
  readonly issuesAccessTokens?: true;
}

const DECLARED = [
  { name: 'token', method: 'POST', path: '/v1/token', issuesAccessTokens: true },
  { name: 'create-onboarding-session', method: 'POST', path: '/v1/clients/onboardings/sessions' },
  { name: 'get-onboarding', method: 'GET', path: '/v1/clients/onboardings/{id}' },
  { name: 'get-client', method: 'GET', path: '/v1/clients/{id}' },
  { name: 'list-clients', method: 'GET', path: '/v1/clients' },
  { name: 'create-contract-review', method: 'POST', path: '/v1/contract-reviews', upload: true },
  { name: 'list-contract-reviews', method: 'GET', path: '/v1/contract-reviews' },
  { name: 'get-contract-review', method: 'GET', path: '/v1/contract-reviews/{id}' },
  {
    name: 'create-contract-review-version',
    method: 'POST',
    path: '/v1/contract-reviews/{id}/versions',
    upload: true,
  },
  { name: 'openapi', method: 'GET', path: '/v1/openapi.json', public: true },
] as const satisfies readonly Route[];

export const ROUTES: readonly Route<(typeof DECLARED)[number]['name']>[] = DECLARED;

/** The handler module that answers every other path and method: 404 `not_found` or 405 `method_not_allowed`. */
export const FALLBACK_HANDLER = 'not-found' as const;

/** The name of every `/v1` endpoint, the fallback included. */
export type ApiEndpointName = (typeof ROUTES)[number]['name'] | typeof FALLBACK_HANDLER;
