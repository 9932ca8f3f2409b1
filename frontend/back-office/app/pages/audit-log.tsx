// frontend/back-office -> the Audit log page (decisions.md §11): a placeholder until it is built.
import { Placeholder } from '../components';
import type { Environment } from '../types';

export const AuditLogPage = (_: { environment: Environment; id?: string }) => (
  <Placeholder title="Audit log">
    Every change made in the back office will be listed here, newest first.
  </Placeholder>
);
