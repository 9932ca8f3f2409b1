// adapter -> the event outbox: events are written by the stores in the transactions of the changes
// they announce (`eventWrites`); pending ones sit in a sparse index partition, oldest first, until the
// fan-out (webhook-message-store.ts) takes them out of the index with their messages; the event stays.
// `published_at` records when the publisher last sent one to the event bus.
import { type DynamoDBDocumentClient, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ServiceEvent } from '../../core/events';
import type { Micros } from '../../core/model';
import type { EventOutbox } from '../../core/ports';
import { type Item, toEvent } from './items';
import { keys } from './keys';
import { getItem, queryOldestFirst } from './table';
import { LIST_INDEX } from './table-schema';
import { isConditionFailed } from './transactions';

/** Index pages read at most for one `publishable` call: the rest waits for the next. */
const MAX_PAGES = 10;

export class DynamoDbEventOutbox implements EventOutbox {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async pending(limit: number): Promise<ServiceEvent[]> {
    const items = await queryOldestFirst(this.doc, this.tableName, {
      index: LIST_INDEX,
      partition: keys.pendingEvents,
      limit,
    });
    return items.map(toEvent);
  }

  async publishable(limit: number, publishedBefore: Micros): Promise<ServiceEvent[]> {
    const events: ServiceEvent[] = [];
    let start: Item | undefined;
    for (let page = 0; page < MAX_PAGES && events.length < limit; page++) {
      const { Items, LastEvaluatedKey } = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: LIST_INDEX.name,
          KeyConditionExpression: '#pk = :pending',
          FilterExpression: 'attribute_not_exists(published_at) OR published_at < :before',
          ExpressionAttributeNames: { '#pk': LIST_INDEX.partitionKey },
          ExpressionAttributeValues: { ':pending': keys.pendingEvents, ':before': publishedBefore },
          ScanIndexForward: true,
          Limit: limit,
          ExclusiveStartKey: start,
        }),
      );
      events.push(...(Items ?? []).map(toEvent));
      start = LastEvaluatedKey;
      if (start === undefined) break;
    }
    return events.slice(0, limit);
  }

  async markPublished(eventIds: readonly string[], at: Micros): Promise<void> {
    await Promise.all(
      eventIds.map(async (id) => {
        try {
          await this.doc.send(
            new UpdateCommand({
              TableName: this.tableName,
              Key: keys.event(id),
              UpdateExpression: 'SET published_at = :at',
              // Only while pending: a fanned-out event is not brought back into the index's items.
              ConditionExpression: 'attribute_exists(#pk)',
              ExpressionAttributeNames: { '#pk': LIST_INDEX.partitionKey },
              ExpressionAttributeValues: { ':at': at },
            }),
          );
        } catch (error) {
          if (!isConditionFailed(error)) throw error;
        }
      }),
    );
  }

  async get(eventId: string): Promise<ServiceEvent | null> {
    const item = await getItem(this.doc, this.tableName, keys.event(eventId));
    return item ? toEvent(item) : null;
  }
}
