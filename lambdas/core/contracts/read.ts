// core -> reading one contract review as its caller may see it: another scope's is `not_found`.
import { notFound } from '../errors';
import { isContractReviewId } from '../ids';
import type { ContractReview, Scope } from '../model';
import type { ContractReviewReads, Ports } from '../ports';
import { sameScope } from '../scope';

const own = async (reads: ContractReviewReads, scope: Scope, id: string): Promise<ContractReview> => {
  if (!isContractReviewId(id)) throw notFound('contract review');
  const review = await reads.get(id);
  if (review === null || !sameScope(review.scope, scope)) throw notFound('contract review');
  return review;
};

/** The current record, for decisions (new versions). */
export const getOwnContractReview = (
  ports: Pick<Ports, 'contractReviews'>,
  scope: Scope,
  id: string,
): Promise<ContractReview> => own(ports.contractReviews, scope, id);

/** The record as `GET /v1/contract-reviews/{id}` answers a poll: at most a second old. */
export const pollOwnContractReview = (
  ports: Pick<Ports, 'contractReviewReads'>,
  scope: Scope,
  id: string,
): Promise<ContractReview> => own(ports.contractReviewReads, scope, id);
