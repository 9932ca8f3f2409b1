// api -> GET /v1/clients/{id}

import { authenticate } from '../core/auth';
import { getOwnClient } from '../core/clients';
import type { Ports } from '../core/ports';
import { presentClient } from '../core/present';
import type { Services } from '../core/services';
import { endpoint, ok } from './http/endpoint';

export const getClient = endpoint(
  async (
    request,
    {
      ports,
      settings,
    }: Services<Pick<Ports, 'apiKeys' | 'clients' | 'clock' | 'rateLimiter' | 'tokenVerifier'>>,
  ) => {
    const scope = await authenticate(ports, settings, request);
    return ok(presentClient(await getOwnClient(ports, scope, request.pathParameters.id ?? '')));
  },
);
