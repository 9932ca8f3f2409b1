// api -> GET /v1/clients

import { authenticate } from '../core/auth';
import { listClients as list } from '../core/clients';
import type { Ports } from '../core/ports';
import type { Services } from '../core/services';
import { endpoint, ok } from './http/endpoint';

export const listClients = endpoint(
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
    return ok(await list(ports, scope, request.query));
  },
);
