// unit -> the back office's one table of role × action (decisions.md §11), checked whole, and checked
// inside every use case: a staff member without the role is refused 403 before any port is touched.
import { describe, expect, test } from '@jest/globals';
import { listAuditLog } from '../../lambdas/core/back-office/audit-log';
import {
  assignReview,
  getReviewDraft,
  listReviewQueue,
  saveReviewDraft,
} from '../../lambdas/core/back-office/review-desk';
import {
  mayDo,
  OPERATOR_TOOL,
  ROLE_ACTIONS,
  ROLES,
  type Role,
  requireRole,
  STAFF_ACTIONS,
  type Staff,
  type StaffAction,
} from '../../lambdas/core/back-office/roles';
import { listStaff, putStaffMember, removeStaffMember } from '../../lambdas/core/back-office/staff';
import { publishLawyerReview, withdrawChannel } from '../../lambdas/core/contracts/lawyer-actions';
import { ServiceError } from '../../lambdas/core/errors';
import type { Onboarding } from '../../lambdas/core/model';
import { acceptOnboarding } from '../../lambdas/core/onboarding';
import { setSandboxBudget } from '../../lambdas/core/sandbox-budget';

/** The table as §11 words it: lawyers review; operators run sign-ups, withdrawals, budgets and read
 * every contract; admins manage staff; operators and admins read the audit log. */
const EXPECTED: Record<StaffAction, Role[]> = {
  'review.read': ['lawyer'],
  'review.assign': ['lawyer'],
  'review.save_draft': ['lawyer'],
  'review.publish': ['lawyer'],
  'signup.read': ['operator'],
  'signup.accept': ['operator'],
  'contract.read': ['operator'],
  'publication.withdraw': ['operator'],
  'organisation.read': ['operator'],
  'budget.set': ['operator'],
  'audit.read': ['operator', 'admin'],
  'staff.read': ['admin'],
  'staff.manage': ['admin'],
};

const staff = (...roles: Role[]): Staff => ({ kind: 'staff', email: 'someone@example.com', roles });

const refusal = async (run: () => unknown): Promise<ServiceError> => {
  try {
    await run();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

test('the table names every action once, with exactly the roles §11 gives it', () => {
  expect(ROLE_ACTIONS).toEqual(EXPECTED);
});

describe.each(STAFF_ACTIONS)('%s', (action) => {
  test.each(ROLES)('role %s', async (role) => {
    const allowed = EXPECTED[action].includes(role);
    expect(mayDo(staff(role), action)).toBe(allowed);
    if (allowed) expect(() => requireRole(staff(role), action)).not.toThrow();
    else {
      const error = await refusal(() => requireRole(staff(role), action));
      expect([error.status, error.code]).toEqual([403, 'role_required']);
      expect(error.message).toContain(EXPECTED[action].join(' or '));
    }
  });

  test('a person with no staff role is refused as not staff; the operator tool may', async () => {
    const error = await refusal(() => requireRole(staff(), action));
    expect([error.status, error.code]).toEqual([403, 'staff_only']);
    expect(mayDo(OPERATOR_TOOL, action)).toBe(true);
  });
});

/** Ports any touch of which fails the test: a refusal must come before storage is read. */
const untouchable = new Proxy(
  {},
  {
    get: (_target, property) => {
      if (property === 'then') return undefined;
      throw new Error(`the use case touched ports.${String(property)} before checking the role`);
    },
  },
) as never;

const USE_CASES: Array<[StaffAction, (actor: Staff) => Promise<unknown>]> = [
  ['review.read', (a) => listReviewQueue(untouchable, a)],
  ['review.read', (a) => getReviewDraft(untouchable, a, 'crv_1')],
  ['review.assign', (a) => assignReview(untouchable, a, 'crv_1')],
  ['review.save_draft', (a) => saveReviewDraft(untouchable, a, 'crv_1', 'text', 0)],
  ['review.publish', (a) => publishLawyerReview(untouchable, a, 'crv_1', 'text')],
  ['publication.withdraw', (a) => withdrawChannel(untouchable, a, 'crv_1', 'review', 'why')],
  ['signup.accept', (a) => acceptOnboarding(untouchable, { state: 'submitted' } as Onboarding, a)],
  ['budget.set', (a) => setSandboxBudget(untouchable, a, 'org_1', 5)],
  ['audit.read', (a) => listAuditLog([untouchable], a, {})],
  ['staff.read', (a) => listStaff(untouchable, a)],
  ['staff.manage', (a) => putStaffMember(untouchable, a, 'new@example.com', ['lawyer'])],
  ['staff.manage', (a) => removeStaffMember(untouchable, a, 'new@example.com')],
];

test.each(USE_CASES)(
  'the use case of %s refuses every role the table refuses, before any port',
  async (action, run) => {
    for (const role of ROLES.filter((r) => !EXPECTED[action].includes(r))) {
      const error = await refusal(() => run(staff(role)));
      expect([role, error.status, error.code]).toEqual([role, 403, 'role_required']);
    }
    expect((await refusal(() => run(staff()))).code).toBe('staff_only');
  },
);
