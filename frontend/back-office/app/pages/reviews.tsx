// frontend/back-office -> the Reviews page (decisions.md §11): the reviews due in one environment.
import { Placeholder } from '../components';
import type { Environment } from '../types';

export const ReviewsPage = (_: { environment: Environment }) => (
  <Placeholder title="Reviews">The reviews due, oldest first.</Placeholder>
);
