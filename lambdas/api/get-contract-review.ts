// api -> GET /v1/contract-reviews/{id}: the latest version, as polled (at most a second old).
import { authenticate } from '../core/auth';
import { pollOwnContractReview } from '../core/contracts/read';
import { presentContractReview } from '../core/present';
import { endpoint, ok } from './http/endpoint';

export const getContractReview = endpoint(async (request, { ports, settings }) => {
  const scope = await authenticate(ports, settings, request.header('authorization'));
  return ok(
    presentContractReview(await pollOwnContractReview(ports, scope, request.pathParameters.id ?? '')),
  );
});
