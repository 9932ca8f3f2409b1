// adapter -> webhook endpoints: one item each, listed per integration (gsi1), oldest first. The secrets
// are stored to sign with (a hash would not do); the table is encrypted with the environment's key.
import { DeleteCommand, type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ConcurrentChange } from '../../core/errors';
import type { Micros } from '../../core/model';
import type { WebhookEndpointStore } from '../../core/ports';
import type { WebhookEndpoint } from '../../core/webhooks/model';
import { toWebhookEndpoint, webhookEndpointItem } from './items';
import { keys } from './keys';
import { getItem, getItems, queryAll } from './table';
import { LIST_INDEX } from './table-schema';
import { isConditionFailed } from './transactions';

export class DynamoDbWebhookEndpointStore implements WebhookEndpointStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(endpoint: WebhookEndpoint): Promise<void> {
    await this.doc.send(
      new PutCommand({
        TableName: this.tableName,
        Item: webhookEndpointItem(endpoint),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async update(endpoint: WebhookEndpoint, expectedUpdatedAt: Micros): Promise<void> {
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: webhookEndpointItem(endpoint),
          ConditionExpression: 'attribute_exists(pk) AND updated_at = :expected',
          ExpressionAttributeValues: { ':expected': expectedUpdatedAt },
        }),
      );
    } catch (error) {
      if (isConditionFailed(error)) throw new ConcurrentChange(endpoint.id);
      throw error;
    }
  }

  async delete(id: string): Promise<void> {
    await this.doc.send(new DeleteCommand({ TableName: this.tableName, Key: keys.webhookEndpoint(id) }));
  }

  async get(id: string): Promise<WebhookEndpoint | null> {
    const item = await getItem(this.doc, this.tableName, keys.webhookEndpoint(id));
    return item ? toWebhookEndpoint(item) : null;
  }

  async getMany(ids: readonly string[]): Promise<Map<string, WebhookEndpoint>> {
    const items = await getItems(this.doc, this.tableName, [...new Set(ids)].map(keys.webhookEndpoint));
    return new Map(items.map(toWebhookEndpoint).map((endpoint) => [endpoint.id, endpoint]));
  }

  async listByIntegration(integrationId: string): Promise<WebhookEndpoint[]> {
    const items = await queryAll(
      this.doc,
      this.tableName,
      LIST_INDEX,
      keys.webhookEndpointList(integrationId),
    );
    return items.map(toWebhookEndpoint).reverse();
  }
}
