// api -> GET /v1/contract-reviews/{id}: the latest version.
import { authenticate } from '../core/auth';
import { getOwnContractReview } from '../core/contracts/send';
import { presentContractReview } from '../core/present';
import { endpoint, ok } from './http/endpoint';

export const getContractReview = endpoint(async (request, { ports, settings }) => {
  const scope = await authenticate(ports, settings, request.header('authorization'));
  return ok(presentContractReview(await getOwnContractReview(ports, scope, request.pathParameters.id ?? '')));
});

export const handler = getContractReview.handler;
