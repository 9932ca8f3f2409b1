// core -> organisations and their integrations (decisions.md §10), as the portal's pages and the MCP
// server's tools do them for a signed-in person: one organisation per person, integrations of type
// `contract_reviews`, and the check that an id a person names is their organisation's. They live in
// the identity table (the `Directory`), shared by both environments; an environment's records carry
// their ids.
import type { KeyHolder } from './api-keys';
import { fail, notFound, OrganisationExists } from './errors';
import type { Environment, Integration, Organisation, Scope } from './model';
import type { Clock, Ids, OrganisationStore, PeopleStore, Ports } from './ports';
import type { StaffStore } from './ports/back-office';
import { getSandboxBudget } from './sandbox-budget';
import type { IntegrationJson, ListOf, OrganisationJson, OrganisationOverviewJson } from './shapes';
import { readName } from './text';
import { formatTime } from './time';

/** The identity table's records a person's requests reach: people, organisations, integrations. */
export interface Directory {
  organisations: OrganisationStore;
  people: PeopleStore;
  /** The operator's staff (decisions.md §11), kept with the identity. */
  staff: StaffStore;
  ids: Ids;
  clock: Clock;
}

export const presentOrganisation = (organisation: Organisation): OrganisationJson => ({
  id: organisation.id,
  name: organisation.name,
  created_at: formatTime(organisation.createdAt),
});

export const presentIntegration = (integration: Integration): IntegrationJson => ({
  id: integration.id,
  organisation_id: integration.organisationId,
  type: integration.type,
  name: integration.name,
  created_at: formatTime(integration.createdAt),
});

/** The id of the person's organisation; `organisation_required` before they have created one. */
export const organisationOf = async (directory: Directory, personId: string): Promise<string> => {
  const person = await directory.people.get(personId);
  if (person?.organisationId == null)
    fail('organisation_required', 'Create your organisation first: it holds your integrations and keys.');
  return person.organisationId;
};

/**
 * The person's organisation (null before they create it), its sandbox budget and its integrations:
 * what the portal's overview and the MCP tool `get_organisation` show.
 */
export const getOrganisation = async (
  directory: Directory,
  sandbox: Pick<Ports, 'sandboxBudgets'>,
  personId: string,
): Promise<OrganisationOverviewJson> => {
  const person = await directory.people.get(personId);
  const organisation = person?.organisationId
    ? await directory.organisations.get(person.organisationId)
    : null;
  if (organisation === null) return { organisation: null, sandbox_budget: null, integrations: [] };
  const [budget, integrations] = await Promise.all([
    getSandboxBudget(sandbox, organisation.id),
    directory.organisations.listIntegrations(organisation.id),
  ]);
  return {
    organisation: presentOrganisation(organisation),
    sandbox_budget: budget,
    integrations: integrations.map(presentIntegration),
  };
};

/** Makes the person's organisation; a person owns one, so a second answers `organisation_exists`. */
export const createOrganisation = async (directory: Directory, personId: string, name: unknown) => {
  const organisationName = readName(name, "An organisation's name", 'Harbour Conveyancing');
  const person = await directory.people.get(personId);
  if (person === null) throw notFound('person');
  const exists = () =>
    fail('organisation_exists', 'You have an organisation already; a person owns one organisation.');
  // Checked first for a clear answer without a write; the store's condition decides a race.
  if (person.organisationId !== null) exists();
  const organisation: Organisation = {
    id: directory.ids.id('org'),
    name: organisationName,
    ownerId: person.id,
    createdAt: directory.clock.now(),
  };
  try {
    await directory.organisations.create(organisation);
  } catch (error) {
    if (error instanceof OrganisationExists) exists();
    throw error;
  }
  return presentOrganisation(organisation);
};

export const listIntegrations = async (
  directory: Directory,
  organisationId: string,
): Promise<ListOf<IntegrationJson>> => ({
  data: (await directory.organisations.listIntegrations(organisationId)).map(presentIntegration),
});

/** A new `contract_reviews` integration of the organisation, in both environments at once. */
export const createIntegration = async (directory: Directory, organisationId: string, name: unknown) => {
  const integration: Integration = {
    id: directory.ids.id('int'),
    organisationId,
    type: 'contract_reviews',
    name: readName(name, "An integration's name", 'Conveyancing app'),
    createdAt: directory.clock.now(),
  };
  await directory.organisations.createIntegration(integration);
  return presentIntegration(integration);
};

/**
 * The scope of the organisation's integration in one environment: what the environment's records of it
 * are kept under. Another organisation's integration is as unknown as a made-up id.
 */
export const integrationScope = async (
  directory: Directory,
  organisationId: string,
  integrationId: string,
  environment: Environment,
): Promise<Scope> => {
  const integration = integrationId.startsWith('int_')
    ? await directory.organisations.getIntegration(integrationId)
    : null;
  if (integration === null || integration.organisationId !== organisationId) throw notFound('integration');
  return { organisationId, integrationId: integration.id, environment };
};

/** The integration's scope with its organisation's name: whom `createApiKey` makes a key for. */
export const keyHolder = async (directory: Directory, scope: Scope): Promise<KeyHolder> => {
  const organisation = await directory.organisations.get(scope.organisationId);
  if (organisation === null) throw notFound('organisation');
  return { ...scope, organisationName: organisation.name };
};
