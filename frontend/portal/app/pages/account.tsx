// frontend/portal -> the pages of a person and their organisation: sign-in, creating the organisation
// (once: a person owns one), the overview (the sandbox budget, the integrations), and an unknown address.
import { useState } from 'preact/hooks';
import { call } from '../../../app-kit/api';
import { errorText, Notice, Title } from '../../../app-kit/components';
import { Link } from '../../../app-kit/navigation';
import { integrationPath } from '../router';
import type { OrganisationJson, OrganisationOverviewJson } from '../types';

const SIGN_IN_PROBLEMS: Readonly<Record<string, string>> = {
  failed: 'Your sign-in did not finish (it was cancelled or refused). Sign in again.',
  expired: 'Your sign-in took too long or was already used. Sign in again.',
};

export const SignInPage = () => {
  const problem = SIGN_IN_PROBLEMS[new URLSearchParams(location.search).get('sign_in') ?? ''];
  const returnTo = location.pathname === '/' ? '' : `?return_to=${encodeURIComponent(location.pathname)}`;
  return (
    <main id="content" class="sign-in">
      <Title>Sign in to the developer portal</Title>
      {problem && (
        <p role="alert" class="notice notice-error">
          {problem}
        </p>
      )}
      <p>
        Manage your organisation's integrations, API keys, webhook endpoints and request history, in the
        sandbox and in production.
      </p>
      <p>
        <a class="button" href={`/auth/sign-in${returnTo}`}>
          Sign in
        </a>
      </p>
      <p>New here? Choose Sign in, then Create account on the sign-in page.</p>
    </main>
  );
};

export const CreateOrganisationPage = ({ onCreated }: { onCreated: () => void }) => {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <Title>Create your organisation</Title>
      <p>
        Your organisation holds your integrations, their API keys and webhook endpoints. You can own one
        organisation; name it after your company.
      </p>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          setBusy(true);
          setError(null);
          try {
            await call<OrganisationJson>('POST', '/api/organisation', { name });
            onCreated();
          } catch (failed) {
            setError(errorText(failed));
          } finally {
            setBusy(false);
          }
        }}
      >
        <label for="organisation-name">Organisation name</label>
        <input
          id="organisation-name"
          name="name"
          required
          maxLength={100}
          autoComplete="organization"
          value={name}
          onInput={(event) => setName(event.currentTarget.value)}
        />
        <button type="submit" disabled={busy}>
          Create organisation
        </button>
      </form>
      <Notice error={error} />
    </>
  );
};

export const OverviewPage = ({ overview }: { overview: OrganisationOverviewJson }) => {
  const budget = overview.sandbox_budget;
  return (
    <>
      <Title>Overview</Title>
      <p>
        Organisation: <strong>{overview.organisation?.name}</strong>
      </p>
      <section aria-labelledby="budget-heading">
        <h2 id="budget-heading">Sandbox budget</h2>
        {budget ? (
          <>
            <p data-testid="sandbox-budget">
              {budget.used} of {budget.total} sandbox contracts used ({budget.remaining} left).
            </p>
            {/* What is left, full when nothing is used (a bar of what was used is an empty line at first). */}
            {/* biome-ignore lint/a11y/useSemanticElements: Chromium draws a <meter>'s fill at half its height whatever its styles */}
            <div
              class="bar"
              role="meter"
              aria-label="Sandbox budget left"
              aria-valuemin={0}
              aria-valuemax={budget.total}
              aria-valuenow={budget.remaining}
              aria-valuetext={`${budget.remaining} of ${budget.total} left`}
            >
              <div
                class={`bar-fill${budget.remaining * 10 < budget.total ? ' empty' : budget.remaining * 2 < budget.total ? ' low' : ''}`}
                style={{ width: `${budget.total > 0 ? (100 * budget.remaining) / budget.total : 0}%` }}
              />
            </div>
          </>
        ) : (
          <p>No sandbox contracts used yet.</p>
        )}
      </section>
      <section aria-labelledby="integrations-heading">
        <h2 id="integrations-heading">Integrations</h2>
        {overview.integrations.length === 0 ? (
          <p>
            You have no integration yet. <Link href="/integrations">Create an integration</Link> to get API
            keys for the sandbox.
          </p>
        ) : (
          <ul>
            {overview.integrations.map((integration) => (
              <li key={integration.id}>
                {integration.name}: <Link href={integrationPath('sandbox', integration.id)}>sandbox</Link>,{' '}
                <Link href={integrationPath('production', integration.id)}>production</Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
};

export const NotFoundPage = () => (
  <>
    <Title>Page not found</Title>
    <p>
      There is no page at this address. Go to the <Link href="/">overview</Link>.
    </p>
  </>
);
