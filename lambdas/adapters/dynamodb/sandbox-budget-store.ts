// adapter -> organisations' sandbox budgets in the sandbox's table. The item is made by the first PDF an
// organisation sends (contract-review-store.ts counts it there) or by the operator setting the total;
// until then the organisation has the default budget.
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SandboxBudget } from '../../core/model';
import type { SandboxBudgetStore } from '../../core/ports';
import { DEFAULT_SANDBOX_BUDGET } from '../../core/sandbox-budget';
import { toSandboxBudget } from './items';
import { keys } from './keys';
import { getItem } from './table';

export class DynamoDbSandboxBudgetStore implements SandboxBudgetStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(organisationId: string): Promise<SandboxBudget> {
    const item = await getItem(this.doc, this.tableName, keys.sandboxBudget(organisationId));
    return toSandboxBudget(organisationId, item, DEFAULT_SANDBOX_BUDGET);
  }

  async set(organisationId: string, total: number): Promise<SandboxBudget> {
    const { Attributes } = await this.doc.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.sandboxBudget(organisationId),
        UpdateExpression:
          'SET #type = :type, sandbox_budget = :total, sandbox_used = if_not_exists(sandbox_used, :zero)',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':type': 'sandbox_budget', ':total': total, ':zero': 0 },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toSandboxBudget(organisationId, Attributes, DEFAULT_SANDBOX_BUDGET);
  }
}
