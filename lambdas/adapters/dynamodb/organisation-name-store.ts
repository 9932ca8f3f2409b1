// adapter -> organisations' names in an environment's table, one item each, as its hosted pages show them.
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { OrganisationNameStore } from '../../core/ports';
import { keys } from './keys';
import { getItem } from './table';

export class DynamoDbOrganisationNameStore implements OrganisationNameStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async put(organisationId: string, name: string): Promise<void> {
    await this.doc.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...keys.organisationName(organisationId), type: 'organisation_name', name },
      }),
    );
  }

  async get(organisationId: string): Promise<string | null> {
    const item = await getItem(this.doc, this.tableName, keys.organisationName(organisationId));
    return typeof item?.name === 'string' ? item.name : null;
  }
}
