// frontend/portal -> an integration's webhook endpoints in one environment: register one (its address and
// events; the signing secret shown once), and the list, each linking to its page.
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
} from '../../../app-kit/components';
import { Link } from '../../../app-kit/navigation';
import { EnvironmentBar, SecretOnce } from '../components';
import { integrationPath } from '../router';
import {
  ENVIRONMENT_NAMES,
  type EnvironmentJson,
  type EventTypeJson,
  type ListOf,
  type WebhookEndpointJson,
} from '../types';

/** The events to choose from, as checkboxes in a fieldset, with one that chooses all of them or none. */
export const EventChoice = ({
  types,
  chosen,
  onChange,
  legend,
}: {
  types: readonly EventTypeJson[];
  chosen: readonly string[];
  onChange: (events: string[]) => void;
  legend: string;
}) => {
  const all = types.length > 0 && types.every((type) => chosen.includes(type.type));
  const some = !all && types.some((type) => chosen.includes(type.type));
  return (
    <fieldset class="events">
      <legend>{legend}</legend>
      <label class="checkbox select-all">
        <input
          type="checkbox"
          checked={all}
          // Some but not all chosen: neither ticked nor empty (and read so by screen readers).
          indeterminate={some}
          onChange={(event) => onChange(event.currentTarget.checked ? types.map((type) => type.type) : [])}
        />{' '}
        Select all
      </label>
      {types.map((type) => (
        <label key={type.type} class="checkbox">
          <input
            type="checkbox"
            value={type.type}
            checked={chosen.includes(type.type)}
            onChange={(event) =>
              onChange(
                event.currentTarget.checked
                  ? [...chosen, type.type]
                  : chosen.filter((name) => name !== type.type),
              )
            }
          />{' '}
          <code>{type.type}</code> <span class="hint">{type.when}</span>
        </label>
      ))}
    </fieldset>
  );
};

export const useEventTypes = () =>
  useLoaded(() => get<ListOf<EventTypeJson>>('/api/event-types'), 'event-types');

export const WebhooksPage = ({
  environment,
  integrationId,
}: {
  environment: EnvironmentJson;
  integrationId: string;
}) => {
  const base = `/api/${environment}/integrations/${integrationId}/webhook-endpoints`;
  const { value, error, reload } = useLoaded(() => get<ListOf<WebhookEndpointJson>>(base), base);
  const types = useEventTypes();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [secret, setSecret] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  return (
    <>
      <Title>{`Webhook endpoints — ${ENVIRONMENT_NAMES[environment]}`}</Title>
      <EnvironmentBar environment={environment} integrationId={integrationId} section="webhook-endpoints" />
      <p>
        <Link href={integrationPath(environment, integrationId)}>Back to the integration</Link>
      </p>
      <Notice error={error ?? types.error ?? problem} status={status} />
      {secret && (
        <SecretOnce label="The endpoint's signing secret" secret={secret} onDone={() => setSecret(null)} />
      )}
      <section aria-labelledby="endpoints-heading">
        <h2 id="endpoints-heading">Endpoints</h2>
        {value === null ? (
          !error && <Loading what="endpoints" />
        ) : value.data.length === 0 ? (
          <p class="empty">No endpoint yet. Register one below to receive events as they happen.</p>
        ) : (
          <Paged items={value.data} label="Endpoints">
            {(page) => (
              <TableRegion label="Webhook endpoints">
                <table>
                  <caption>Webhook endpoints in the {environment}</caption>
                  <thead>
                    <tr>
                      <th scope="col">Address</th>
                      <th scope="col">Events</th>
                      <th scope="col">State</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.map((endpoint) => (
                      <tr key={endpoint.id}>
                        <td>
                          <Link
                            href={integrationPath(
                              environment,
                              integrationId,
                              `webhook-endpoints/${endpoint.id}`,
                            )}
                          >
                            {endpoint.url}
                          </Link>
                        </td>
                        <td>{endpoint.events.join(', ')}</td>
                        <td>{endpoint.enabled ? 'Enabled' : 'Disabled'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableRegion>
            )}
          </Paged>
        )}
      </section>
      <section aria-labelledby="new-endpoint">
        <h2 id="new-endpoint">Register an endpoint</h2>
        <form
          onSubmit={async (event) => {
            event.preventDefault();
            setProblem(null);
            try {
              const created = await call<{ endpoint: WebhookEndpointJson; secret: string }>('POST', base, {
                url,
                events,
              });
              setSecret(created.secret);
              setUrl('');
              setEvents([]);
              setStatus(`Endpoint ${created.endpoint.url} registered.`);
              reload();
            } catch (failed) {
              setProblem(errorText(failed));
            }
          }}
        >
          <label for="endpoint-url">Endpoint address</label>
          <input
            id="endpoint-url"
            type="url"
            required
            placeholder="https://example.com/webhooks"
            value={url}
            onInput={(event) => setUrl(event.currentTarget.value)}
          />
          {types.value && (
            <EventChoice
              types={types.value.data}
              chosen={events}
              onChange={setEvents}
              legend="Events to receive"
            />
          )}
          <button type="submit">Register endpoint</button>
        </form>
      </section>
    </>
  );
};
