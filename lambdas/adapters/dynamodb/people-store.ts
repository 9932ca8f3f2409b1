// adapter -> people in the identity table: the person under their id, and an item under their email
// that claims it, both written in one transaction whose conditions let only one person have an email.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { EmailTaken, type Person } from '../../core/people/person';
import type { PeopleStore } from '../../core/ports';
import { personEmailItem, personItem, toPerson } from './items';
import { keys } from './keys';
import { getItem } from './table';
import { transactWrite } from './transactions';

export class DynamoDbPeopleStore implements PeopleStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(person: Person): Promise<void> {
    const absent = { ConditionExpression: 'attribute_not_exists(pk)' };
    // The email's condition comes first: a taken email is the answer a race for one gets.
    await transactWrite(this.doc, [
      {
        write: { Put: { TableName: this.tableName, Item: personEmailItem(person), ...absent } },
        onConditionFailed: () => new EmailTaken(person.email),
      },
      {
        write: { Put: { TableName: this.tableName, Item: personItem(person), ...absent } },
        onConditionFailed: () => new Error(`a person with the id ${person.id} exists already`),
      },
    ]);
  }

  async get(id: string): Promise<Person | null> {
    const item = await getItem(this.doc, this.tableName, keys.person(id));
    return item ? toPerson(item) : null;
  }

  async findByEmail(email: string): Promise<Person | null> {
    const claim = await getItem(this.doc, this.tableName, keys.personEmail(email));
    return typeof claim?.person_id === 'string' ? this.get(claim.person_id) : null;
  }
}
