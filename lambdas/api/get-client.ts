// api -> GET /v1/clients/{id}
import { authenticate } from '../core/auth';
import { getOwnClient } from '../core/clients';
import { presentClient } from '../core/present';
import { endpoint, ok } from './http/endpoint';

export const getClient = endpoint(async (request, { ports, settings }) => {
  const scope = await authenticate(ports, settings, request);
  return ok(presentClient(await getOwnClient(ports, scope, request.pathParameters.id ?? '')));
});
