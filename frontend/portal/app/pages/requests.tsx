// frontend/portal -> an integration's request history in one environment (the last 30 days of calls made
// with its keys and tokens), newest first, a page at a time, filtered by status (2xx, 4xx, 5xx or a code),
// method, path prefix and time window.
import { useEffect, useRef, useState } from 'preact/hooks';
import { get, queryOf } from '../../../app-kit/api';
import {
  CursorPager,
  Loading,
  Notice,
  TableRegion,
  Title,
  useLoaded,
  when,
} from '../../../app-kit/components';
import { Link } from '../../../app-kit/navigation';
import { EnvironmentBar, StatusPill } from '../components';
import { integrationPath } from '../router';
import { type ApiRequestJson, ENVIRONMENT_NAMES, type EnvironmentJson, type PageOf } from '../types';

interface Filters {
  status: string;
  method: string;
  path_prefix: string;
  window: string;
  since: string;
  until: string;
}

const NO_FILTERS: Filters = { status: '', method: '', path_prefix: '', window: '', since: '', until: '' };

const WINDOWS: ReadonlyArray<[string, string, number]> = [
  ['', 'Any time (the last 30 days)', 0],
  ['hour', 'The last hour', 60 * 60_000],
  ['day', 'The last 24 hours', 24 * 60 * 60_000],
  ['week', 'The last 7 days', 7 * 24 * 60 * 60_000],
  ['between', 'Between two times…', 0],
];

/** A `datetime-local` value (the reader's own time) as the API's date-time, or nothing. */
const isoOf = (local: string): string | undefined => (local ? new Date(local).toISOString() : undefined);

const queryFor = (filters: Filters, startingAfter: string | undefined, now: number): string => {
  const window = WINDOWS.find(([value]) => value === filters.window);
  const since =
    filters.window === 'between'
      ? isoOf(filters.since)
      : window && window[2] > 0
        ? new Date(now - window[2]).toISOString()
        : undefined;
  return queryOf({
    status: filters.status.trim(),
    method: filters.method,
    path_prefix: filters.path_prefix.trim(),
    since,
    until: filters.window === 'between' ? isoOf(filters.until) : undefined,
    limit: '20',
    starting_after: startingAfter,
  });
};

