// frontend/back-office -> the Contracts page (decisions.md §11): a placeholder until it is built.
import { Placeholder } from '../components';
import type { Environment } from '../types';

export const ContractsPage = (_: { environment: Environment; id?: string }) => (
  <Placeholder title="Contracts">
    Search for a contract review by its id or external reference here.
  </Placeholder>
);
