// core -> the back office's answers, as the core's back-office functions present them (review-desk.ts,
// operations.ts, audit-log.ts, staff.ts): the back office's pages read them as types only. Apart from
// shapes.ts, which the functions below it are typed by, so that file imports none of them.
import type { SessionJson } from '../shapes';
import type { AuditAction } from './audit';
import type { presentAuditEntry } from './audit-log';
import type {
  getContractReview,
  getOrganisationBudget,
  getSignUp,
  searchContractReviews,
} from './operations';
import type { readContractChanges } from './review-contract';
import type { presentDraft, presentQueueItem, reviewQueueSummary } from './review-desk';
import type { Role, StaffAction } from './roles';
import type { presentStaffMember } from './staff';

/** Who is signed in to the back office, with the actions their roles allow (the pages show only those). */
export interface BackOfficeSessionJson extends SessionJson {
  roles: Role[];
  actions: StaffAction[];
}

/** The back office's review queue and a review's draft, as the core presents them (review-desk.ts). */
export type ReviewQueueItemJson = ReturnType<typeof presentQueueItem>;
export type ReviewQueueSummaryJson = Awaited<ReturnType<typeof reviewQueueSummary>>;
export type ReviewDraftJson = ReturnType<typeof presentDraft>;
export type ContractChangesJson = Awaited<ReturnType<typeof readContractChanges>>;

/** The operators' and admins' pages' answers, as the core presents them (operations.ts, audit-log.ts, staff.ts). */
export type SignUpJson = Awaited<ReturnType<typeof getSignUp>>;
export type OrganisationWithBudgetJson = Awaited<ReturnType<typeof getOrganisationBudget>>;
export type OperatorContractReviewJson = Awaited<ReturnType<typeof getContractReview>>;
export type ContractSearchResultJson = Awaited<ReturnType<typeof searchContractReviews>>['data'][number];
export type AuditEntryJson = ReturnType<typeof presentAuditEntry>;
export type AuditActionJson = AuditAction;
export type StaffMemberJson = ReturnType<typeof presentStaffMember>;
export type { Role as RoleJson, StaffAction as StaffActionJson };
