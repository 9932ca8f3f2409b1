// api -> every endpoint by the name `routes.ts` gives it, for the hosts that route in-process.

import type { CommonPorts, Ports } from '../core/ports';
import { createContractReview } from './create-contract-review';
import { createContractReviewVersion } from './create-contract-review-version';
import { createOnboardingSession } from './create-onboarding-session';
import { getClient } from './get-client';
import { getContractReview } from './get-contract-review';
import { getOnboarding } from './get-onboarding';
import type { Endpoint, RouteTable } from './http/endpoint';
import { listClients } from './list-clients';
import { listContractReviews } from './list-contract-reviews';
import { notFound } from './not-found';
import { openapi } from './openapi';
import { type ApiEndpointName, FALLBACK_HANDLER, ROUTES } from './routes';
import { token } from './token';

/** The ports of every `/v1` endpoint: a host that serves them all (the upload ingest service, the local stack) gives these. */
export type ApiPorts = CommonPorts &
  Pick<Ports, 'blobs' | 'workflows' | 'tokenIssuer' | 'tokenVerifier' | 'pdfs'>;

export const ENDPOINTS: Readonly<Record<ApiEndpointName, Endpoint<ApiPorts>>> = {
  token,
  'create-onboarding-session': createOnboardingSession,
  'get-onboarding': getOnboarding,
  'get-client': getClient,
  'list-clients': listClients,
  'create-contract-review': createContractReview,
  'list-contract-reviews': listContractReviews,
  'get-contract-review': getContractReview,
  'create-contract-review-version': createContractReviewVersion,
  openapi,
  'not-found': notFound,
};

/** The `/v1` API as the hosts route it. */
export const API_ENDPOINTS: RouteTable<ApiEndpointName, ApiPorts> = {
  routes: ROUTES,
  endpoints: ENDPOINTS,
  fallback: FALLBACK_HANDLER,
};
