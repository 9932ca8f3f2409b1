// frontend/portal -> the organisation's integrations (type Contract reviews): the list, a page at a time,
// and a form to add one; each links to its page in each environment.
import { useState } from 'preact/hooks';
import { call, get } from '../../../app-kit/api';
import {
  errorText,
  Loading,
  Notice,
  Paged,
  TableRegion,
  Title,
  useLoaded,
  when,
} from '../../../app-kit/components';
import { Link } from '../../../app-kit/navigation';
import { integrationPath } from '../router';
import type { IntegrationJson, ListOf } from '../types';

export const IntegrationsPage = ({ onChange }: { onChange: () => void }) => {
  const { value, error, reload } = useLoaded(
    () => get<ListOf<IntegrationJson>>('/api/integrations'),
    'integrations',
  );
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  return (
    <>
      <Title>Integrations</Title>
      <p>
        An integration is one program of yours that calls the API. Each has its own keys in each environment.
      </p>
      <Notice error={error ?? problem} status={status} />
      {value === null ? (
        !error && <Loading what="integrations" />
      ) : value.data.length === 0 ? (
        <p class="empty">You have no integration yet. Create one below to get your first sandbox API key.</p>
      ) : (
        <Paged items={value.data} label="Integrations">
          {(page) => (
            <TableRegion label="Integrations">
              <table>
                <caption>Your integrations</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Type</th>
                    <th scope="col">Created</th>
                    <th scope="col">Open in</th>
                  </tr>
                </thead>
                <tbody>
                  {page.map((integration) => (
                    <tr key={integration.id}>
                      <td>{integration.name}</td>
                      <td>Contract reviews</td>
                      <td>{when(integration.created_at)}</td>
                      <td>
                        <Link
                          href={integrationPath('sandbox', integration.id)}
                          aria-label={`${integration.name} in the sandbox`}
                        >
                          Sandbox
                        </Link>{' '}
                        <Link
                          href={integrationPath('production', integration.id)}
                          aria-label={`${integration.name} in production`}
                        >
                          Production
                        </Link>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
          )}
        </Paged>
      )}
      <section aria-labelledby="new-integration">
        <h2 id="new-integration">New integration</h2>
        <form
          onSubmit={async (event) => {
            event.preventDefault();
            setProblem(null);
            try {
              const created = await call<IntegrationJson>('POST', '/api/integrations', { name });
              setName('');
              setStatus(`Integration ${created.name} created.`);
              reload();
              onChange();
            } catch (failed) {
              setProblem(errorText(failed));
            }
          }}
        >
          <label for="integration-name">Integration name</label>
          <input
            id="integration-name"
            required
            maxLength={100}
            value={name}
            onInput={(event) => setName(event.currentTarget.value)}
          />
          <button type="submit">Create integration</button>
        </form>
      </section>
    </>
  );
};
