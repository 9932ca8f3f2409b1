// adapter -> organisations' sandbox budgets in the sandbox's table. The item is made by the first PDF an
// organisation sends (contract-review-store.ts counts it there) or by the operator setting the total;
// until then the organisation has the default budget.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry } from '../../core/back-office/audit';
import type { SandboxBudget } from '../../core/model';
import type { SandboxBudgetStore } from '../../core/ports';
import { DEFAULT_SANDBOX_BUDGET } from '../../core/sandbox-budget';
import { auditWrites } from './audit-log';
import { toSandboxBudget } from './items';
import { keys } from './keys';
import { getItem } from './table';
import { transactWrite } from './transactions';

export class DynamoDbSandboxBudgetStore implements SandboxBudgetStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(organisationId: string): Promise<SandboxBudget> {
    const item = await getItem(this.doc, this.tableName, keys.sandboxBudget(organisationId));
    return toSandboxBudget(organisationId, item, DEFAULT_SANDBOX_BUDGET);
  }

  async set(organisationId: string, total: number, audit: AuditEntry[] = []): Promise<SandboxBudget> {
    // With its audit entry in one transaction (which answers no values), then read back.
    await transactWrite(this.doc, [
      {
        write: {
          Update: {
            TableName: this.tableName,
            Key: keys.sandboxBudget(organisationId),
            UpdateExpression:
              'SET #type = :type, sandbox_budget = :total, sandbox_used = if_not_exists(sandbox_used, :zero)',
            ExpressionAttributeNames: { '#type': 'type' },
            ExpressionAttributeValues: { ':type': 'sandbox_budget', ':total': total, ':zero': 0 },
          },
        },
      },
      ...auditWrites(this.tableName, audit),
    ]);
    return this.get(organisationId);
  }
}
