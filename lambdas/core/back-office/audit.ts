// core -> the back office's audit log (decisions.md §11): one entry per change, with its time, who made
// it, what was done and to which id, and details (a withdrawal's reason). Entries are only ever added:
// no port can change or delete one, and none expires (kept at least a year: kept for good).
//
// Same transaction, not "before the answer": every change of §11 is recorded by one DynamoDB transaction
// (a draft or assignment, the review's record with its events and runs, the onboarding's acceptance
// with its events, the budget, a staff item in the identity table), so its entry joins that transaction
// and the two are written together or not at all. What a change does outside its record (a publish's
// review text in the blob store before it, the run it starts after) is not the change of record: a
// failure before the transaction leaves no entry and no change; one after it leaves both, and the run
// is re-driven from the recorded change as before.
import type { Environment, Micros } from '../model';
import { type Actor, actorName } from './roles';

/** What was done: each change of §11, and an assignment of a review. */
export const AUDIT_ACTIONS = [
  'review.assigned',
  'review.draft_saved',
  'review.published',
  'signup.accepted',
  'publication.withdrawn',
  'budget.set',
  'staff.changed',
  'staff.removed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ID_PREFIX = 'aud';

export interface AuditEntry {
  id: string;
  at: Micros;
  /** The staff member's email, or `operator tool`. */
  staff: string;
  action: AuditAction;
  /** The id the change was made to: `crv_…`, `onb_…`, `org_…`, or a staff member's email. */
  target: string;
  /** Where: an environment, or null for staff (kept with the identity, in neither environment). */
  environment: Environment | null;
  details: Readonly<Record<string, string | number | null>>;
}

export const isAuditAction = (value: string): value is AuditAction =>
  (AUDIT_ACTIONS as readonly string[]).includes(value);

/** The entry of a change `actor` makes now. */
export const auditEntry = (
  ports: { ids: { id(prefix: string): string }; clock: { now(): Micros } },
  actor: Actor,
  environment: Environment | null,
  action: AuditAction,
  target: string,
  details: AuditEntry['details'] = {},
): AuditEntry => ({
  id: ports.ids.id(AUDIT_ID_PREFIX),
  at: ports.clock.now(),
  staff: actorName(actor),
  action,
  target,
  environment,
  details,
});
