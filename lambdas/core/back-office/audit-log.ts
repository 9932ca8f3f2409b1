// core -> reading the audit log (decisions.md §11, `ops audit-log` and the Audit log page): newest
// first, paged by entry id, filtered by staff member and action. An environment's log shows its own
// changes and the staff changes (kept with the identity, so in neither environment's table) merged.
import { fail } from '../errors';
import { startingAfterInvalid } from '../lists';
import type { AuditLogReader } from '../ports/back-office';
import { formatTime } from '../time';
import { AUDIT_ACTIONS, type AuditAction, type AuditEntry, isAuditAction } from './audit';
import { type Actor, requireRole } from './roles';

export const MAX_AUDIT_LIMIT = 100;
export const DEFAULT_AUDIT_LIMIT = 20;

export interface AuditLogQuery {
  staff?: string;
  action?: string;
  limit?: number;
  startingAfter?: string;
}

export const presentAuditEntry = (entry: AuditEntry) => ({
  id: entry.id,
  time: formatTime(entry.at),
  staff: entry.staff,
  action: entry.action,
  target: entry.target,
  environment: entry.environment,
  details: entry.details,
});

/** Newest first: by time, ties by id. */
const newerFirst = (a: AuditEntry, b: AuditEntry): number =>
  b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * One page of the log `sources` make together (an environment's and the staff log), `{ data, has_more }`.
 * Each source reads its own page from an index; the merge keeps the newest `limit` of them.
 */
export const listAuditLog = async (
  sources: readonly AuditLogReader[],
  actor: Actor,
  query: AuditLogQuery,
) => {
  requireRole(actor, 'audit.read');
  const limit = query.limit ?? DEFAULT_AUDIT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_AUDIT_LIMIT)
    fail('limit_invalid', `\`limit\` must be an integer from 1 to ${MAX_AUDIT_LIMIT}.`);
  let action: AuditAction | undefined;
  if (query.action !== undefined) {
    if (!isAuditAction(query.action))
      fail('filter_invalid', `The action filter must be one of ${AUDIT_ACTIONS.join(', ')}.`);
    action = query.action;
  }
  const staff = query.staff?.trim().toLowerCase();
  let before: AuditEntry | undefined;
  if (query.startingAfter !== undefined) {
    const found = await Promise.all(sources.map((source) => source.get(query.startingAfter as string)));
    before = found.find((entry) => entry !== null) ?? undefined;
    // Only an entry this filtered list shows: its place is then in each source's partition.
    if (!before || (staff !== undefined && before.staff !== staff) || (action && before.action !== action))
      startingAfterInvalid();
  }
  const pages = await Promise.all(sources.map((source) => source.page({ staff, action, before, limit })));
  const entries = pages.flatMap((page) => page.items).sort(newerFirst);
  return {
    data: entries.slice(0, limit).map(presentAuditEntry),
    has_more: entries.length > limit || pages.some((page) => page.hasMore),
  };
};
