// adapter -> organisations, integrations and API keys in the environment's table.
import { type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { notFound } from '../../core/errors';
import type { ApiKeyRecord, Integration, Organisation } from '../../core/model';
import type { Clock, IdentityStore } from '../../core/ports';
import {
  apiKeyHashItem,
  apiKeyItem,
  type Item,
  integrationItem,
  organisationItem,
  toApiKey,
  toIntegration,
  toOrganisation,
} from './items';
import { type ItemKey, keys } from './keys';
import { getItem } from './table';
import { isConditionFailed, transactWrite } from './transactions';

export class DynamoDbIdentityStore implements IdentityStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    // Kept for a uniform constructor; identity records carry the times their callers give.
    readonly clock: Clock,
  ) {}

  async putOrganisation(organisation: Organisation): Promise<void> {
    await this.doc.send(new PutCommand({ TableName: this.tableName, Item: organisationItem(organisation) }));
  }

  async getOrganisation(id: string): Promise<Organisation | null> {
    const item = await this.get(keys.organisation(id));
    return item ? toOrganisation(item) : null;
  }

  async setSandboxBudget(organisationId: string, budget: number): Promise<Organisation> {
    try {
      const { Attributes } = await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.organisation(organisationId),
          UpdateExpression: 'SET sandbox_budget = :budget',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':budget': budget },
          ReturnValues: 'ALL_NEW',
        }),
      );
      if (!Attributes) throw new Error('UpdateItem answered no attributes');
      return toOrganisation(Attributes);
    } catch (error) {
      if (isConditionFailed(error)) throw notFound('organisation');
      throw error;
    }
  }

  async putIntegration(integration: Integration): Promise<void> {
    await this.doc.send(new PutCommand({ TableName: this.tableName, Item: integrationItem(integration) }));
  }

  async getIntegration(id: string): Promise<Integration | null> {
    const item = await this.get(keys.integration(id));
    return item ? toIntegration(item) : null;
  }

  /** Writes the key and its lookup copy under the hash together, so revocation shows in both at once. */
  async putApiKey(key: ApiKeyRecord): Promise<void> {
    await transactWrite(this.doc, [
      { write: { Put: { TableName: this.tableName, Item: apiKeyItem(key) } } },
      {
        write: {
          Put: {
            TableName: this.tableName,
            Item: apiKeyHashItem(key),
            // A hash belongs to one key for ever.
            ConditionExpression: 'attribute_not_exists(pk) OR id = :id',
            ExpressionAttributeValues: { ':id': key.id },
          },
        },
        onConditionFailed: () => new Error('an API key with the same hash already exists'),
      },
    ]);
  }

  async getApiKey(id: string): Promise<ApiKeyRecord | null> {
    const item = await this.get(keys.apiKey(id));
    return item ? toApiKey(item) : null;
  }

  async findApiKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
    const item = await this.get(keys.apiKeyHash(hash));
    return item ? toApiKey(item) : null;
  }

  private get(key: ItemKey): Promise<Item | undefined> {
    return getItem(this.doc, this.tableName, key);
  }
}
