// adapter -> the back office's audit log in a table (an environment's, or the identity table for staff
// changes). Each entry is two items written together: the entry, in the list of all and of its staff
// member, and a copy in the lists of its action and of its staff member's action, so that every filter
// of the log is one index query, never a scan or a filter. Entries are put only if absent and this
// module has no update or delete: nothing here can edit one. No TTL: kept for good (§11 asks ≥ 1 year).
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry } from '../../core/back-office/audit';
import type { Page } from '../../core/model';
import type { AuditLogReader, AuditQuery } from '../../core/ports/back-office';
import type { Item } from './items';
import { byCreation, keys } from './keys';
import { getItem, queryNewestFirst } from './table';
import { LIST_INDEX, SECOND_INDEX } from './table-schema';
import type { GuardedWrite } from './transactions';

const position = (entry: Pick<AuditEntry, 'at' | 'id'>): string => byCreation(entry.at, entry.id);

const attributes = (e: AuditEntry): Item => ({
  type: 'audit_entry',
  id: e.id,
  at: e.at,
  staff: e.staff,
  action: e.action,
  target: e.target,
  environment: e.environment,
  details: e.details,
});

const entryItem = (e: AuditEntry): Item => ({
  ...keys.auditEntry(e.id),
  ...attributes(e),
  [LIST_INDEX.partitionKey]: keys.auditLog,
  [LIST_INDEX.sortKey]: position(e),
  [SECOND_INDEX.partitionKey]: keys.auditLogOfStaff(e.staff),
  [SECOND_INDEX.sortKey]: position(e),
});

const byActionItem = (e: AuditEntry): Item => ({
  ...keys.auditEntryByAction(e.id),
  ...attributes(e),
  [LIST_INDEX.partitionKey]: keys.auditLogOfAction(e.action),
  [LIST_INDEX.sortKey]: position(e),
  [SECOND_INDEX.partitionKey]: keys.auditLogOfStaffAction(e.staff, e.action),
  [SECOND_INDEX.sortKey]: position(e),
});

const toAuditEntry = (item: Item): AuditEntry => ({
  id: item.id as string,
  at: item.at as number,
  staff: item.staff as string,
  action: item.action as AuditEntry['action'],
  target: item.target as string,
  environment: item.environment as AuditEntry['environment'],
  details: item.details as AuditEntry['details'],
});

/** The transaction writes that record `entries` with the change they describe. */
export const auditWrites = (tableName: string, entries: readonly AuditEntry[]): GuardedWrite[] =>
  entries.flatMap((entry) =>
    [entryItem(entry), byActionItem(entry)].map((Item) => ({
      write: { Put: { TableName: tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' } },
    })),
  );

/** Which index partition answers a query's filters. */
const partitionOf = (query: AuditQuery) => {
  if (query.staff !== undefined && query.action !== undefined)
    return { index: SECOND_INDEX, partition: keys.auditLogOfStaffAction(query.staff, query.action) };
  if (query.staff !== undefined) return { index: SECOND_INDEX, partition: keys.auditLogOfStaff(query.staff) };
  if (query.action !== undefined)
    return { index: LIST_INDEX, partition: keys.auditLogOfAction(query.action) };
  return { index: LIST_INDEX, partition: keys.auditLog };
};

export class DynamoDbAuditLog implements AuditLogReader {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(id: string): Promise<AuditEntry | null> {
    const item = await getItem(this.doc, this.tableName, keys.auditEntry(id));
    return item ? toAuditEntry(item) : null;
  }

  async page(query: AuditQuery): Promise<Page<AuditEntry>> {
    const { index, partition } = partitionOf(query);
    const { before } = query;
    // The entry's own place in this partition (the core checks it is in it): the page starts below it.
    const after = before && {
      ...(query.action === undefined ? keys.auditEntry(before.id) : keys.auditEntryByAction(before.id)),
      [index.partitionKey]: partition,
      [index.sortKey]: position(before),
    };
    const page = await queryNewestFirst(this.doc, this.tableName, {
      index,
      partition,
      limit: query.limit,
      after,
    });
    return { items: page.items.map(toAuditEntry), hasMore: page.hasMore };
  }
}
