// frontend/portal -> the portal's addresses and the page each shows. The environment is part of every
// address that concerns one (`/sandbox/…`, `/production/…`), so a link or a bookmark always says which.
// Moving between them is the kit's (frontend/app-kit/navigation.tsx).
import type { EnvironmentJson } from './types';

export type Route =
  | { page: 'overview' }
  | { page: 'integrations' }
  | { page: 'mcp-clients' }
  | { page: 'integration'; environment: EnvironmentJson; integrationId: string }
  | { page: 'api-keys'; environment: EnvironmentJson; integrationId: string }
  | { page: 'webhooks'; environment: EnvironmentJson; integrationId: string }
  | { page: 'endpoint'; environment: EnvironmentJson; integrationId: string; endpointId: string }
  | { page: 'requests'; environment: EnvironmentJson; integrationId: string }
  | { page: 'not-found' };

const ID = '([A-Za-z0-9_-]{1,100})';
const ENV = '(sandbox|production)';

export const routeOf = (path: string): Route => {
  if (path === '/' || path === '') return { page: 'overview' };
  if (path === '/integrations') return { page: 'integrations' };
  if (path === '/mcp-clients') return { page: 'mcp-clients' };
  const scoped = new RegExp(
    `^/${ENV}/integrations/${ID}(?:/(api-keys|webhook-endpoints|requests)(?:/${ID})?)?$`,
  ).exec(path);
  if (!scoped) return { page: 'not-found' };
  const [, environment, integrationId, section, endpointId] = scoped as unknown as [
    string,
    EnvironmentJson,
    string,
    string | undefined,
    string | undefined,
  ];
  if (endpointId !== undefined)
    return section === 'webhook-endpoints'
      ? { page: 'endpoint', environment, integrationId, endpointId }
      : { page: 'not-found' };
  if (section === 'api-keys') return { page: 'api-keys', environment, integrationId };
  if (section === 'webhook-endpoints') return { page: 'webhooks', environment, integrationId };
  if (section === 'requests') return { page: 'requests', environment, integrationId };
  return { page: 'integration', environment, integrationId };
};

export const integrationPath = (environment: EnvironmentJson, integrationId: string, section = ''): string =>
  `/${environment}/integrations/${integrationId}${section ? `/${section}` : ''}`;
