// adapter -> an environment's API keys in its table: each under its id, with a copy under its hash.
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { notFound } from '../../core/errors';
import type { ApiKeyRecord, Micros } from '../../core/model';
import type { ApiKeyStore } from '../../core/ports';
import { apiKeyHashItem, apiKeyItem, type Item, toApiKey } from './items';
import { type ItemKey, keys } from './keys';
import { getItem, queryAll } from './table';
import { LIST_INDEX } from './table-schema';
import { isConditionFailed, transactWrite } from './transactions';

class RevokedMeanwhile extends Error {}

export class DynamoDbApiKeyStore implements ApiKeyStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

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

  async listApiKeys(integrationId: string): Promise<ApiKeyRecord[]> {
    const items = await queryAll(this.doc, this.tableName, LIST_INDEX, keys.apiKeyList(integrationId));
    return items.map(toApiKey);
  }

  async revokeApiKey(id: string, at: Micros): Promise<ApiKeyRecord> {
    const key = await this.getApiKey(id);
    if (key === null) throw notFound('API key');
    if (key.revokedAt !== null) return key;
    // Both records at once: the hash copy is what token exchange reads, the key item what lists show.
    const revoke = (itemKey: ItemKey) => ({
      write: {
        Update: {
          TableName: this.tableName,
          Key: itemKey,
          UpdateExpression: 'SET revoked_at = :at',
          ConditionExpression: 'attribute_exists(pk) AND revoked_at = :none',
          ExpressionAttributeValues: { ':at': at, ':none': null },
        },
      },
      onConditionFailed: () => new RevokedMeanwhile(),
    });
    try {
      await transactWrite(this.doc, [revoke(keys.apiKey(id)), revoke(keys.apiKeyHash(key.hash))]);
    } catch (error) {
      // Revoked by another call between the read and the write: theirs is the time kept.
      if (error instanceof RevokedMeanwhile) return (await this.getApiKey(id)) ?? key;
      throw error;
    }
    return { ...key, revokedAt: at };
  }

  async markApiKeyUsed(id: string, at: Micros): Promise<void> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.apiKey(id),
          // Never back in time: two exchanges may finish out of order.
          UpdateExpression: 'SET last_used_at = :at',
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(last_used_at) OR last_used_at = :none OR last_used_at < :at)',
          ExpressionAttributeValues: { ':at': at, ':none': null },
        }),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
  }

  private get(key: ItemKey): Promise<Item | undefined> {
    return getItem(this.doc, this.tableName, key);
  }
}
