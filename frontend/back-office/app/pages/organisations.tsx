// frontend/back-office -> the Organisations page (decisions.md §11): a placeholder until it is built.
import { Placeholder } from '../components';
import type { Environment } from '../types';

export const OrganisationsPage = (_: { environment: Environment; id?: string }) => (
  <Placeholder title="Organisations">
    Each organisation and its sandbox budget will be listed here.
  </Placeholder>
);
