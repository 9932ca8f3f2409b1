// api -> POST /v1/token: an API key for a 15-minute access token.
import { exchangeApiKey } from '../core/auth';
import { endpoint, ok } from './http/endpoint';

export const token = endpoint(async (request, { ports, settings }) =>
  ok(await exchangeApiKey(ports, settings, request)),
);
