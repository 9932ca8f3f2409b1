// frontend/back-office -> the shapes of the backend's answers the pages read: the core's types
// (lambdas/core/shapes.ts), type-only, so the bundle takes none of the core.
import type {
  AuditActionJson,
  AuditEntryJson,
  BackOfficeSessionJson,
  ContractChangesJson,
  ContractReviewJson,
  ContractSearchResultJson,
  EnvironmentJson,
  OperatorContractReviewJson,
  OrganisationWithBudgetJson,
  ReviewDraftJson,
  ReviewQueueItemJson,
  ReviewQueueSummaryJson,
  RoleJson,
  SignUpJson,
  StaffMemberJson,
} from '../../../lambdas/core/shapes';

export type { PageOf } from '../../../lambdas/core/shapes';

export type Environment = EnvironmentJson;
export type Session = BackOfficeSessionJson;
export type StaffAction = Session['actions'][number];
export type ContractReview = ContractReviewJson;
export type ReviewQueueItem = ReviewQueueItemJson;
export type ReviewQueueSummary = ReviewQueueSummaryJson;
export type ReviewDraft = ReviewDraftJson;
export type ContractChanges = ContractChangesJson;
export type SignUp = SignUpJson;
export type OrganisationWithBudget = OrganisationWithBudgetJson;
export type OperatorContractReview = OperatorContractReviewJson;
export type ContractSearchResult = ContractSearchResultJson;
export type AuditEntry = AuditEntryJson;
export type AuditAction = AuditActionJson;
export type StaffMember = StaffMemberJson;
export type Role = RoleJson;

/** Each environment's name on the page; a record, so an environment the core adds must be named here. */
export const ENVIRONMENT_NAMES: Readonly<Record<Environment, string>> = {
  sandbox: 'Sandbox',
  production: 'Production',
};
export const ENVIRONMENTS = Object.keys(ENVIRONMENT_NAMES) as Environment[];
