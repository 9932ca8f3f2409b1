// adapter -> organisations and their integrations in the identity table. Creating an organisation also
// points its owner's person record at it, in one transaction whose condition lets a person own only one.
import { type DynamoDBDocumentClient, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { OrganisationExists } from '../../core/errors';
import type { Integration, Organisation, Page } from '../../core/model';
import type { OrganisationStore } from '../../core/ports';
import {
  type Item,
  indexPosition,
  integrationItem,
  organisationItem,
  toIntegration,
  toOrganisation,
} from './items';
import { keys } from './keys';
import { getItem, queryAll, queryOldestFirst } from './table';
import { LIST_INDEX } from './table-schema';
import { transactWrite } from './transactions';

export class DynamoDbOrganisationStore implements OrganisationStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(organisation: Organisation): Promise<void> {
    await transactWrite(this.doc, [
      {
        write: {
          Update: {
            TableName: this.tableName,
            Key: keys.person(organisation.ownerId),
            UpdateExpression: 'SET organisation_id = :id',
            // The same id again is the same creation retried (dev-bootstrap's fixed organisation).
            ConditionExpression:
              'attribute_exists(pk) AND (organisation_id = :none OR organisation_id = :id)',
            ExpressionAttributeValues: { ':id': organisation.id, ':none': null },
          },
        },
        onConditionFailed: () => new OrganisationExists(organisation.ownerId),
      },
      {
        write: {
          Put: {
            TableName: this.tableName,
            Item: organisationItem(organisation),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        onConditionFailed: () => new Error(`an organisation with the id ${organisation.id} exists already`),
      },
    ]);
  }

  async get(id: string): Promise<Organisation | null> {
    const item = await getItem(this.doc, this.tableName, keys.organisation(id));
    return item ? toOrganisation(item) : null;
  }

  async list(options: { limit: number; after?: Organisation }): Promise<Page<Organisation>> {
    const items = await queryOldestFirst(this.doc, this.tableName, {
      index: LIST_INDEX,
      partition: keys.organisationList,
      limit: options.limit + 1,
      after: options.after && indexPosition(organisationItem(options.after), LIST_INDEX),
    });
    return {
      items: items.slice(0, options.limit).map(toOrganisation),
      hasMore: items.length > options.limit,
    };
  }

  async createIntegration(integration: Integration): Promise<void> {
    await this.doc.send(
      new PutCommand({
        TableName: this.tableName,
        Item: integrationItem(integration),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async getIntegration(id: string): Promise<Integration | null> {
    const item = await getItem(this.doc, this.tableName, keys.integration(id));
    return item ? toIntegration(item) : null;
  }

  async listIntegrations(organisationId: string): Promise<Integration[]> {
    const items = await queryAll(this.doc, this.tableName, LIST_INDEX, keys.integrationList(organisationId));
    return items.map(toIntegration);
  }
}

/**
 * Puts every organisation written before the list index existed (no list key) into the list the back
 * office's Organisations page reads; answers how many it added. Idempotent (each write is conditional on
 * the key still missing) and run at each local start; it reads the table with a Scan, which is why it is a
 * start-up step and not a request's, and once per table: a marker written after a complete pass makes
 * every later start a single read. No deployed table predates the index.
 */
export const backfillOrganisationList = async (
  doc: DynamoDBDocumentClient,
  tableName: string,
): Promise<number> => {
  if (await getItem(doc, tableName, ORGANISATION_LIST_BACKFILLED)) return 0;
  let added = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: '#type = :organisation AND attribute_not_exists(#listKey)',
        ExpressionAttributeNames: { '#type': 'type', '#listKey': LIST_INDEX.partitionKey },
        ExpressionAttributeValues: { ':organisation': 'organisation' },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      const listed = organisationItem(toOrganisation(item as Item));
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.organisation(listed.id as string),
            UpdateExpression: 'SET #listKey = :list, #listSort = :sort',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#listKey)',
            ExpressionAttributeNames: {
              '#listKey': LIST_INDEX.partitionKey,
              '#listSort': LIST_INDEX.sortKey,
            },
            ExpressionAttributeValues: {
              ':list': listed[LIST_INDEX.partitionKey],
              ':sort': listed[LIST_INDEX.sortKey],
            },
          }),
        );
        added += 1;
      } catch (error) {
        // Listed meanwhile (another process starting): nothing to do.
        if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
      }
    }
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
  // Only after the whole table was read: a start stopped half-way reads it again next time.
  await doc.send(
    new PutCommand({ TableName: tableName, Item: { ...ORGANISATION_LIST_BACKFILLED, type: 'marker' } }),
  );
  return added;
};

/** Written once every organisation of the table is in the list. */
const ORGANISATION_LIST_BACKFILLED = { pk: 'MARKER#organisation-list-backfilled', sk: 'MARKER' };
