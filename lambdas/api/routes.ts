// api -> the nine endpoints of the interface and its OpenAPI document: one handler module each (`lambdas/api/<name>.ts`,
// exporting `handler`). The CDK app routes each to its own Lambda; the local stack to the same module.

export interface Route {
  /** The handler module's file name, without `.ts`. */
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PUT';
  /** API Gateway route path, `{id}` for a path parameter. */
  readonly path: string;
  /** Multipart PDF uploads, which the deployed service also takes through the upload ingest service. */
  readonly upload?: true;
  /** Answered to anyone, whatever credential is sent or none (the OpenAPI document). */
  readonly public?: true;
}

export const ROUTES: readonly Route[] = [
  { name: 'token', method: 'POST', path: '/v1/token' },
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
];

/** The handler module that answers every other path and method: 404 `not_found` or 405 `method_not_allowed`. */
export const FALLBACK_HANDLER = 'not-found';
