// adapters -> organisations and integrations in a table of DynamoDB Local (the identity table's schema),
// through the core functions the portal and the MCP server call: one organisation per person, kept by
// the store's transaction even when two creations race; integrations listed newest first; an id of
// another organisation as unknown as a made-up one; the back office's list of every organisation by name.

import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, test } from '@jest/globals';
import { organisationItem } from '../../lambdas/adapters/dynamodb/items';
import {
  backfillOrganisationList,
  DynamoDbOrganisationStore,
} from '../../lambdas/adapters/dynamodb/organisation-store';
import { DynamoDbPeopleStore } from '../../lambdas/adapters/dynamodb/people-store';
import { DynamoDbSandboxBudgetStore } from '../../lambdas/adapters/dynamodb/sandbox-budget-store';
import { DynamoDbStaffStore } from '../../lambdas/adapters/dynamodb/staff-store';
import { LIST_INDEX } from '../../lambdas/adapters/dynamodb/table-schema';
import { randomIds } from '../../lambdas/adapters/random-ids';
import { listOrganisations } from '../../lambdas/core/back-office/operations';
import type { Staff } from '../../lambdas/core/back-office/roles';
import { ServiceError } from '../../lambdas/core/errors';
import {
  createIntegration,
  createOrganisation,
  type Directory,
  getOrganisation,
  integrationScope,
  listIntegrations,
  organisationOf,
} from '../../lambdas/core/organisations';
import type { Person } from '../../lambdas/core/people/person';
import { DEFAULT_SANDBOX_BUDGET } from '../../lambdas/core/sandbox-budget';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { id, SECOND, TestClock } from '../support/fixtures';

const db = useTestDynamoDb();

const setUp = async () => {
  const tableName = await db.freshTable();
  const clock = new TestClock();
  const directory: Directory = {
    organisations: new DynamoDbOrganisationStore(db.doc, tableName),
    people: new DynamoDbPeopleStore(db.doc, tableName),
    staff: new DynamoDbStaffStore(db.doc, tableName),
    ids: randomIds(),
    clock,
  };
  const sandbox = { sandboxBudgets: new DynamoDbSandboxBudgetStore(db.doc, await db.freshTable()) };
  const newPerson = async (): Promise<Person> => {
    const person: Person = {
      id: id('per_'),
      email: `${id('p')}@example.com`,
      passwordHash: '$scrypt$placeholder',
      createdAt: directory.clock.now(),
      organisationId: null,
    };
    await directory.people.create(person);
    return person;
  };
  return { directory, sandbox, newPerson, clock, tableName };
};

const refusal = async (promise: Promise<unknown>): Promise<ServiceError> => {
  const error = await promise.then(
    () => new Error('expected a refusal'),
    (e: unknown) => e,
  );
  if (!(error instanceof ServiceError)) throw error;
  return error;
};

describe('organisations', () => {
  test('a person has none, then creates one and owns it in both the organisation and their record', async () => {
    const { directory, sandbox, newPerson } = await setUp();
    const person = await newPerson();
    await expect(getOrganisation(directory, sandbox, person.id)).resolves.toEqual({
      organisation: null,
      sandbox_budget: null,
      integrations: [],
    });
    expect((await refusal(organisationOf(directory, person.id))).code).toBe('organisation_required');

    const created = await createOrganisation(directory, person.id, '  Harbour Conveyancing ');

    expect(created).toEqual({
      id: expect.stringMatching(/^org_/),
      name: 'Harbour Conveyancing',
      created_at: expect.stringMatching(/Z$/),
    });
    await expect(organisationOf(directory, person.id)).resolves.toBe(created.id);
    await expect(directory.organisations.get(created.id)).resolves.toMatchObject({ ownerId: person.id });
    await expect(getOrganisation(directory, sandbox, person.id)).resolves.toEqual({
      organisation: created,
      sandbox_budget: {
        organisation_id: created.id,
        total: DEFAULT_SANDBOX_BUDGET,
        used: 0,
        remaining: DEFAULT_SANDBOX_BUDGET,
      },
      integrations: [],
    });
  });

  test('a second organisation answers organisation_exists, and a race of two makes exactly one', async () => {
    const { directory, newPerson } = await setUp();
    const first = await newPerson();
    await createOrganisation(directory, first.id, 'First');
    const again = await refusal(createOrganisation(directory, first.id, 'Second'));
    expect(again).toMatchObject({ code: 'organisation_exists', status: 409 });

    const racer = await newPerson();
    const results = await Promise.allSettled(
      ['A', 'B', 'C'].map((name) => createOrganisation(directory, racer.id, name)),
    );

    const made = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(made).toHaveLength(1);
    for (const r of results)
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'organisation_exists' });
    await expect(organisationOf(directory, racer.id)).resolves.toBe(made[0]?.id);
  });

  test('a name must be printable text of 1 to 100 characters, and a refused one records nothing', async () => {
    const { directory, newPerson } = await setUp();
    const person = await newPerson();
    for (const name of ['', '   ', 'a'.repeat(101), 'line\nbreak', 42])
      expect((await refusal(createOrganisation(directory, person.id, name))).code).toBe('request_invalid');
    expect((await directory.people.get(person.id))?.organisationId).toBeNull();
  });
});

