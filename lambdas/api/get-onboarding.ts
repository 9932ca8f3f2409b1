// api -> GET /v1/clients/onboardings/{id}

import { authenticate } from '../core/auth';
import { getOwnOnboarding, showOnboarding } from '../core/onboarding';
import type { Ports } from '../core/ports';
import type { Services } from '../core/services';
import { endpoint, ok } from './http/endpoint';

export const getOnboarding = endpoint(
  async (
    request,
    {
      ports,
      settings,
    }: Services<
      Pick<Ports, 'apiKeys' | 'clients' | 'clock' | 'onboardings' | 'rateLimiter' | 'tokenVerifier'>
    >,
  ) => {
    const scope = await authenticate(ports, settings, request);
    const onboarding = await getOwnOnboarding(ports, scope, request.pathParameters.id ?? '');
    return ok(await showOnboarding(ports, onboarding));
  },
);
