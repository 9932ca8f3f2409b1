// adapter -> the event outbox: events are written by the stores in the transactions of the changes
// they announce (`eventWrites`); pending ones sit in a sparse index partition, oldest first, until the
// fan-out (webhook-message-store.ts) takes them out of the index with their messages; the event stays.
import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { ServiceEvent } from '../../core/events';
import type { EventOutbox } from '../../core/ports';
import { toEvent } from './items';
import { keys } from './keys';
import { getItem } from './table';
import { LIST_INDEX } from './table-schema';

export class DynamoDbEventOutbox implements EventOutbox {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async pending(limit: number): Promise<ServiceEvent[]> {
    const { Items } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: LIST_INDEX.name,
        KeyConditionExpression: '#pk = :pending',
        ExpressionAttributeNames: { '#pk': LIST_INDEX.partitionKey },
        ExpressionAttributeValues: { ':pending': keys.pendingEvents },
        ScanIndexForward: true,
        Limit: limit,
      }),
    );
    return (Items ?? []).map(toEvent);
  }

  async get(eventId: string): Promise<ServiceEvent | null> {
    const item = await getItem(this.doc, this.tableName, keys.event(eventId));
    return item ? toEvent(item) : null;
  }
}
