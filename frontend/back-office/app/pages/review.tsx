// frontend/back-office -> a review's page (decisions.md §11): the contract beside its analysis, the draft.
import { Placeholder } from '../components';
import type { Environment, Session } from '../types';

export const ReviewPage = (_: { environment: Environment; id: string; session: Session }) => (
  <Placeholder title="Review">The contract, its analysis and the review's draft.</Placeholder>
);
