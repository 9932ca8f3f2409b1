// frontend/portal -> the portal's script: who is signed in, then their organisation (or the page that
// creates it), then the page of the address. Every page reads and changes through the backend's JSON
// routes; no token of the identity provider is ever here.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { get, nameApp, setCsrfToken } from '../../app-kit/api';
import { errorText, Loading, SignOutButton } from '../../app-kit/components';
import { Link, usePath } from '../../app-kit/navigation';
import { CreateOrganisationPage, NotFoundPage, OverviewPage, SignInPage } from './pages/account';
import { ApiKeysPage } from './pages/api-keys';
import { EndpointPage } from './pages/endpoint';
import { IntegrationPage } from './pages/integration';
import { IntegrationsPage } from './pages/integrations';
import { McpClientsPage } from './pages/mcp-clients';
import { RequestsPage } from './pages/requests';
import { WebhooksPage } from './pages/webhooks';
import { routeOf } from './router';
import type { OrganisationOverviewJson, SessionJson } from './types';

const Header = ({ session, organisation }: { session: SessionJson; organisation: string | null }) => {
  const [error, setError] = useState<string | null>(null);
  return (
    <header class="site-header">
      <a class="skip-link" href="#content">
        Skip to content
      </a>
      <p class="site-name">
        <Link href="/">Developer portal</Link>
        {organisation && <span class="organisation-name"> · {organisation}</span>}
      </p>
      {organisation && (
        <nav aria-label="Portal">
          <ul>
            <li>
              <Link href="/">Overview</Link>
            </li>
            <li>
              <Link href="/integrations">Integrations</Link>
            </li>
            <li>
              <Link href="/mcp-clients">Connected MCP clients</Link>
            </li>
          </ul>
        </nav>
      )}
      <p class="signed-in">
        <span>Signed in as {session.email}</span> <SignOutButton onError={setError} />
      </p>
      {error && <p role="alert">{error}</p>}
    </header>
  );
};

const Page = ({ overview, reload }: { overview: OrganisationOverviewJson; reload: () => void }) => {
  const route = routeOf(usePath());
  switch (route.page) {
    case 'overview':
      return <OverviewPage overview={overview} />;
    case 'integrations':
      return <IntegrationsPage onChange={reload} />;
    case 'mcp-clients':
      return <McpClientsPage />;
    case 'integration':
      return <IntegrationPage {...route} />;
    case 'api-keys':
      return <ApiKeysPage {...route} />;
    case 'webhooks':
      return <WebhooksPage {...route} />;
    case 'endpoint':
      return <EndpointPage {...route} />;
    case 'requests':
      return <RequestsPage {...route} />;
    default:
      return <NotFoundPage />;
  }
};

const App = () => {
  const [session, setSession] = useState<SessionJson | null>(null);
  const [overview, setOverview] = useState<OrganisationOverviewJson | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  useEffect(() => {
    (async () => {
      const current = await get<SessionJson>('/api/session');
      setCsrfToken(current.csrf_token);
      setSession(current);
      if (current.signed_in) setOverview(await get<OrganisationOverviewJson>('/api/organisation'));
    })().catch((failed: unknown) => setError(errorText(failed)));
  }, [round]);
  const reload = () => setRound((r) => r + 1);
  if (error)
    return (
      <main id="content">
        <h1>The portal could not load</h1>
        <p role="alert">{error}</p>
      </main>
    );
  if (session === null)
    return (
      <main id="content">
        <Loading what="the portal" />
      </main>
    );
  if (!session.signed_in) return <SignInPage />;
  if (overview === null)
    return (
      <>
        <Header session={session} organisation={null} />
        <main id="content">
          <Loading what="your organisation" />
        </main>
      </>
    );
  return (
    <>
      <Header session={session} organisation={overview.organisation?.name ?? null} />
      <main id="content">
        {overview.organisation === null ? (
          <CreateOrganisationPage onCreated={reload} />
        ) : (
          <Page overview={overview} reload={reload} />
        )}
      </main>
    </>
  );
};

nameApp('Developer portal', 'the portal');
const root = document.getElementById('portal');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
