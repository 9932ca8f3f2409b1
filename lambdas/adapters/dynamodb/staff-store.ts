// adapter -> the operator's staff in the identity table (kept with the identity, not per environment),
// each change written with its audit entry in the same transaction, in the identity table's audit log.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry } from '../../core/back-office/audit';
import type { Role } from '../../core/back-office/roles';
import type { StaffMember, StaffStore } from '../../core/ports/back-office';
import { auditWrites, DynamoDbAuditLog } from './audit-log';
import type { Item } from './items';
import { keys } from './keys';
import { getItem, queryAll } from './table';
import { LIST_INDEX } from './table-schema';
import { transactWrite } from './transactions';

const staffItem = (m: StaffMember): Item => ({
  ...keys.staff(m.email),
  type: 'staff',
  [LIST_INDEX.partitionKey]: keys.staffList,
  [LIST_INDEX.sortKey]: m.email,
  email: m.email,
  name: m.name,
  roles: [...m.roles],
  added_at: m.addedAt,
  updated_at: m.updatedAt,
});

const toStaffMember = (item: Item): StaffMember => ({
  email: item.email as string,
  // Members recorded before staff had names have none.
  name: typeof item.name === 'string' ? item.name : null,
  roles: item.roles as Role[],
  addedAt: item.added_at as number,
  updatedAt: item.updated_at as number,
});

export class DynamoDbStaffStore implements StaffStore {
  readonly audit: DynamoDbAuditLog;

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    this.audit = new DynamoDbAuditLog(doc, tableName);
  }

  async get(email: string): Promise<StaffMember | null> {
    const item = await getItem(this.doc, this.tableName, keys.staff(email));
    return item ? toStaffMember(item) : null;
  }

  async list(): Promise<StaffMember[]> {
    const items = await queryAll(this.doc, this.tableName, LIST_INDEX, keys.staffList);
    return items.map(toStaffMember).sort((a, b) => a.email.localeCompare(b.email));
  }

  async put(member: StaffMember, audit: AuditEntry): Promise<void> {
    await transactWrite(this.doc, [
      { write: { Put: { TableName: this.tableName, Item: staffItem(member) } } },
      ...auditWrites(this.tableName, [audit]),
    ]);
  }

  async remove(email: string, audit: AuditEntry): Promise<boolean> {
    try {
      await transactWrite(this.doc, [
        {
          write: {
            Delete: {
              TableName: this.tableName,
              Key: keys.staff(email),
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          onConditionFailed: () => new NoSuchStaff(),
        },
        ...auditWrites(this.tableName, [audit]),
      ]);
      return true;
    } catch (error) {
      if (error instanceof NoSuchStaff) return false;
      throw error;
    }
  }
}

class NoSuchStaff extends Error {}
