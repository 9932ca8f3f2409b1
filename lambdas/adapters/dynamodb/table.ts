// adapter -> the reads every store shares: a strongly consistent get (of one item or many) and a
// newest-first index page.
import {
  BatchGetCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import type { Item } from './items';
import type { ItemKey } from './keys';

export const getItem = async (
  doc: DynamoDBDocumentClient,
  tableName: string,
  key: ItemKey,
): Promise<Item | undefined> => {
  const { Item } = await doc.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  return Item;
};

/** BatchGetItem's limit on keys per call. */
const MAX_BATCH_KEYS = 100;

/**
 * The items of `itemKeys` that exist, strongly consistent, in as few BatchGetItem calls as the limit
 * allows; keys DynamoDB leaves unprocessed (throughput) are asked for again after a short pause.
 */
export const getItems = async (
  doc: DynamoDBDocumentClient,
  tableName: string,
  itemKeys: readonly ItemKey[],
): Promise<Item[]> => {
  const items: Item[] = [];
  for (let from = 0; from < itemKeys.length; from += MAX_BATCH_KEYS) {
    let pending: Record<string, unknown>[] = itemKeys
      .slice(from, from + MAX_BATCH_KEYS)
      .map((key) => ({ ...key }));
    for (let attempt = 1; pending.length > 0; attempt++) {
      const { Responses, UnprocessedKeys } = await doc.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }),
      );
      items.push(...((Responses?.[tableName] ?? []) as Item[]));
      pending = UnprocessedKeys?.[tableName]?.Keys ?? [];
      if (pending.length > 0)
        await new Promise((resolve) => setTimeout(resolve, Math.min(500, 10 * 2 ** attempt)));
    }
  }
  return items;
};

export interface IndexQuery {
  index: { name: string; partitionKey: string };
  partition: string;
  limit: number;
  /** The position of the last item the caller has, as the index's ExclusiveStartKey. */
  after?: Item;
  /**
   * Only items that also match this (a FilterExpression, with its own `#name` and `:value`
   * placeholders); reading goes on until `limit` of them are found or the partition ends.
   */
  filter?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> };
}

/** The part every Query of one index partition shares: the table, the index, the partition's key. */
const partitionOf = (
  tableName: string,
  index: { name: string; partitionKey: string },
  partition: string,
): {
  TableName: string;
  IndexName: string;
  KeyConditionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
} => ({
  TableName: tableName,
  IndexName: index.name,
  KeyConditionExpression: '#pk = :partition',
  ExpressionAttributeNames: { '#pk': index.partitionKey },
  ExpressionAttributeValues: { ':partition': partition },
});

/** One read of an index partition, oldest first (sort keys ascending): at most `limit` items. */
export const queryOldestFirst = async (
  doc: DynamoDBDocumentClient,
  tableName: string,
  query: IndexQuery,
): Promise<Item[]> => {
  const { Items } = await doc.send(
    new QueryCommand({
      ...partitionOf(tableName, query.index, query.partition),
      ScanIndexForward: true,
      Limit: query.limit,
      ExclusiveStartKey: query.after,
    }),
  );
  return Items ?? [];
};

/**
 * One page of an index partition, newest first (sort keys descending). Asks for one item more than
 * `limit` to know whether another page exists; keeps reading if DynamoDB stops early at its 1 MB cap.
 */
export const queryNewestFirst = async (
  doc: DynamoDBDocumentClient,
  tableName: string,
  query: IndexQuery,
): Promise<{ items: Item[]; hasMore: boolean }> => {
  const wanted = query.limit + 1;
  const inPartition = partitionOf(tableName, query.index, query.partition);
  const items: Item[] = [];
  let start: Item | undefined = query.after;
  do {
    const page = await doc.send(
      new QueryCommand({
        ...inPartition,
        ExpressionAttributeNames: { ...inPartition.ExpressionAttributeNames, ...query.filter?.names },
        ExpressionAttributeValues: { ...inPartition.ExpressionAttributeValues, ...query.filter?.values },
        ...(query.filter && { FilterExpression: query.filter.expression }),
        ScanIndexForward: false,
        // With a filter, Limit counts the items read, not those kept: the loop reads on.
        Limit: wanted - items.length,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start && items.length < wanted);
  return { items: items.slice(0, query.limit), hasMore: items.length > query.limit };
};

/** Every item of an index partition, newest first. */
export const queryAll = async (
  doc: DynamoDBDocumentClient,
  tableName: string,
  index: { name: string; partitionKey: string },
  partition: string,
): Promise<Item[]> => {
  const items: Item[] = [];
  let start: Item | undefined;
  do {
    const page = await doc.send(
      new QueryCommand({
        ...partitionOf(tableName, index, partition),
        ScanIndexForward: false,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
};

/**
 * How many items an index partition holds, counted up to `upTo` (`complete` false when it holds more):
 * a `Select: COUNT` Query, so no item travels, and the work (DynamoDB reads the items to count them) stops
 * at the bound however large the partition grows.
 */
export const countUpTo = async (
  doc: DynamoDBDocumentClient,
  tableName: string,
  index: { name: string; partitionKey: string },
  partition: string,
  upTo: number,
): Promise<{ count: number; complete: boolean }> => {
  let count = 0;
  let start: Item | undefined;
  do {
    const page = await doc.send(
      new QueryCommand({
        ...partitionOf(tableName, index, partition),
        Select: 'COUNT',
        // One more than the bound, to know whether there are more.
        Limit: upTo + 1 - count,
        ExclusiveStartKey: start,
      }),
    );
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start && count <= upTo);
  return { count: Math.min(count, upTo), complete: count <= upTo };
};
