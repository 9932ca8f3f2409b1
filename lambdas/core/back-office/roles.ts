// core -> who may do what in the back office (decisions.md §11): staff are people with roles, and one
// table of role × action decides every use case's check, here and nowhere else. The pages only hide what
// this refuses; the refusal itself happens in the use case, whoever calls it.
import { fail } from '../errors';

export const ROLES = ['lawyer', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Each action of the back office and the roles that may do it. */
export const ROLE_ACTIONS = {
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
} as const satisfies Record<string, readonly Role[]>;

export type StaffAction = keyof typeof ROLE_ACTIONS;
export const STAFF_ACTIONS = Object.keys(ROLE_ACTIONS) as StaffAction[];

/** A signed-in member of the operator's staff: their normalised email, roles and name (if they have one). */
export interface Staff {
  kind: 'staff';
  email: string;
  roles: readonly Role[];
  /** Their display name: what a review page they publish says it was reviewed by. */
  name?: string;
}

/**
 * The operator tool (`ops`), run by whoever holds the stage's operator credentials: it may do every
 * action, as those credentials may anyway; its changes are audited under this name.
 */
export interface OperatorTool {
  kind: 'operator_tool';
}

export const OPERATOR_TOOL: OperatorTool = { kind: 'operator_tool' };

/** Who asks a use case for a change or a read. */
export type Actor = Staff | OperatorTool;

/** The name an audit entry records for the actor. */
export const OPERATOR_TOOL_NAME = 'operator tool';
export const actorName = (actor: Actor): string =>
  actor.kind === 'staff' ? actor.email : OPERATOR_TOOL_NAME;

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

export const mayDo = (actor: Actor, action: StaffAction): boolean =>
  actor.kind === 'operator_tool' ||
  actor.roles.some((role) => (ROLE_ACTIONS[action] as readonly Role[]).includes(role));

/** Refuses with 403 `role_required`, naming the roles that may, unless the actor may do `action`. */
export const requireRole = (actor: Actor, action: StaffAction): void => {
  if (mayDo(actor, action)) return;
  const roles = ROLE_ACTIONS[action] as readonly Role[];
  if (actor.kind === 'staff' && actor.roles.length === 0)
    fail('staff_only', "The back office is for the operator's staff only.");
  fail(
    'role_required',
    `Only staff with the role ${roles.join(' or ')} may do this (${action}); ask an admin to give you the role.`,
  );
};
