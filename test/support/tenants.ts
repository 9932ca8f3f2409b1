// test -> more tenants than `dev-bootstrap` makes, created through the core against a running local
// stack's storage, the way the portal does: to show that one tenant cannot see another's records.

import { createDocumentClient } from '../../lambdas/adapters/dynamodb';
import { createApiKey, type KeyHolder, revokeApiKey } from '../../lambdas/core/api-keys';
import { hashSecret } from '../../lambdas/core/auth';
import { ENVIRONMENTS, type Environment, type Scope } from '../../lambdas/core/model';
import { type Buyer, submitOnboarding } from '../../lambdas/core/onboarding';
import {
  createIntegration,
  createOrganisation,
  type Directory,
  integrationScope,
  keyHolder,
} from '../../lambdas/core/organisations';
import type { Ports } from '../../lambdas/core/ports';
import { localUrl, PORT_OFFSETS, readLocalConfig } from '../../local/config';
import { localDirectory, localServices } from '../../local/wiring';
import type { RunningStack } from './local-stack';

const localConfigOf = (stack: RunningStack) =>
  readLocalConfig({ PORT_BASE: String(stack.portBase), DATA_DIR: stack.dataDir });

export const portsOf = async (stack: RunningStack): Promise<Record<Environment, Ports>> => {
  const services = await localServices(localConfigOf(stack));
  return { sandbox: services.sandbox.ports, production: services.production.ports };
};

export const directoryOf = async (stack: RunningStack): Promise<Directory> =>
  localDirectory(createDocumentClient(localUrl(localConfigOf(stack), PORT_OFFSETS.dynamoDb)));

/**
 * A new person (who never signs in: their password hash is a placeholder), their organisation with one
 * integration, and an API key per environment: made through the core functions the portal calls.
 */
export const createTenant = async (stack: RunningStack, name: string) => {
  const [ports, directory] = await Promise.all([portsOf(stack), directoryOf(stack)]);
  const person = {
    id: directory.ids.id('per'),
    email: `${directory.ids.id('tenant')}@example.com`,
    passwordHash: 'placeholder: this person never signs in',
    createdAt: directory.clock.now(),
    organisationId: null,
  };
  await directory.people.create(person);
  const organisation = await createOrganisation(directory, person.id, name);
  const integration = await createIntegration(directory, organisation.id, name);
  const keys = {} as Record<Environment, string>;
  for (const environment of ENVIRONMENTS) {
    const scope = await integrationScope(directory, organisation.id, integration.id, environment);
    keys[environment] = (await createApiKey(ports[environment], await keyHolder(directory, scope))).key;
  }
  return {
    personId: person.id,
    organisationId: organisation.id,
    organisationName: organisation.name,
    integrationId: integration.id,
    keys,
  };
};

/** A tenant's integration in one environment, as the core's functions take it. */
export const tenantScope = (
  tenant: { organisationId: string; integrationId: string },
  environment: Environment,
): Scope => ({ organisationId: tenant.organisationId, integrationId: tenant.integrationId, environment });

/** Whom a key of the tenant's integration in one environment is made for, as `createApiKey` takes it. */
export const tenantKeyHolder = (
  tenant: { organisationId: string; organisationName: string; integrationId: string },
  environment: Environment,
): KeyHolder => ({ ...tenantScope(tenant, environment), organisationName: tenant.organisationName });

/** Records a form submission directly (buyers the form itself would refuse, such as an unusable email). */
export const submitDirectly = async (
  stack: RunningStack,
  environment: Environment,
  onboardingId: string,
  buyers: Buyer[],
) => {
  const ports = (await portsOf(stack))[environment];
  const onboarding = await ports.onboardings.get(onboardingId);
  if (!onboarding) throw new Error(`no onboarding ${onboardingId}`);
  return submitOnboarding(ports, onboarding, buyers);
};

/** Revokes an API key, as the portal will. */
export const revokeKey = async (stack: RunningStack, environment: Environment, key: string) => {
  const ports = (await portsOf(stack))[environment];
  const record = await ports.apiKeys.findApiKeyByHash(hashSecret(key));
  if (!record) throw new Error('no such key');
  await revokeApiKey(ports, record.organisationId, record.id);
};