export const RequestsPage = ({
  environment,
  integrationId,
}: {
  environment: EnvironmentJson;
  integrationId: string;
}) => {
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [applied, setApplied] = useState<{ filters: Filters; at: number }>({
    filters: NO_FILTERS,
    at: Date.now(),
  });
  const [cursors, setCursors] = useState<string[]>([]);
  const [shown, setShown] = useState<ApiRequestJson | null>(null);
  const base = `/api/${environment}/integrations/${integrationId}/requests`;
  const query = queryFor(applied.filters, cursors.at(-1), applied.at);
  const { value, error } = useLoaded(() => get<PageOf<ApiRequestJson>>(`${base}${query}`), `${base}${query}`);
  const set = (name: keyof Filters) => (event: { currentTarget: { value: string } }) =>
    setDraft({ ...draft, [name]: event.currentTarget.value });
  return (
    <>
      <Title>{`Request history — ${ENVIRONMENT_NAMES[environment]}`}</Title>
      <EnvironmentBar environment={environment} integrationId={integrationId} section="requests" />
      <p>
        <Link href={integrationPath(environment, integrationId)}>Back to the integration</Link>
      </p>
      <form
        aria-label="Filter requests"
        onSubmit={(event) => {
          event.preventDefault();
          setCursors([]);
          setApplied({ filters: draft, at: Date.now() });
        }}
      >
        {/* One row of fields, each a label over its control, aligned on their controls; the status's
            hint under the row (under its own field it pushed that field's control up). */}
        <div class="filters">
          <div>
            <label for="filter-status">Status</label>
            <input
              id="filter-status"
              aria-describedby="filter-status-hint"
              value={draft.status}
              onInput={set('status')}
              size={6}
            />
          </div>
          <div>
            <label for="filter-method">Method</label>
            <select id="filter-method" value={draft.method} onChange={set('method')}>
              <option value="">Any</option>
              {['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((method) => (
                <option key={method} value={method}>
                  {method}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label for="filter-path">Path starts with</label>
            <input
              id="filter-path"
              placeholder="/v1/"
              value={draft.path_prefix}
              onInput={set('path_prefix')}
            />
          </div>
          <div>
            <label for="filter-window">Time</label>
            <select id="filter-window" value={draft.window} onChange={set('window')}>
              {WINDOWS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          {draft.window === 'between' && (
            <>
              <div>
                <label for="filter-since">From</label>
                <input
                  id="filter-since"
                  type="datetime-local"
                  step={1}
                  value={draft.since}
                  onInput={set('since')}
                />
              </div>
              <div>
                <label for="filter-until">To</label>
                <input
                  id="filter-until"
                  type="datetime-local"
                  step={1}
                  value={draft.until}
                  onInput={set('until')}
                />
              </div>
            </>
          )}
          <div class="actions">
            <button type="submit">Apply filters</button>
            <button
              type="button"
              class="secondary"
              onClick={() => {
                setDraft(NO_FILTERS);
                setCursors([]);
                setApplied({ filters: NO_FILTERS, at: Date.now() });
              }}
            >
              Clear filters
            </button>
          </div>
        </div>
        <p id="filter-status-hint" class="hint">
          Status: 2xx, 4xx, 5xx or a code such as 404.
        </p>
      </form>
      <Notice error={error} />
      {value === null ? (
        !error && <Loading what="requests" />
      ) : value.data.length === 0 ? (
        <p class="empty">
          {cursors.length === 0 && applied.filters === NO_FILTERS
            ? 'No calls recorded yet. Create an API key and call POST /v1/token; each call appears here.'
            : 'No call matches these filters. Change or clear them.'}
        </p>
      ) : (
        <TableRegion label="Requests">
          <table>
            <caption>Calls, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Method</th>
                <th scope="col">Path</th>
                <th scope="col">Status</th>
                <th scope="col">Took</th>
                <th scope="col">Request id</th>
              </tr>
            </thead>
            <tbody>
              {value.data.map((request) => (
                <tr key={request.id} data-testid="request">
                  <td>{when(request.time)}</td>
                  <td>{request.method}</td>
                  <td>
                    <code>{request.path}</code>
                  </td>
                  <td>
                    <StatusPill status={request.status} />
                  </td>
                  <td>{request.duration_ms} ms</td>
                  <td>
                    <button
                      type="button"
                      class="link"
                      aria-label={`Details of ${request.id}`}
                      onClick={() => setShown(request)}
                    >
                      <code>{request.id}</code>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      {shown && <RequestDetail request={shown} onClose={() => setShown(null)} />}
      <CursorPager
        label="Request pages"
        noun="requests"
        cursors={cursors}
        setCursors={setCursors}
        page={value}
      />
    </>
  );
};

/** What a status means to the integrator reading their history (decisions.md §1's codes, in short). */
const STATUS_MEANINGS: Readonly<Record<number, string>> = {
  200: 'OK.',
  201: 'Created.',
  202: 'Accepted: the work goes on in the background.',
  204: 'Done; nothing to return.',
  400: 'The request was refused as invalid: its error names the field.',
  401: 'No valid access token: exchange an API key at POST /v1/token.',
  403: 'Refused for this caller (for example budget_used: the sandbox budget is used up).',
  404: 'Nothing of this integration at this address or with this id.',
  405: 'This address does not take this method.',
  409: 'It conflicts with what exists (an external_reference already used, or an Idempotency-Key still in use).',
  413: 'The body is too large.',
  422: 'Well formed but refused (for example file_rejected, client_unknown, idempotency_key_reused).',
  429: 'Too many requests: wait for the Retry-After header’s seconds, then try again.',
  500: 'A fault of the service: retrying with the same Idempotency-Key does nothing twice.',
  503: 'A dependency is down: retry after the Retry-After header’s seconds.',
};

/** One recorded call in full, in a dialog: every field kept, what its status means, and its id to quote. */
const RequestDetail = ({ request, onClose }: { request: ApiRequestJson; onClose: () => void }) => {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  const close = () => {
    dialog.current?.close();
    onClose();
  };
  return (
    <dialog
      class="detail-dialog"
      ref={dialog}
      aria-labelledby="request-detail-heading"
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
    >
      <h2 id="request-detail-heading">
        {request.method} <code>{request.path}</code>
      </h2>
      <dl class="addresses" data-testid="request-detail">
        <dt>Status</dt>
        <dd>
          <StatusPill status={request.status} /> {STATUS_MEANINGS[request.status] ?? ''}
        </dd>
        <dt>Time</dt>
        <dd>
          {when(request.time)} (<code>{request.time}</code>)
        </dd>
        <dt>Took</dt>
        <dd>{request.duration_ms} ms</dd>
        <dt>Environment</dt>
        <dd>{ENVIRONMENT_NAMES[request.environment]}</dd>
        <dt>Integration</dt>
        <dd>
          <code>{request.integration_id}</code>
        </dd>
        <dt>Request id</dt>
        <dd>
          <code>{request.id}</code>
          <p class="hint">
            The answer’s Service-Request-Id header: quote it when you ask about this call. Bodies are never
            recorded.
          </p>
        </dd>
      </dl>
      <button type="button" class="secondary" onClick={close}>
        Close
      </button>
    </dialog>
  );
};