describe('the back office’s list of organisations', () => {
  const operator: Staff = { kind: 'staff', email: 'operator@example.com', roles: ['operator'] };

  test('every organisation by name (any case), paged from an index, each with its sandbox budget', async () => {
    const { directory, sandbox, newPerson } = await setUp();
    const make = async (name: string) =>
      (await createOrganisation(directory, (await newPerson()).id, name)).id;
    const harbour = await make('harbour Conveyancing');
    const acme = await make('Acme Law');
    const zenith = await make('Zenith Legal');
    await sandbox.sandboxBudgets.set(acme, 12, []);

    const first = await listOrganisations(directory, sandbox, operator, { limit: 2 });
    expect(first.data.map((o) => [o.id, o.sandbox_budget.total])).toEqual([
      [acme, 12],
      [harbour, DEFAULT_SANDBOX_BUDGET],
    ]);
    expect(first.data[0]).toEqual({
      id: acme,
      name: 'Acme Law',
      created_at: expect.stringMatching(/Z$/),
      sandbox_budget: { organisation_id: acme, total: 12, used: 0, remaining: 12 },
    });
    expect(first.has_more).toBe(true);
    const rest = await listOrganisations(directory, sandbox, operator, { startingAfter: harbour });
    expect(rest).toEqual({ data: [expect.objectContaining({ id: zenith })], has_more: false });
  });

  test('organisations written before the list index existed are listed once backfilled, once only', async () => {
    const { directory, sandbox, newPerson, tableName } = await setUp();
    const listed = await createOrganisation(directory, (await newPerson()).id, 'Listed Law');
    // As the store wrote an organisation before it kept one in the list: no list key.
    const old = { id: id('org_'), name: 'Older Conveyancing', ownerId: id('per_'), createdAt: 1 };
    const {
      [LIST_INDEX.partitionKey]: _list,
      [LIST_INDEX.sortKey]: _sort,
      ...unlisted
    } = organisationItem(old);
    await db.doc.send(new PutCommand({ TableName: tableName, Item: unlisted }));
    const names = async () =>
      (await listOrganisations(directory, sandbox, operator)).data.map((organisation) => organisation.name);
    expect(await names()).toEqual(['Listed Law']);

    expect(await backfillOrganisationList(db.doc, tableName)).toBe(1);
    expect(await names()).toEqual(['Listed Law', 'Older Conveyancing']);
    expect((await directory.organisations.get(old.id))?.name).toBe('Older Conveyancing');
    // Again (the next start): nothing more to do, nothing changed, and the table is not read again: an
    // unlisted organisation planted after the first complete pass stays unlisted.
    const planted = { ...old, id: id('org_'), name: 'Planted Later' };
    const {
      [LIST_INDEX.partitionKey]: _l,
      [LIST_INDEX.sortKey]: _s,
      ...plantedUnlisted
    } = organisationItem(planted);
    await db.doc.send(new PutCommand({ TableName: tableName, Item: plantedUnlisted }));
    expect(await backfillOrganisationList(db.doc, tableName)).toBe(0);
    expect(await names()).toEqual(['Listed Law', 'Older Conveyancing']);
    expect(listed.name).toBe('Listed Law');
  });

  test('only operators may list; a bad limit or starting_after is refused', async () => {
    const { directory, sandbox } = await setUp();
    const lawyer: Staff = { kind: 'staff', email: 'lawyer@example.com', roles: ['lawyer'] };
    expect((await refusal(listOrganisations(directory, sandbox, lawyer))).code).toBe('role_required');
    expect((await refusal(listOrganisations(directory, sandbox, operator, { limit: 0 }))).code).toBe(
      'limit_invalid',
    );
    expect(
      (await refusal(listOrganisations(directory, sandbox, operator, { startingAfter: 'org_madeup' }))).code,
    ).toBe('starting_after_invalid');
  });
});

describe('integrations', () => {
  test('are listed newest first, and scoped to their organisation in each environment', async () => {
    const { directory, newPerson, clock } = await setUp();
    const owner = await newPerson();
    const { id: organisationId } = await createOrganisation(directory, owner.id, 'Owner');
    const older = await createIntegration(directory, organisationId, 'Website');
    clock.advance(SECOND);
    const newer = await createIntegration(directory, organisationId, 'Mobile app');

    expect(older).toMatchObject({
      organisation_id: organisationId,
      type: 'contract_reviews',
      name: 'Website',
    });
    await expect(listIntegrations(directory, organisationId)).resolves.toEqual({ data: [newer, older] });
    await expect(integrationScope(directory, organisationId, older.id, 'production')).resolves.toEqual({
      organisationId,
      integrationId: older.id,
      environment: 'production',
    });
  });

  test("another organisation's integration, or a made-up id, is not_found", async () => {
    const { directory, newPerson } = await setUp();
    const [alice, bob] = [await newPerson(), await newPerson()];
    const alicesOrganisation = await createOrganisation(directory, alice.id, 'Alice');
    const bobsOrganisation = await createOrganisation(directory, bob.id, 'Bob');
    const alicesIntegration = await createIntegration(directory, alicesOrganisation.id, 'Website');

    for (const integrationId of [alicesIntegration.id, 'int_madeup', 'whe_notanintegration'])
      expect(
        (await refusal(integrationScope(directory, bobsOrganisation.id, integrationId, 'sandbox'))).code,
      ).toBe('not_found');
    await expect(listIntegrations(directory, bobsOrganisation.id)).resolves.toEqual({ data: [] });
  });
});
