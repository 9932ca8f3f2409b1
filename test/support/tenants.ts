// test -> more tenants than `dev-bootstrap` makes, created through the core against a running local
// stack's storage, the way the portal will: to show that one tenant cannot see another's records.

import { createApiKey, revokeApiKey } from '../../lambdas/core/api-keys';
import { hashSecret } from '../../lambdas/core/auth';
import { DEFAULT_SANDBOX_BUDGET } from '../../lambdas/core/identity';
import type { Environment } from '../../lambdas/core/model';
import { type Buyer, submitOnboarding } from '../../lambdas/core/onboarding';
import type { Ports } from '../../lambdas/core/ports';
import { readLocalConfig } from '../../lambdas/hosts/local-config';
import { localServices } from '../../lambdas/hosts/local-wiring';
import type { RunningStack } from './local-stack';

export const portsOf = async (stack: RunningStack): Promise<Record<Environment, Ports>> => {
  const services = await localServices(
    readLocalConfig({ PORT_BASE: String(stack.portBase), DATA_DIR: stack.dataDir }),
  );
  return { sandbox: services.sandbox.ports, production: services.production.ports };
};

/** A new organisation with one integration, and an API key per environment. */
export const createTenant = async (stack: RunningStack, name: string) => {
  const ports = await portsOf(stack);
  const suffix = Math.random().toString(36).slice(2, 10);
  const organisation = {
    id: `org_${name}${suffix}`,
    name,
    sandboxBudget: DEFAULT_SANDBOX_BUDGET,
    sandboxUsed: 0,
    createdAt: Date.now() * 1000,
  };
  const integration = {
    id: `int_${name}${suffix}`,
    organisationId: organisation.id,
    type: 'contract_reviews' as const,
    name,
    createdAt: Date.now() * 1000,
  };
  const keys = {} as Record<Environment, string>;
  for (const environment of ['sandbox', 'production'] as const) {
    await ports[environment].identity.putOrganisation(organisation);
    await ports[environment].identity.putIntegration(integration);
    keys[environment] = (
      await createApiKey(ports[environment], {
        organisationId: organisation.id,
        integrationId: integration.id,
      })
    ).key;
  }
  return { organisationId: organisation.id, integrationId: integration.id, keys };
};

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
  const record = await ports.identity.findApiKeyByHash(hashSecret(key));
  if (!record) throw new Error('no such key');
  await revokeApiKey(ports, record.organisationId, record.id);
};
