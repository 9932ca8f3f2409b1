// api -> POST /v1/clients/onboardings/sessions: open (or reopen) a sign-up session.

import { authenticate } from '../core/auth';
import { openOnboardingSession, readSessionRequest } from '../core/onboarding';
import type { Ports } from '../core/ports';
import type { Services } from '../core/services';
import { endpoint, ok } from './http/endpoint';

export const createOnboardingSession = endpoint(
  async (
    request,
    {
      ports,
      settings,
    }: Services<Pick<Ports, 'apiKeys' | 'clock' | 'ids' | 'onboardings' | 'rateLimiter' | 'tokenVerifier'>>,
  ) => {
    const scope = await authenticate(ports, settings, request);
    const reference = readSessionRequest(await request.text());
    return ok(await openOnboardingSession(ports, scope, reference));
  },
);
