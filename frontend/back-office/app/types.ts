// frontend/back-office -> the shapes of the backend's answers the pages read, under the core's own names
// (lambdas/core/shapes.ts, lambdas/core/back-office/shapes.ts), type-only, so the bundle takes none of
// the core; and the environments' names on the page.
import type { EnvironmentJson } from '../../../lambdas/core/shapes';

export type {
  AuditActionJson,
  AuditEntryJson,
  BackOfficeSessionJson,
  ContractChangesJson,
  ContractSearchResultJson,
  OperatorContractReviewJson,
  OrganisationWithBudgetJson,
  ReviewDraftJson,
  ReviewQueueItemJson,
  ReviewQueueSummaryJson,
  RoleJson,
  SignUpJson,
  StaffActionJson,
  StaffMemberJson,
} from '../../../lambdas/core/back-office/shapes';
export type { ContractReviewJson, EnvironmentJson, PageOf } from '../../../lambdas/core/shapes';

/** Each environment's name on the page; a record, so an environment the core adds must be named here. */
export const ENVIRONMENT_NAMES: Readonly<Record<EnvironmentJson, string>> = {
  sandbox: 'Sandbox',
  production: 'Production',
};
export const ENVIRONMENTS = Object.keys(ENVIRONMENT_NAMES) as EnvironmentJson[];
