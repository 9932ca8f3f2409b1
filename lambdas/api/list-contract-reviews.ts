// api -> GET /v1/contract-reviews

import { authenticate } from '../core/auth';
import { listContractReviews as list } from '../core/contracts/list';
import type { Ports } from '../core/ports';
import type { Services } from '../core/services';
import { endpoint, ok } from './http/endpoint';

export const listContractReviews = endpoint(
  async (
    request,
    {
      ports,
      settings,
    }: Services<Pick<Ports, 'apiKeys' | 'clock' | 'contractReviews' | 'rateLimiter' | 'tokenVerifier'>>,
  ) => {
    const scope = await authenticate(ports, settings, request);
    return ok(await list(ports, scope, request.query));
  },
);
