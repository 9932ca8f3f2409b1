// frontend/back-office -> the Staff page (decisions.md §11): a placeholder until it is built.
import { Placeholder } from '../components';

export const StaffPage = () => (
  <Placeholder title="Staff">The operator's staff and their roles will be listed here.</Placeholder>
);
