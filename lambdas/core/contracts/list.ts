// core -> `GET /v1/contract-reviews`: newest first; `external_reference` finds one by the caller's id.
import { isContractReviewId } from '../ids';
import { CONTRACT_REVIEW_LIST_FILTERS } from '../interface-schemas';
import { type QueryPairs, readListQuery, startingAfterInvalid } from '../lists';
import type { ContractReview, Scope } from '../model';
import type { Ports } from '../ports';
import { presentContractReview, presentList } from '../present';
import { sameScope } from '../scope';

export const listContractReviews = async (
  ports: Pick<Ports, 'contractReviews'>,
  scope: Scope,
  query: QueryPairs,
) => {
  const { limit, startingAfter, filters } = readListQuery(query, CONTRACT_REVIEW_LIST_FILTERS);
  let after: ContractReview | undefined;
  if (startingAfter !== undefined) {
    if (!isContractReviewId(startingAfter)) return startingAfterInvalid();
    const review = await ports.contractReviews.get(startingAfter);
    const inList =
      review !== null &&
      sameScope(review.scope, scope) &&
      (filters.external_reference === undefined || review.externalReference === filters.external_reference);
    if (!inList) return startingAfterInvalid();
    after = review;
  }
  if (filters.external_reference !== undefined) {
    // At most one contract has a given reference, so after it there is nothing.
    const found = after
      ? null
      : await ports.contractReviews.findByExternalReference(scope, filters.external_reference);
    return presentList({ items: found ? [found] : [], hasMore: false }, presentContractReview);
  }
  const page = await ports.contractReviews.list(scope, { limit, ...(after && { startingAfter: after }) });
  return presentList(page, presentContractReview);
};
