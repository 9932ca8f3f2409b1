// frontend/portal -> the portal's addresses and the page each shows. The environment is part of every
// address that concerns one (`/sandbox/…`, `/production/…`), so a link or a bookmark always says which.
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Environment } from './types';

export type Route =
  | { page: 'overview' }
  | { page: 'integrations' }
  | { page: 'mcp-clients' }
  | { page: 'integration'; environment: Environment; integrationId: string }
  | { page: 'api-keys'; environment: Environment; integrationId: string }
  | { page: 'webhooks'; environment: Environment; integrationId: string }
  | { page: 'endpoint'; environment: Environment; integrationId: string; endpointId: string }
  | { page: 'requests'; environment: Environment; integrationId: string }
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
    Environment,
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

export const integrationPath = (environment: Environment, integrationId: string, section = ''): string =>
  `/${environment}/integrations/${integrationId}${section ? `/${section}` : ''}`;

const NAVIGATED = 'portal:navigated';

export const navigate = (path: string): void => {
  history.pushState(null, '', path);
  window.dispatchEvent(new Event(NAVIGATED));
};

/** The current path, following links, the back button and `navigate`. */
export const usePath = (): string => {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    window.addEventListener('popstate', update);
    window.addEventListener(NAVIGATED, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(NAVIGATED, update);
    };
  }, []);
  return path;
};

/** A link that changes the page without a reload (a new tab, or any modifier key, is the browser's). */
export const Link = ({
  href,
  children,
  ...rest
}: { href: string; children: ComponentChildren } & JSX.HTMLAttributes<HTMLAnchorElement>) => (
  <a
    href={href}
    {...rest}
    onClick={(event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      navigate(href);
    }}
  >
    {children}
  </a>
);
