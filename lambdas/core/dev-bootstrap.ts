// core -> organisations, integrations and API keys, as the operator tool makes them for local work, and
// the local stack's own person. (The portal that makes them for people comes later and calls the same
// functions.)
import { createApiKey } from './api-keys';
import { fail, notFound } from './errors';
import { ENVIRONMENTS, type Environment, type Organisation } from './model';
import { hashPassword } from './people/password-hash';
import { EmailTaken } from './people/person';
import type { Clock, PeopleStore, Ports } from './ports';

export const DEFAULT_SANDBOX_BUDGET = 3;

/** Fixed ids: `dev-bootstrap` makes its records once, and a second run finds the same ones. */
export const DEV_ORGANISATION_ID = 'org_localdev';
export const DEV_INTEGRATION_ID = 'int_localdev';

/** The local stack's person (decisions.md §10), owner of the local organisation. Local only: the password is published. */
export const DEV_PERSON = {
  id: 'per_localdev',
  email: 'dev@localhost.test',
  password: 'local-dev-password',
} as const;

/** Records the local person once; a second run (or one racing it) finds them. */
const ensureDevPerson = async (people: PeopleStore, clock: Clock): Promise<void> => {
  if (await people.findByEmail(DEV_PERSON.email)) return;
  try {
    await people.create({
      id: DEV_PERSON.id,
      email: DEV_PERSON.email,
      passwordHash: await hashPassword(DEV_PERSON.password),
      createdAt: clock.now(),
      organisationId: DEV_ORGANISATION_ID,
    });
  } catch (error) {
    if (!(error instanceof EmailTaken)) throw error;
  }
};

/**
 * `ops dev-bootstrap`: a local organisation with one Contract reviews integration, recorded in both
 * environments, a fresh API key for each environment, and the local person who owns the organisation.
 */
export const devBootstrap = async (portsOf: Readonly<Record<Environment, Ports>>, people: PeopleStore) => {
  await ensureDevPerson(people, portsOf.production.clock);
  const keys = {} as Record<Environment, string>;
  for (const environment of ENVIRONMENTS) {
    const ports = portsOf[environment];
    const now = ports.clock.now();
    let organisation = await ports.identity.getOrganisation(DEV_ORGANISATION_ID);
    if (organisation === null) {
      organisation = {
        id: DEV_ORGANISATION_ID,
        name: 'Local development',
        sandboxBudget: DEFAULT_SANDBOX_BUDGET,
        sandboxUsed: 0,
        createdAt: now,
      } satisfies Organisation;
      await ports.identity.putOrganisation(organisation);
    }
    let integration = await ports.identity.getIntegration(DEV_INTEGRATION_ID);
    if (integration === null) {
      integration = {
        id: DEV_INTEGRATION_ID,
        organisationId: organisation.id,
        type: 'contract_reviews',
        name: 'Local integration',
        createdAt: now,
      };
      await ports.identity.putIntegration(integration);
    }
    const created = await createApiKey(
      ports,
      { organisationId: organisation.id, integrationId: integration.id },
      'dev-bootstrap',
    );
    keys[environment] = created.key;
  }
  return { organisation_id: DEV_ORGANISATION_ID, integration_id: DEV_INTEGRATION_ID, keys };
};

/** `ops set-budget`: the organisation's sandbox budget of processed PDFs, in all. */
export const setSandboxBudget = async (sandbox: Ports, organisationId: string, budget: number) => {
  if (!Number.isInteger(budget) || budget < 0 || budget > 1_000_000)
    fail('request_invalid', 'The budget must be a whole number from 0 to 1000000.');
  const organisation = await sandbox.identity.setSandboxBudget(organisationId, budget);
  return {
    organisation_id: organisation.id,
    sandbox_budget: organisation.sandboxBudget,
    sandbox_used: organisation.sandboxUsed,
  };
};

/**
 * The organisation's sandbox budget as people and agents read it (decisions.md §10): processed PDFs
 * allowed in all, used, and left. Counted by the sandbox environment, which holds it.
 */
export const getSandboxBudget = async (sandbox: Ports, organisationId: string) => {
  const organisation = await sandbox.identity.getOrganisation(organisationId);
  if (organisation === null) throw notFound('organisation');
  return {
    organisation_id: organisation.id,
    total: organisation.sandboxBudget,
    used: organisation.sandboxUsed,
    remaining: Math.max(0, organisation.sandboxBudget - organisation.sandboxUsed),
  };
};
