// adapter -> webhook messages and their attempts (items beside the message, sorted by round and number).
// A pending message is in the second index's list of deliveries to do, so it is its own delivery's
// durable record: no item of its own. The fan-out of an event is one transaction: the event leaves the
// outbox and its messages are recorded, so no event is lost or fanned out twice.
import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ConcurrentChange } from '../../core/errors';
import type { Micros, Page } from '../../core/model';
import type { MessageChange, MessageEffects, WebhookMessageStore } from '../../core/ports';
import type { DeliveryAttempt, WebhookMessage } from '../../core/webhooks/model';
import {
  deliveryAttemptItem,
  indexPosition,
  pendingDeliveryKeys,
  toDeliveryAttempt,
  toWebhookMessage,
  webhookMessageItem,
} from './items';
import { keys } from './keys';
import { getItem, getItems, queryNewestFirst, queryOldestFirst } from './table';
import { LIST_INDEX, SECOND_INDEX } from './table-schema';
import { type GuardedWrite, transactWrite } from './transactions';

/** Changes written in one transaction by `updateMany`: at most 2 items each, within its 100. */
const MAX_CHANGES_AT_ONCE = 50;

/** Thrown inside `fanOut` when the event is no longer pending: another fan-out recorded it. */
class FannedOutAlready extends Error {}

export class DynamoDbWebhookMessageStore implements WebhookMessageStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async fanOut(eventId: string, messages: WebhookMessage[]): Promise<boolean> {
    try {
      await transactWrite(this.doc, [
        {
          write: {
            Update: {
              TableName: this.tableName,
              Key: keys.event(eventId),
              UpdateExpression: 'REMOVE #pk, #sk',
              ConditionExpression: 'attribute_exists(#pk)',
              ExpressionAttributeNames: { '#pk': LIST_INDEX.partitionKey, '#sk': LIST_INDEX.sortKey },
            },
          },
          onConditionFailed: () => new FannedOutAlready(),
        },
        ...messages.flatMap((message) => this.newMessageWrites(message)),
      ]);
      return true;
    } catch (error) {
      if (error instanceof FannedOutAlready) return false;
      throw error;
    }
  }

  async create(message: WebhookMessage): Promise<void> {
    await transactWrite(this.doc, this.newMessageWrites(message));
  }

  async pendingDeliveries(limit: number, after?: WebhookMessage): Promise<WebhookMessage[]> {
    const items = await queryOldestFirst(this.doc, this.tableName, {
      index: SECOND_INDEX,
      partition: keys.pendingDeliveries,
      limit,
      // Where `after` stands in the list, or stood: a position need not be an item's.
      after: after && { ...keys.webhookMessage(after.id), ...pendingDeliveryKeys(after) },
    });
    return items.map(toWebhookMessage);
  }

  async get(id: string): Promise<WebhookMessage | null> {
    const item = await getItem(this.doc, this.tableName, keys.webhookMessage(id));
    return item ? toWebhookMessage(item) : null;
  }

  async getMany(ids: readonly string[]): Promise<Map<string, WebhookMessage>> {
    const items = await getItems(this.doc, this.tableName, [...new Set(ids)].map(keys.webhookMessage));
    return new Map(items.map(toWebhookMessage).map((message) => [message.id, message]));
  }

  async update(message: WebhookMessage, expectedUpdatedAt: Micros, effects: MessageEffects): Promise<void> {
    await transactWrite(this.doc, this.changeWrites({ message, expectedUpdatedAt, effects }));
  }

  async updateMany(changes: readonly MessageChange[]): Promise<boolean[]> {
    if (changes.length === 0) return [];
    if (changes.length <= MAX_CHANGES_AT_ONCE)
      try {
        await transactWrite(
          this.doc,
          changes.flatMap((change) => this.changeWrites(change)),
        );
        return changes.map(() => true);
      } catch (error) {
        if (!(error instanceof ConcurrentChange)) throw error;
      }
    // One of them (or more) changed since read: each on its own, to write all the others.
    return Promise.all(
      changes.map(({ message, expectedUpdatedAt, effects }) =>
        this.update(message, expectedUpdatedAt, effects).then(
          () => true,
          (error: unknown) => {
            if (error instanceof ConcurrentChange) return false;
            throw error;
          },
        ),
      ),
    );
  }

  /** The writes of one change: the message (if unchanged since read) and its attempt. */
  private changeWrites({ message, expectedUpdatedAt, effects }: MessageChange): GuardedWrite[] {
    const writes: GuardedWrite[] = [
      {
        write: {
          Put: {
            TableName: this.tableName,
            Item: webhookMessageItem(message),
            ConditionExpression: 'attribute_exists(pk) AND updated_at = :expected',
            ExpressionAttributeValues: { ':expected': expectedUpdatedAt },
          },
        },
        onConditionFailed: () => new ConcurrentChange(message.id),
      },
    ];
    if (effects.attempt)
      writes.push({
        write: { Put: { TableName: this.tableName, Item: deliveryAttemptItem(message.id, effects.attempt) } },
      });
    return writes;
  }

  async attempts(messageId: string): Promise<DeliveryAttempt[]> {
    const attempts: DeliveryAttempt[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :attempt)',
          ExpressionAttributeValues: { ':pk': keys.webhookMessage(messageId).pk, ':attempt': 'ATTEMPT#' },
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      attempts.push(...(page.Items ?? []).map(toDeliveryAttempt));
      start = page.LastEvaluatedKey;
    } while (start);
    return attempts;
  }

  async listByEndpoint(
    endpointId: string,
    options: { limit: number; state?: WebhookMessage['state']; startingAfter?: WebhookMessage },
  ): Promise<Page<WebhookMessage>> {
    const page = await queryNewestFirst(this.doc, this.tableName, {
      index: LIST_INDEX,
      partition: keys.webhookMessageList(endpointId),
      limit: options.limit,
      after: options.startingAfter && indexPosition(webhookMessageItem(options.startingAfter), LIST_INDEX),
      ...(options.state && {
        filter: {
          expression: '#state = :state',
          names: { '#state': 'state' },
          values: { ':state': options.state },
        },
      }),
    });
    return { items: page.items.map(toWebhookMessage), hasMore: page.hasMore };
  }

  /** A new message, which never replaces an existing item. */
  private newMessageWrites(message: WebhookMessage): GuardedWrite[] {
    return [
      {
        write: {
          Put: {
            TableName: this.tableName,
            Item: webhookMessageItem(message),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      },
    ];
  }
}
