// api -> GET /v1/contract-reviews/{id}: the latest version, as polled (at most a second old).

import { authenticate } from '../core/auth';
import { pollOwnContractReview } from '../core/contracts/read';
import type { ContractReview } from '../core/model';
import type { Ports } from '../core/ports';
import { presentContractReview } from '../core/present';
import type { Services } from '../core/services';
import { endpoint, ok } from './http/endpoint';

// The answer's JSON text, made once per record read: a polled record is the same object for up to a
// second (the recent-reads memory) and many clients poll one contract, so presenting and serialising it
// per request was a measurable share of a GET. Records are never changed in place.
const answers = new WeakMap<ContractReview, string>();
const answerOf = (review: ContractReview): string => {
  let json = answers.get(review);
  if (json === undefined) {
    json = JSON.stringify(presentContractReview(review));
    answers.set(review, json);
  }
  return json;
};

export const getContractReview = endpoint(
  async (
    request,
    {
      ports,
      settings,
    }: Services<Pick<Ports, 'apiKeys' | 'clock' | 'contractReviewReads' | 'rateLimiter' | 'tokenVerifier'>>,
  ) => {
    const scope = await authenticate(ports, settings, request);
    return ok(answerOf(await pollOwnContractReview(ports, scope, request.pathParameters.id ?? '')));
  },
);
