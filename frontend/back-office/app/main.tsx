// frontend/back-office -> the back office's script: who is signed in (nobody: the way to sign in; someone
// without a staff role: that the back office is for the operator's staff, and nothing else), then the
// frame (navigation of the sections their roles allow, the environment in words) and the page of the
// address. Every page reads and changes through the backend's JSON routes; no token is ever here.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { get, nameApp, setCsrfToken } from '../../app-kit/api';
import { errorText, Loading, SignOutButton, Title } from '../../app-kit/components';
import { Link, navigate, usePath } from '../../app-kit/navigation';
import { EnvironmentBar, ForbiddenPage } from './components';
import { AuditLogPage } from './pages/audit-log';
import { ContractsPage } from './pages/contracts';
import { OrganisationsPage } from './pages/organisations';
import { ReviewPage } from './pages/review';
import { ReviewsPage } from './pages/reviews';
import { SignUpsPage } from './pages/sign-ups';
import { StaffPage } from './pages/staff';
import { homePath, type Route, routeOf, SECTIONS, sectionOf, sectionPath } from './router';
import type { BackOfficeSessionJson, EnvironmentJson } from './types';

const SIGN_IN_PROBLEMS: Readonly<Record<string, string>> = {
  failed: 'Your sign-in did not finish (it was cancelled or refused). Sign in again.',
  expired: 'Your sign-in took too long or was already used. Sign in again.',
};

const SignInPage = () => {
  const problem = SIGN_IN_PROBLEMS[new URLSearchParams(location.search).get('sign_in') ?? ''];
  const returnTo = location.pathname === '/' ? '' : `?return_to=${encodeURIComponent(location.pathname)}`;
  return (
    <main id="content" class="sign-in">
      <Title>Sign in to the back office</Title>
      {problem && (
        <p role="alert" class="notice notice-error">
          {problem}
        </p>
      )}
      <p>The workspace of the operator's staff: lawyers review contracts, operators run sign-ups.</p>
      <p>
        <a class="button" href={`/auth/sign-in${returnTo}`}>
          Sign in
        </a>
      </p>
    </main>
  );
};

/** Signed in without a staff role: this, and nothing of the back office. */
const StaffOnlyPage = ({ session }: { session: BackOfficeSessionJson }) => {
  const [error, setError] = useState<string | null>(null);
  return (
    <main id="content">
      <Title>Back office</Title>
      <p class="notice notice-error">The back office is for the operator's staff.</p>
      <p>
        You are signed in as {session.email}, who has no staff role. If you build on the service, the
        developer portal is where you work.
      </p>
      <SignOutButton onError={setError} />
      {error && <p role="alert">{error}</p>}
    </main>
  );
};

const environmentOf = (route: Route): EnvironmentJson | null =>
  'environment' in route ? route.environment : null;

const Header = ({ session, route }: { session: BackOfficeSessionJson; route: Route }) => {
  const [error, setError] = useState<string | null>(null);
  const current = sectionOf(route);
  // Links keep the environment of the page shown (production from a page without one).
  const environment = environmentOf(route) ?? 'production';
  return (
    <header class="site-header">
      <a class="skip-link" href="#content">
        Skip to content
      </a>
      <p class="site-name">
        <Link href="/">Back office</Link>
      </p>
      <nav aria-label="Back office">
        <ul>
          {SECTIONS.filter((section) => session.actions.includes(section.action)).map((section) => (
            <li key={section.name}>
              <Link
                href={sectionPath(section, environment)}
                aria-current={current?.name === section.name ? 'page' : undefined}
              >
                {section.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <p class="signed-in">
        <span>Signed in as {session.email}</span> <SignOutButton onError={setError} />
      </p>
      {error && <p role="alert">{error}</p>}
    </header>
  );
};

const NotFoundPage = () => (
  <>
    <Title>Page not found</Title>
    <p>No page of the back office has this address.</p>
    <p>
      <Link href="/">Go to the back office's first page</Link>
    </p>
  </>
);

const Page = ({ session, route }: { session: BackOfficeSessionJson; route: Route }) => {
  switch (route.page) {
    case 'reviews':
      return <ReviewsPage environment={route.environment} />;
    case 'review':
      return <ReviewPage environment={route.environment} id={route.id} session={session} />;
    case 'sign-ups':
    case 'sign-up':
      return <SignUpsPage {...route} />;
    case 'contracts':
    case 'contract':
      return <ContractsPage {...route} />;
    case 'organisations':
      return <OrganisationsPage {...route} />;
    case 'audit-log':
      return <AuditLogPage {...route} />;
    case 'staff':
      return <StaffPage />;
    default:
      return <NotFoundPage />;
  }
};

const Workspace = ({ session }: { session: BackOfficeSessionJson }) => {
  const path = usePath();
  const route = routeOf(path);
  const home = route.page === 'home' ? homePath(session.actions) : null;
  useEffect(() => {
    if (home) navigate(home, true);
  }, [home]);
  const section = sectionOf(route);
  const environment = environmentOf(route);
  return (
    <>
      <Header session={session} route={route} />
      <main id="content">
        {section && environment && <EnvironmentBar environment={environment} section={section} />}
        {route.page === 'home' ? (
          home ? (
            <Loading what="your first page" />
          ) : (
            <>
              <Title>Back office</Title>
              <p>Your roles allow none of the back office's pages yet. Ask an admin for a role.</p>
            </>
          )
        ) : section && !session.actions.includes(section.action) ? (
          <ForbiddenPage section={section} />
        ) : (
          <Page session={session} route={route} />
        )}
      </main>
    </>
  );
};

const App = () => {
  const [session, setSession] = useState<BackOfficeSessionJson | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    get<BackOfficeSessionJson>('/api/session')
      .then((current) => {
        setCsrfToken(current.csrf_token);
        setSession(current);
      })
      .catch((failed: unknown) => setError(errorText(failed)));
  }, []);
  if (error)
    return (
      <main id="content">
        <h1>The back office could not load</h1>
        <p role="alert">{error}</p>
      </main>
    );
  if (session === null)
    return (
      <main id="content">
        <Loading what="the back office" />
      </main>
    );
  if (!session.signed_in) return <SignInPage />;
  if (session.roles.length === 0) return <StaffOnlyPage session={session} />;
  return <Workspace session={session} />;
};

nameApp('Back office', 'the back office');
const root = document.getElementById('back-office');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
