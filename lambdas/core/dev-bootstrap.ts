// core -> `ops dev-bootstrap`: the local stack's own person, their organisation with one integration, and
// a fresh API key per environment, so that local work starts without the portal. Fixed ids: a second
// run finds the same records and makes only new keys.
import { createApiKey } from './api-keys';
import { OPERATOR_TOOL, type Role } from './back-office/roles';
import { putStaffMember } from './back-office/staff';
import { ENVIRONMENTS, type Environment } from './model';
import { type Directory, keyHolder } from './organisations';
import { hashPassword, type ScryptCost } from './people/password-hash';
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

/**
 * The local stack's staff (decisions.md §11), people the local identity provider signs in with the same
 * published password; `dev@localhost.test` stays an integrator with no staff role.
 */
export const DEV_STAFF = [
  { id: 'per_locallawyer', email: 'lawyer@localhost.test', name: 'Local Lawyer', roles: ['lawyer'] },
  {
    id: 'per_localoperator',
    email: 'operator@localhost.test',
    name: 'Local Operator',
    roles: ['operator', 'admin'],
  },
] as const satisfies ReadonlyArray<{ id: string; email: string; name: string; roles: readonly Role[] }>;

/** Records a local person once, their password hashed at `cost`; a second run (or one racing it) finds them. */
const ensurePerson = async (
  directory: Directory,
  person: { id: string; email: string },
  cost: ScryptCost | undefined,
): Promise<void> => {
  if (await directory.people.findByEmail(person.email)) return;
  try {
    await directory.people.create({
      id: person.id,
      email: person.email,
      passwordHash: await hashPassword(DEV_PERSON.password, cost),
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

/** Each local staff member with their roles and name, recorded (and audited) only when not so already. */
const ensureDevStaff = async (directory: Directory, cost: ScryptCost | undefined): Promise<void> => {
  for (const member of DEV_STAFF) {
    await ensurePerson(directory, member, cost);
    const stored = await directory.staff.get(member.email);
    if (stored?.roles.join(',') !== member.roles.join(',') || stored.name !== member.name)
      await putStaffMember(directory, OPERATOR_TOOL, member.email, member.roles, member.name);
  }
};

/**
 * Runs an `ensure…` step, again if it fails: each step looks before it writes, so a run that lost a race
 * to another (two terminals, two test files on one stack) finds the other's records on its next look.
 * A fault that is no race fails every attempt and is thrown.
 */
const ensured = async (step: () => Promise<void>, attempts = 3): Promise<void> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (attempt >= attempts) throw error;
    }
  }
};

/** `passwordCost`: the local stack's (local/config.ts); by default the service's. */
export const devBootstrap = async (
  directory: Directory,
  portsOf: Readonly<
    Record<Environment, Pick<Ports, 'apiKeys' | 'clock' | 'environment' | 'ids' | 'organisationNames'>>
  >,
  passwordCost?: ScryptCost,
) => {
  await ensured(() => ensurePerson(directory, DEV_PERSON, passwordCost));
  await ensured(() => ensureDevStaff(directory, passwordCost));
  await ensured(() => ensureDevOrganisation(directory));
  const keys = {} as Record<Environment, string>;
  for (const environment of ENVIRONMENTS) {
    const scope = { organisationId: DEV_ORGANISATION_ID, integrationId: DEV_INTEGRATION_ID, environment };
    keys[environment] = (
      await createApiKey(portsOf[environment], await keyHolder(directory, scope), 'dev-bootstrap')
    ).key;
  }
  return { organisation_id: DEV_ORGANISATION_ID, integration_id: DEV_INTEGRATION_ID, keys };
};
