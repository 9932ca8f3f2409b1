// core -> the operator's staff (decisions.md §11): people by email with one or more roles, kept with the
// identity (both environments share them), managed by admins and the operator tool, each change in the
// staff audit log in the transaction that makes it.
import { fail } from '../errors';
import type { Directory } from '../organisations';
import { normaliseEmail } from '../people/credentials';
import type { StaffMember } from '../ports/back-office';
import { readName } from '../text';
import { formatTime } from '../time';
import { auditEntry } from './audit';
import { type Actor, ROLES, type Role, requireRole, type Staff } from './roles';

type StaffDirectory = Pick<Directory, 'staff' | 'ids' | 'clock'>;

export const presentStaffMember = (member: StaffMember) => ({
  email: member.email,
  name: member.name,
  roles: member.roles,
  added_at: formatTime(member.addedAt),
  updated_at: formatTime(member.updatedAt),
});

const readEmail = (typed: string): string =>
  normaliseEmail(typed) ?? fail('request_invalid', `${JSON.stringify(typed)} is not an email address.`);

/** The roles, once each, in the table's order; at least one. */
const readRoles = (roles: readonly string[]): Role[] => {
  const unknown = roles.filter((role) => !(ROLES as readonly string[]).includes(role));
  if (unknown.length > 0)
    fail('request_invalid', `Unknown role ${unknown.join(', ')}: the roles are ${ROLES.join(', ')}.`);
  if (roles.length === 0) fail('request_invalid', `Give at least one role of ${ROLES.join(', ')}.`);
  return ROLES.filter((role) => roles.includes(role));
};

/**
 * `ops staff-add`: makes the person staff with exactly `roles` (replacing the roles they had) and, when
 * `typedName` is given, that display name; without it a member keeps the name they had.
 */
export const putStaffMember = async (
  directory: StaffDirectory,
  actor: Actor,
  typedEmail: string,
  typedRoles: readonly string[],
  typedName?: string,
) => {
  requireRole(actor, 'staff.manage');
  const email = readEmail(typedEmail);
  const roles = readRoles(typedRoles);
  const typed = typedName === undefined ? undefined : readName(typedName, "A staff member's name", 'Ana Lee');
  const before = await directory.staff.get(email);
  const name = typed ?? before?.name ?? null;
  const now = directory.clock.now();
  const member: StaffMember = { email, name, roles, addedAt: before?.addedAt ?? now, updatedAt: now };
  await directory.staff.put(
    member,
    auditEntry(directory, actor, null, 'staff.changed', email, {
      roles_before: before ? before.roles.join(',') : null,
      roles: roles.join(','),
      name_before: before?.name ?? null,
      name,
    }),
  );
  return presentStaffMember(member);
};

/** `ops staff-remove`: the person is no longer staff; `not_found` if they were not. */
export const removeStaffMember = async (directory: StaffDirectory, actor: Actor, typedEmail: string) => {
  requireRole(actor, 'staff.manage');
  const email = readEmail(typedEmail);
  const before = await directory.staff.get(email);
  const removed =
    before !== null &&
    (await directory.staff.remove(
      email,
      auditEntry(directory, actor, null, 'staff.removed', email, { roles_before: before.roles.join(',') }),
    ));
  if (!removed) fail('not_found', `${email} is not a member of the staff.`);
  return { email, removed: true };
};

/** `ops staff-list`: every staff member, by email. */
export const listStaff = async (directory: StaffDirectory, actor: Actor) => {
  requireRole(actor, 'staff.read');
  return { data: (await directory.staff.list()).map(presentStaffMember) };
};

/**
 * The actor a signed-in person is in the back office: staff with their roles, or staff with none
 * (whom every action refuses with `staff_only`). The HTTP layer calls this once per request.
 */
export const staffActor = async (directory: Pick<Directory, 'staff'>, typedEmail: string): Promise<Staff> => {
  const email = normaliseEmail(typedEmail);
  const member = email === null ? null : await directory.staff.get(email);
  return {
    kind: 'staff',
    email: email ?? typedEmail,
    roles: member?.roles ?? [],
    ...(member?.name != null && { name: member.name }),
  };
};
