// frontend/portal -> one webhook endpoint: its events, enable or disable, a new signing secret (shown
// once), delete (asked first), `Send test event`, and its deliveries newest first, a page at a time,
// each with every attempt and, once delivered or failed, `Redeliver`. While a delivery is under way the
// page looks again every two seconds.
import { useEffect, useState } from 'preact/hooks';
import { call, get, queryOf } from '../../../app-kit/api';
import {
  ConfirmButton,
  CursorPager,
  errorText,
  Loading,
  Notice,
  TableRegion,
  Title,
  useLoaded,
  when,
} from '../../../app-kit/components';
import { Link, navigate } from '../../../app-kit/navigation';
import { EnvironmentBar, SecretOnce } from '../components';
import { integrationPath } from '../router';
import {
  type DeliveryAttemptJson,
  ENVIRONMENT_NAMES,
  type EnvironmentJson,
  type PageOf,
  type WebhookEndpointJson,
  type WebhookMessageDetailJson,
  type WebhookMessageJson,
} from '../types';
import { EventChoice, useEventTypes } from './webhooks';

const STATE_NAMES: Readonly<Record<WebhookMessageJson['state'], string>> = {
  pending: 'Being delivered',
  delivered: 'Delivered',
  failed: 'Failed',
};

/** An answer in 2xx delivered the message; anything else (or none) was a failed attempt. */
const attemptTone = (attempt: DeliveryAttemptJson): 'ok' | 'bad' =>
  attempt.status !== null && attempt.status >= 200 && attempt.status < 300 ? 'ok' : 'bad';

const attemptOutcome = (attempt: DeliveryAttemptJson): string =>
  attempt.status !== null ? `HTTP ${attempt.status}` : `No answer: ${attempt.error ?? 'unknown error'}`;

const Deliveries = ({
  environment,
  endpointId,
  round,
  onProblem,
  onStatus,
}: {
  environment: EnvironmentJson;
  endpointId: string;
  round: number;
  onProblem: (text: string) => void;
  onStatus: (text: string) => void;
}) => {
  // The ids each page starts after: the first page starts after nothing.
  const [cursors, setCursors] = useState<string[]>([]);
  const after = cursors.at(-1);
  const base = `/api/${environment}/webhook-endpoints/${endpointId}/messages`;
  const { value, error, reload } = useLoaded(
    () => get<PageOf<WebhookMessageDetailJson>>(`${base}${queryOf({ limit: '10', starting_after: after })}`),
    `${base}#${after ?? ''}#${round}`,
  );
  const underWay = value?.data.some((message) => message.state === 'pending') ?? false;
  useEffect(() => {
    if (!underWay) return;
    const timer = setTimeout(reload, 2000);
    return () => clearTimeout(timer);
  });
  return (
    <section aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">Deliveries</h2>
      <Notice error={error} />
      <p>
        <button type="button" class="secondary" onClick={reload}>
          Refresh deliveries
        </button>
      </p>
      {value === null ? (
        !error && <Loading what="deliveries" />
      ) : value.data.length === 0 ? (
        <p class="empty">
          Nothing delivered to this endpoint yet. Use Send test event to try it, or wait for an event it is
          subscribed to.
        </p>
      ) : (
        <ol class="messages">
          {value.data.map((message) => (
            <li key={message.id} class={`message message-${message.state}`} data-testid="delivery">
              <h3>
                <code>{message.type}</code> · {STATE_NAMES[message.state]}
              </h3>
              <p>
                Message <code>{message.id}</code>, made {when(message.created_at)}
                {message.next_attempt_at && `; next attempt ${when(message.next_attempt_at)}`}
              </p>
              {message.envelope && (
                <details class="body">
                  <summary>Payload (what every attempt sends)</summary>
                  <pre>{JSON.stringify(message.envelope, null, 2)}</pre>
                </details>
              )}
              <TableRegion label={`Attempts of ${message.id}`}>
                <table>
                  <caption>Attempts</caption>
                  <thead>
                    <tr>
                      <th scope="col">Round</th>
                      <th scope="col">Attempt</th>
                      <th scope="col">When</th>
                      <th scope="col">Outcome</th>
                      <th scope="col">Took</th>
                      <th scope="col">Response</th>
                    </tr>
                  </thead>
                  <tbody>
                    {message.attempts.length === 0 ? (
                      <tr>
                        <td colSpan={6}>No attempt yet.</td>
                      </tr>
                    ) : (
                      message.attempts.map((attempt) => (
                        <tr key={`${attempt.round}-${attempt.number}`}>
                          <td>{attempt.round}</td>
                          <td>{attempt.number}</td>
                          <td>{when(attempt.at)}</td>
                          <td>
                            <span class={`state state-${attemptTone(attempt)}`}>
                              {attemptOutcome(attempt)}
                            </span>
                          </td>
                          <td>{attempt.duration_ms} ms</td>
                          <td>
                            {attempt.body === '' ? (
                              <span class="hint">No body</span>
                            ) : (
                              <details class="body">
                                <summary>Body</summary>
                                <pre>{attempt.body}</pre>
                              </details>
                            )}
                          </td>
                        </tr>
                      ))
                    )}
                  </tbody>
                </table>
              </TableRegion>
              {message.state !== 'pending' && (
                <button
                  type="button"
                  aria-label={`Redeliver ${message.id}`}
                  onClick={async () => {
                    try {
                      await call('POST', `/api/${environment}/webhook-messages/${message.id}/redeliver`);
                      onStatus(`Message ${message.id} is being delivered again.`);
                      reload();
                    } catch (failed) {
                      onProblem(errorText(failed));
                    }
                  }}
                >
                  Redeliver
                </button>
              )}
            </li>
          ))}
        </ol>
      )}
      <CursorPager
        label="Deliveries pages"
        noun="deliveries"
        cursors={cursors}
        setCursors={setCursors}
        page={value}
      />
    </section>
  );
};

