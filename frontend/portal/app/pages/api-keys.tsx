// frontend/portal -> an integration's API keys in one environment: create one (the key shown once, with a
// copy button), the list (never a key: its prefix, name, when made and last used), and revoke (asked first).
import { useState } from 'preact/hooks';
import { call, get } from '../../../app-kit/api';
import {
  ConfirmButton,
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
import { EnvironmentBar, SecretOnce } from '../components';
import { integrationPath } from '../router';
import {
  type ApiKeyJson,
  type CreatedApiKeyJson,
  ENVIRONMENT_NAMES,
  type EnvironmentJson,
  type IntegrationAddressesJson,
  type ListOf,
} from '../types';

/**
 * A first call to paste into a terminal, with the key just made and this environment's address: the
 * token exchange, then a list with the token (what the README's "Getting started" shows).
 */
export const firstCall = (baseUrl: string, key: string) =>
  [
    `TOKEN=$(curl -sS -X POST '${baseUrl}/v1/token' -H 'Authorization: Bearer ${key}' \\`,
    `  | node -pe 'JSON.parse(require("fs").readFileSync(0)).access_token')`,
    `curl -sS '${baseUrl}/v1/contract-reviews' -H "Authorization: Bearer $TOKEN"`,
  ].join('\n');

export const ApiKeysPage = ({
  environment,
  integrationId,
}: {
  environment: EnvironmentJson;
  integrationId: string;
}) => {
  const base = `/api/${environment}/integrations/${integrationId}/api-keys`;
  const { value, error, reload } = useLoaded(() => get<ListOf<ApiKeyJson>>(base), base);
  const addresses = useLoaded(
    () => get<IntegrationAddressesJson>(`/api/${environment}/integrations/${integrationId}`),
    `${environment}/${integrationId}`,
  );
  const [name, setName] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  return (
    <>
      <Title>{`API keys — ${ENVIRONMENT_NAMES[environment]}`}</Title>
      <EnvironmentBar environment={environment} integrationId={integrationId} section="api-keys" />
      <p>
        <Link href={integrationPath(environment, integrationId)}>Back to the integration</Link>
      </p>
      <Notice error={error ?? problem} status={status} />
      {created && (
        <SecretOnce label="Your new API key" secret={created} onDone={() => setCreated(null)}>
          {addresses.value && (
            <>
              <p>Try it: exchange it for a 15-minute token, then list your contract reviews.</p>
              <pre class="first-call">
                <code data-testid="first-call">{firstCall(addresses.value.base_url, created)}</code>
              </pre>
            </>
          )}
        </SecretOnce>
      )}
      <section aria-labelledby="new-key">
        <h2 id="new-key">New {environment} key</h2>
        <form
          onSubmit={async (event) => {
            event.preventDefault();
            setProblem(null);
            try {
              const key = await call<CreatedApiKeyJson>('POST', base, name.trim() ? { name } : {});
              setCreated(key.key);
              setName('');
              setStatus(`Key ${key.prefix}… created.`);
              reload();
            } catch (failed) {
              setProblem(errorText(failed));
            }
          }}
        >
          <label for="key-name">Key name (optional)</label>
          <input
            id="key-name"
            maxLength={100}
            value={name}
            onInput={(event) => setName(event.currentTarget.value)}
          />
          <button type="submit">Create key</button>
        </form>
      </section>
      <section aria-labelledby="keys-heading">
        <h2 id="keys-heading">Keys</h2>
        {value === null ? (
          !error && <Loading what="keys" />
        ) : value.data.length === 0 ? (
          <p class="empty">No {environment} key yet. Create one above, then exchange it at POST /v1/token.</p>
        ) : (
          <Paged items={value.data} label="Keys">
            {(page) => (
              <TableRegion label="API keys">
                <table>
                  <caption>API keys of this integration in the {environment}</caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Key starts</th>
                      <th scope="col">Created</th>
                      <th scope="col">Last used</th>
                      <th scope="col">State</th>
                      <th scope="col">Action</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.map((key) => (
                      <tr key={key.id}>
                        <td>{key.name ?? '(no name)'}</td>
                        <td>
                          <code>{key.prefix}…</code>
                        </td>
                        <td>{when(key.created_at)}</td>
                        <td>{key.last_used_at ? when(key.last_used_at) : 'Never'}</td>
                        <td>
                          {key.revoked_at ? (
                            <>
                              <span class="state state-revoked">Revoked</span> {when(key.revoked_at)}
                            </>
                          ) : (
                            <span class="state state-active">Active</span>
                          )}
                        </td>
                        <td>
                          {key.revoked_at ? (
                            '—'
                          ) : (
                            <ConfirmButton
                              label="Revoke"
                              question={`Revoke ${key.prefix}…? Calls with it stop within a minute.`}
                              confirmLabel="Revoke key"
                              onConfirm={async () => {
                                try {
                                  await call('POST', `/api/${environment}/api-keys/${key.id}/revoke`);
                                  setStatus(`Key ${key.prefix}… revoked.`);
                                  reload();
                                } catch (failed) {
                                  setProblem(errorText(failed));
                                }
                              }}
                            />
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableRegion>
            )}
          </Paged>
        )}
      </section>
    </>
  );
};
