// api -> POST /v1/token: an API key for a 15-minute access token.

import { exchangeApiKey } from '../core/auth';
import type { Ports } from '../core/ports';
import type { Services } from '../core/services';
import { endpoint, ok } from './http/endpoint';

export const token = endpoint(
  async (
    request,
    { ports, settings }: Services<Pick<Ports, 'apiKeys' | 'clock' | 'rateLimiter' | 'tokenIssuer'>>,
  ) => ok(await exchangeApiKey(ports, settings, request)),
);