export const EndpointPage = ({
  environment,
  integrationId,
  endpointId,
}: {
  environment: EnvironmentJson;
  integrationId: string;
  endpointId: string;
}) => {
  const address = `/api/${environment}/webhook-endpoints/${endpointId}`;
  const { value, error, reload } = useLoaded(() => get<WebhookEndpointJson>(address), address);
  const types = useEventTypes();
  const [events, setEvents] = useState<string[] | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  const list = integrationPath(environment, integrationId, 'webhook-endpoints');
  const act = async (what: () => Promise<void>) => {
    setProblem(null);
    try {
      await what();
    } catch (failed) {
      setProblem(errorText(failed));
    }
  };
  return (
    <>
      <Title>{`Webhook endpoint — ${ENVIRONMENT_NAMES[environment]}`}</Title>
      <EnvironmentBar environment={environment} integrationId={integrationId} section="webhook-endpoints" />
      <p>
        <Link href={list}>Back to the endpoints</Link>
      </p>
      <Notice error={error ?? problem} status={status} />
      {secret && <SecretOnce label="The new signing secret" secret={secret} onDone={() => setSecret(null)} />}
      {value === null ? (
        !error && <Loading what="the endpoint" />
      ) : (
        <>
          <dl class="addresses">
            <dt>Address</dt>
            <dd>
              <code>{value.url}</code>
            </dd>
            <dt>State</dt>
            <dd data-testid="endpoint-state">{value.enabled ? 'Enabled' : 'Disabled'}</dd>
            <dt>Signing secrets in use</dt>
            <dd>{value.signing_secrets}</dd>
          </dl>
          <p class="actions">
            <button
              type="button"
              disabled={!value.enabled}
              onClick={() =>
                act(async () => {
                  const message = await call<WebhookMessageJson>('POST', `${address}/test-event`);
                  setStatus(`Test event ${message.id} sent.`);
                  setRound((r) => r + 1);
                })
              }
            >
              Send test event
            </button>
            <button
              type="button"
              class="secondary"
              onClick={() =>
                act(async () => {
                  await call('PATCH', address, { enabled: !value.enabled });
                  setStatus(value.enabled ? 'Endpoint disabled.' : 'Endpoint enabled.');
                  reload();
                })
              }
            >
              {value.enabled ? 'Disable' : 'Enable'}
            </button>
            <button
              type="button"
              class="secondary"
              onClick={() =>
                act(async () => {
                  const rotated = await call<{ secret: string }>('POST', `${address}/rotate-secret`);
                  setSecret(rotated.secret);
                  setStatus('New signing secret made; the old one signs beside it for 24 hours.');
                  reload();
                })
              }
            >
              Rotate secret
            </button>
            <ConfirmButton
              label="Delete endpoint"
              question="Delete this endpoint? It will get no more events. This cannot be undone."
              confirmLabel="Delete"
              onConfirm={() =>
                act(async () => {
                  await call('DELETE', address);
                  navigate(list);
                })
              }
            />
          </p>
          {!value.enabled && (
            <p>The endpoint is disabled: it gets no events and no test event until you enable it.</p>
          )}
          {types.value && (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                void act(async () => {
                  await call('PATCH', address, { events: events ?? value.events });
                  setStatus('Events saved.');
                  setEvents(null);
                  reload();
                });
              }}
            >
              <EventChoice
                types={types.value.data}
                chosen={events ?? value.events}
                onChange={setEvents}
                legend="Events this endpoint receives"
              />
              <button type="submit">Save events</button>
            </form>
          )}
          <Deliveries
            environment={environment}
            endpointId={endpointId}
            round={round}
            onProblem={setProblem}
            onStatus={(text) => {
              setStatus(text);
              setRound((r) => r + 1);
            }}
          />
        </>
      )}
    </>
  );
};
