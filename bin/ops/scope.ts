// bin/ops -> what several commands read from their arguments: an environment, and an integration's
// scope in it (by default the one `dev-bootstrap` made).

import { DEV_INTEGRATION_ID } from '../../lambdas/core/dev-bootstrap';
import { ActionRefused } from '../../lambdas/core/errors';
import { ENVIRONMENTS, type Environment, type Scope } from '../../lambdas/core/model';
import type { Directory } from '../../lambdas/core/organisations';
import type { Ports } from '../../lambdas/core/ports';
import type { Settings } from '../../lambdas/core/settings';

export interface EnvironmentServices {
  ports: Ports;
  settings: Settings;
}

export const readEnvironment = (value: string | undefined): Environment => {
  const environment = ENVIRONMENTS.find((e) => e === value);
  if (!environment) throw new ActionRefused(`--environment must be one of ${ENVIRONMENTS.join(', ')}`);
  return environment;
};

/** The scope of an integration in one environment (default: the one `dev-bootstrap` made). */
export const scopeOf = async (
  directory: Directory,
  environment: Environment,
  integrationId = DEV_INTEGRATION_ID,
): Promise<Scope> => {
  const integration = await directory.organisations.getIntegration(integrationId);
  if (integration === null)
    throw new ActionRefused(`no integration ${integrationId} (run dev-bootstrap first?)`);
  return { organisationId: integration.organisationId, integrationId, environment };
};
