// core -> `ops dev-bootstrap`: the local stack's own person, their organisation with one integration, and
// a fresh API key per environment, so that local work starts without the portal. Fixed ids: a second
// run finds the same records and makes only new keys.
import { createApiKey } from './api-keys';
import { ENVIRONMENTS, type Environment } from './model';
import type { Directory } from './organisations';
import { hashPassword } from './people/password-hash';
import { EmailTaken } from './people/person';
import type { Ports } from './ports';

export const DEV_ORGANISATION_ID = 'org_localdev';
export const DEV_INTEGRATION_ID = 'int_localdev';

/** The local stack's person (decisions.md §10), owner of the local organisation. Local only: the password is published. */
export const DEV_PERSON = {
  id: 'per_localdev',
  email: 'dev@localhost.test',
  password: 'local-dev-password',
} as const;

/** Records the local person once; a second run (or one racing it) finds them. */
const ensureDevPerson = async (directory: Directory): Promise<void> => {
  if (await directory.people.findByEmail(DEV_PERSON.email)) return;
  try {
    await directory.people.create({
      id: DEV_PERSON.id,
      email: DEV_PERSON.email,
      passwordHash: await hashPassword(DEV_PERSON.password),
      createdAt: directory.clock.now(),
      organisationId: null,
    });
  } catch (error) {
    if (!(error instanceof EmailTaken)) throw error;
  }
};

const ensureDevOrganisation = async (directory: Directory): Promise<void> => {
  const { organisations, clock } = directory;
  if ((await organisations.get(DEV_ORGANISATION_ID)) === null)
    await organisations.create({
      id: DEV_ORGANISATION_ID,
      name: 'Local development',
      ownerId: DEV_PERSON.id,
      createdAt: clock.now(),
    });
  if ((await organisations.getIntegration(DEV_INTEGRATION_ID)) === null)
    await organisations.createIntegration({
      id: DEV_INTEGRATION_ID,
      organisationId: DEV_ORGANISATION_ID,
      type: 'contract_reviews',
      name: 'Local integration',
      createdAt: clock.now(),
    });
};

export const devBootstrap = async (
  directory: Directory,
  portsOf: Readonly<Record<Environment, Pick<Ports, 'apiKeys' | 'clock' | 'environment' | 'ids'>>>,
) => {
  await ensureDevPerson(directory);
  await ensureDevOrganisation(directory);
  const keys = {} as Record<Environment, string>;
  for (const environment of ENVIRONMENTS) {
    const scope = { organisationId: DEV_ORGANISATION_ID, integrationId: DEV_INTEGRATION_ID, environment };
    keys[environment] = (await createApiKey(portsOf[environment], scope, 'dev-bootstrap')).key;
  }
  return { organisation_id: DEV_ORGANISATION_ID, integration_id: DEV_INTEGRATION_ID, keys };
};
