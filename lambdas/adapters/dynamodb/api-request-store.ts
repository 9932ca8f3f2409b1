// adapter -> the request history in the environment's table: an item per recorded call under its request
// id (the `starting_after` lookup), in its integration's partition of the list index sorted by time then
// id, so that a page in a time window is one Query read backwards; filters by status, method and path
// prefix are the Query's filter, read on until the page is full. Written in batches (BatchWriteItem).
import { BatchWriteCommand, type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Micros, Page } from '../../core/model';
import type { ApiRequestPageQuery, ApiRequestStore } from '../../core/ports';
import type { ApiRequestFilter, ApiRequestRecord, TimeWindow } from '../../core/request-history/model';
import { apiRequestItem, type Item, indexPosition, toApiRequest } from './items';
import { keys } from './keys';
import { getItem } from './table';
import { LIST_INDEX } from './table-schema';

/** BatchWriteItem's limit on items per call. */
const MAX_BATCH_ITEMS = 25;
/** Calls made for items DynamoDB leaves unprocessed (throughput) before the write gives up. */
const MAX_WRITE_ATTEMPTS = 5;
/**
 * Items read per call while filtering: a filter is applied after the read, so reading only what the page
 * lacks would take a round trip for every few matches of a rare filter.
 */
const FILTERED_READ = 200;

/** A time as the list's sort keys begin: before every key of that microsecond (`<time>#<id>`). */
const timePrefix = (time: Micros): string => String(time).padStart(16, '0');

/** The key condition of a window: `since` included, `until` excluded (its keys sort after the bare time). */
const windowCondition = (window: TimeWindow) =>
  window.until === undefined
    ? { expression: '#pk = :partition AND #sk >= :since', values: { ':since': timePrefix(window.since) } }
    : {
        expression: '#pk = :partition AND #sk BETWEEN :since AND :until',
        values: { ':since': timePrefix(window.since), ':until': timePrefix(window.until) },
      };

/** The filter as a FilterExpression; undefined when it keeps everything. */
const filterCondition = (filter: ApiRequestFilter) => {
  const terms: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (filter.status !== undefined) {
    terms.push('#status BETWEEN :statusFrom AND :statusTo');
    names['#status'] = 'status';
    values[':statusFrom'] = filter.status.from;
    values[':statusTo'] = filter.status.to;
  }
  if (filter.method !== undefined) {
    terms.push('#method = :method');
    names['#method'] = 'method';
    values[':method'] = filter.method;
  }
  if (filter.pathPrefix !== undefined) {
    terms.push('begins_with(#path, :pathPrefix)');
    names['#path'] = 'path';
    values[':pathPrefix'] = filter.pathPrefix;
  }
  return terms.length === 0 ? undefined : { expression: terms.join(' AND '), names, values };
};

const pause = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.min(1_000, 20 * 2 ** attempt)));

export class DynamoDbApiRequestStore implements ApiRequestStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async write(records: readonly ApiRequestRecord[]): Promise<void> {
    for (let from = 0; from < records.length; from += MAX_BATCH_ITEMS) {
      let pending: Item[] = records
        .slice(from, from + MAX_BATCH_ITEMS)
        .map((record) => ({ PutRequest: { Item: apiRequestItem(record) } }));
      for (let attempt = 1; pending.length > 0; attempt++) {
        if (attempt > MAX_WRITE_ATTEMPTS)
          throw new Error(
            `${pending.length} request history records left unprocessed after ${MAX_WRITE_ATTEMPTS} attempts`,
          );
        if (attempt > 1) await pause(attempt);
        const { UnprocessedItems } = await this.doc.send(
          new BatchWriteCommand({ RequestItems: { [this.tableName]: pending } }),
        );
        pending = (UnprocessedItems?.[this.tableName] ?? []) as Item[];
      }
    }
  }

  async get(id: string): Promise<ApiRequestRecord | null> {
    const item = await getItem(this.doc, this.tableName, keys.apiRequest(id));
    return item ? toApiRequest(item) : null;
  }

  async list(integrationId: string, query: ApiRequestPageQuery): Promise<Page<ApiRequestRecord>> {
    const wanted = query.limit + 1;
    const window = windowCondition(query.window);
    const filter = filterCondition(query.filter);
    const found: Item[] = [];
    let start: Item | undefined =
      query.startingAfter && indexPosition(apiRequestItem(query.startingAfter), LIST_INDEX);
    do {
      const page = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: LIST_INDEX.name,
          KeyConditionExpression: window.expression,
          ...(filter && { FilterExpression: filter.expression }),
          ExpressionAttributeNames: {
            '#pk': LIST_INDEX.partitionKey,
            '#sk': LIST_INDEX.sortKey,
            ...filter?.names,
          },
          ExpressionAttributeValues: {
            ':partition': keys.apiRequestList(integrationId),
            ...window.values,
            ...filter?.values,
          },
          ScanIndexForward: false,
          // Without a filter every item read is on the page; with one, read on in larger steps.
          Limit: filter ? Math.max(FILTERED_READ, wanted) : wanted - found.length,
          ExclusiveStartKey: start,
        }),
      );
      found.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start && found.length < wanted);
    return { items: found.slice(0, query.limit).map(toApiRequest), hasMore: found.length > query.limit };
  }
}
