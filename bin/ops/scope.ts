// bin/ops -> what several commands read from their arguments: an environment, and an integration's
// scope in it (by default the one `dev-bootstrap` made); and which environments the tool reaches (both
// beside the local stack, one with `--stage`).

import { DEV_INTEGRATION_ID } from '../../lambdas/core/dev-bootstrap';
import { ActionRefused } from '../../lambdas/core/errors';
import { ENVIRONMENTS, type Environment, type Scope } from '../../lambdas/core/model';
import type { Directory } from '../../lambdas/core/organisations';
import type { CommonPorts, Ports } from '../../lambdas/core/ports';
import type { Settings } from '../../lambdas/core/settings';

/** The operator tool's ports in one environment: the common ones, and the delivery queue (a redelivery, a test event). */
export interface EnvironmentServices {
  ports: CommonPorts & Pick<Ports, 'blobs' | 'workflows' | 'deliveryQueue'>;
  settings: Settings;
}

/** The environments the tool reaches: both beside the local stack, a deployed stage's own with `--stage`. */
export type Reach = Partial<Record<Environment, EnvironmentServices>>;

/** Each environment reached, with its services, in the order of ENVIRONMENTS. */
export const reached = (reach: Reach): Array<[Environment, EnvironmentServices]> =>
  ENVIRONMENTS.flatMap((environment) => {
    const services = reach[environment];
    return services ? [[environment, services] as [Environment, EnvironmentServices]] : [];
  });

/** Where an id was looked for, for a message: "either environment", or "the sandbox environment". */
export const lookedIn = (reach: Reach): string => {
  const environments = reached(reach).map(([environment]) => environment);
  return environments.length === 1 ? `the ${environments[0]} environment` : 'either environment';
};

/**
 * The environment `--environment` names, which must be one reached; with `--stage` it may be left out
 * (the stage's own).
 */
export const readEnvironment = (value: string | undefined, reach: Reach): Environment => {
  const environments = reached(reach).map(([environment]) => environment);
  if (value === undefined && environments.length === 1) return environments[0] as Environment;
  const environment = ENVIRONMENTS.find((e) => e === value);
  if (!environment) throw new ActionRefused(`--environment must be one of ${ENVIRONMENTS.join(', ')}`);
  if (!environments.includes(environment))
    throw new ActionRefused(
      `--environment ${environment} is not this stage's (${environments.join(', ')}): use --stage ${environment.charAt(0).toUpperCase()}${environment.slice(1)}`,
    );
  return environment;
};

/** The services of an environment `readEnvironment` gave. */
export const servicesIn = (reach: Reach, environment: Environment): EnvironmentServices => {
  const services = reach[environment];
  if (!services) throw new ActionRefused(`the ${environment} environment is not reached here`);
  return services;
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
