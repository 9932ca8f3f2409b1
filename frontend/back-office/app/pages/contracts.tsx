// frontend/back-office -> the Contracts page and a contract's page (decisions.md §11): a field `Search`
// finds contract reviews by `crv_…` id or `external_reference` (the address keeps it as `?q=`, so a
// search survives a reload and can be shared); a contract's page shows its parts, versions and
// publications with their links, and `Withdraw` for each published one, confirmed with a `Reason` by
// `Withdraw publication`, which runs what `ops withdraw` runs.
import { useEffect, useState } from 'preact/hooks';
import { call, get, queryOf } from '../../../app-kit/api';
import {
  ConfirmButton,
  EmptyState,
  errorText,
  Loading,
  Notice,
  Pill,
  TableRegion,
  Title,
  useLoaded,
  when,
} from '../../../app-kit/components';
import { Link, navigate } from '../../../app-kit/navigation';
import type { ContractSearchResultJson, EnvironmentJson, OperatorContractReviewJson } from '../types';
import { PRODUCT_NAMES } from './reviews';

const CHANNEL_NAMES: Readonly<Record<string, string>> = {
  contract_viewer: 'Contract viewer',
  review: 'Review',
  review_snapshot: 'Review snapshot',
};

const contractPath = (environment: EnvironmentJson, id: string): string => `/${environment}/contracts/${id}`;

const StatePill = ({ state }: { state: string }) => (
  <Pill
    tone={
      state === 'completed' || state === 'published'
        ? 'ok'
        : state === 'failed' || state === 'withdrawn'
          ? 'bad'
          : 'warn'
    }
  >
    {state.replaceAll('_', ' ')}
  </Pill>
);

const searchOf = (): string => new URLSearchParams(location.search).get('q') ?? '';

const SearchPage = ({ environment }: { environment: EnvironmentJson }) => {
  const [query, setQuery] = useState(searchOf);
  const [typed, setTyped] = useState(query);
  // Back and Forward return to an earlier search: the address's `?q=` is the search shown.
  useEffect(() => {
    const follow = () => {
      setQuery(searchOf());
      setTyped(searchOf());
    };
    window.addEventListener('popstate', follow);
    return () => window.removeEventListener('popstate', follow);
  }, []);
  const path = `/api/${environment}/contracts${queryOf({ q: query.trim() })}`;
  const results = useLoaded(
    async () => (query.trim() === '' ? null : get<{ data: ContractSearchResultJson[] }>(path)),
    path,
  );
  return (
    <>
      <Title>Contracts</Title>
      <form
        aria-label="Find a contract review"
        onSubmit={(event) => {
          event.preventDefault();
          setQuery(typed);
          // Each search is a step in the history, so Back shows the one before.
          navigate(`/${environment}/contracts${queryOf({ q: typed.trim() })}`);
        }}
      >
        <div class="filters">
          <div>
            <label for="contract-search">Search</label>
            <input
              id="contract-search"
              type="search"
              aria-describedby="contract-search-hint"
              value={typed}
              maxLength={200}
              onInput={(event) => setTyped(event.currentTarget.value)}
            />
          </div>
          <div class="actions">
            <button type="submit">Search</button>
          </div>
        </div>
        <p id="contract-search-hint" class="hint">
          A contract review's id (crv_…) or the external reference its integrator gave it.
        </p>
      </form>
      <Notice error={results.error} />
      {query.trim() === '' ? (
        <EmptyState title="Search for a contract review to see it.">
          <p>Every contract review of this environment can be found, whichever organisation sent it.</p>
        </EmptyState>
      ) : results.value === null ? (
        !results.error && <Loading what="the contract reviews found" />
      ) : results.value.data.length === 0 ? (
        <EmptyState title={`No contract review has the id or external reference “${query.trim()}” here.`}>
          <p>Check the id, or switch environment: each environment has its own contracts.</p>
        </EmptyState>
      ) : (
        <TableRegion label="Contract reviews found">
          <table>
            <caption>Contract reviews found, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Contract review</th>
                <th scope="col">External reference</th>
                <th scope="col">Product</th>
                <th scope="col">Organisation</th>
                <th scope="col">Version</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {results.value.data.map((review) => (
                <tr key={review.id}>
                  <th scope="row">
                    <Link href={contractPath(environment, review.id)}>
                      <code>{review.id}</code>
                    </Link>
                  </th>
                  <td>{review.external_reference}</td>
                  <td>{PRODUCT_NAMES[review.product] ?? review.product}</td>
                  <td>
                    <code>{review.organisation_id}</code>
                  </td>
                  <td>{review.version}</td>
                  <td>{when(review.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </>
  );
};

/** `Withdraw` for one published publication: the dialog asks for the reason, kept in the audit log. */
const WithdrawButton = ({
  channel,
  onWithdraw,
}: {
  channel: string;
  onWithdraw: (reason: string) => Promise<void>;
}) => {
  const [reason, setReason] = useState('');
  const field = `withdraw-reason-${channel}`;
  return (
    <ConfirmButton
      label="Withdraw"
      question={`Withdraw the ${CHANNEL_NAMES[channel] ?? channel} publication?`}
      confirmLabel="Withdraw publication"
      onConfirm={() => onWithdraw(reason.trim())}
    >
      <p>Its page stops being served at once and the integrator is told. This cannot be undone.</p>
      <label for={field}>Reason</label>
      <textarea
        id={field}
        rows={3}
        maxLength={1000}
        aria-describedby={`${field}-hint`}
        value={reason}
        onInput={(event) => setReason(event.currentTarget.value)}
      />
      <p id={`${field}-hint`} class="hint">
        Kept in the audit log with the withdrawal.
      </p>
    </ConfirmButton>
  );
};

const ContractPage = ({ environment, id }: { environment: EnvironmentJson; id: string }) => {
  const path = `/api/${environment}/contracts/${id}`;
  const loaded = useLoaded(() => get<OperatorContractReviewJson>(path), path);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const review = loaded.value;
  return (
    <>
      <Title>{`Contract review ${id}`}</Title>
      <p>
        <Link href={`/${environment}/contracts`}>Back to the search</Link>
      </p>
      <Notice error={error ?? loaded.error} status={status} />
      {review === null ? (
        !loaded.error && <Loading what="the contract review" />
      ) : (
        <>
          <dl class="facts">
            <dt>External reference</dt>
            <dd>{review.external_reference}</dd>
            <dt>Product</dt>
            <dd>{PRODUCT_NAMES[review.product] ?? review.product}</dd>
            <dt>Organisation</dt>
            <dd>
              <code>{review.organisation_id}</code>
            </dd>
            <dt>Integration</dt>
            <dd>
              <code>{review.integration_id}</code>
            </dd>
            <dt>Created</dt>
            <dd>{when(review.created_at)}</dd>
          </dl>

          <h2>Parts</h2>
          <TableRegion label="Parts">
            <table>
              <caption>The parts of version {review.version}</caption>
              <thead>
                <tr>
                  <th scope="col">Part</th>
                  <th scope="col">State</th>
                  <th scope="col">Done</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <th scope="row">Processing</th>
                  <td>
                    <StatePill state={review.processing.state} />
                    {review.processing.failure_reason && ` ${review.processing.failure_reason}`}
                  </td>
                  <td>{when(review.processing.completed_at ?? review.processing.failed_at)}</td>
                </tr>
                {review.analysis && (
                  <tr>
                    <th scope="row">Analysis</th>
                    <td>
                      <StatePill state={review.analysis.state} />
                      {review.analysis.failure_reason && ` ${review.analysis.failure_reason}`}
                    </td>
                    <td>{when(review.analysis.completed_at ?? review.analysis.failed_at)}</td>
                  </tr>
                )}
                {review.lawyer_review && (
                  <tr>
                    <th scope="row">Lawyer's review</th>
                    <td>
                      <StatePill state={review.lawyer_review.state} />
                    </td>
                    <td>{when(review.lawyer_review.completed_at)}</td>
                  </tr>
                )}
              </tbody>
            </table>
          </TableRegion>

          <h2>Publications</h2>
          {review.publications.length === 0 ? (
            <p>Nothing of this contract review is published.</p>
          ) : (
            <TableRegion label="Publications">
              <table>
                <caption>Where this contract review is published</caption>
                <thead>
                  <tr>
                    <th scope="col">Channel</th>
                    <th scope="col">State</th>
                    <th scope="col">Link</th>
                    <th scope="col">Published</th>
                    <th scope="col">Action</th>
                  </tr>
                </thead>
                <tbody>
                  {review.publications.map((publication) => (
                    <tr key={publication.channel} data-channel={publication.channel}>
                      <th scope="row">{CHANNEL_NAMES[publication.channel] ?? publication.channel}</th>
                      <td>
                        <StatePill state={publication.state} />
                      </td>
                      <td>
                        {publication.url ? (
                          <a href={publication.url} target="_blank" rel="noopener noreferrer">
                            {publication.url}
                          </a>
                        ) : (
                          '—'
                        )}
                      </td>
                      <td>{when(publication.published_at)}</td>
                      <td>
                        {publication.state === 'published' && (
                          <WithdrawButton
                            channel={publication.channel}
                            onWithdraw={async (reason) => {
                              setError(null);
                              setStatus(null);
                              try {
                                await call('POST', `${path}/withdraw`, {
                                  channel: publication.channel,
                                  reason: reason === '' ? null : reason,
                                });
                                setStatus(
                                  `${CHANNEL_NAMES[publication.channel] ?? publication.channel} withdrawn: its page is gone.`,
                                );
                                loaded.reload();
                              } catch (failed) {
                                setError(errorText(failed));
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

          <h2>Versions</h2>
          <TableRegion label="Versions">
            <table>
              <caption>Every version's PDF, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Version</th>
                  <th scope="col">Pages</th>
                  <th scope="col">Size</th>
                  <th scope="col">Received</th>
                </tr>
              </thead>
              <tbody>
                {review.versions.map((version) => (
                  <tr key={version.version}>
                    <th scope="row">{version.version}</th>
                    <td>{version.page_count}</td>
                    <td>{Math.max(1, Math.round(version.file_size / 1024))} KB</td>
                    <td>{when(version.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        </>
      )}
    </>
  );
};

export const ContractsPage = ({ environment, id }: { environment: EnvironmentJson; id?: string }) =>
  id === undefined ? (
    <SearchPage environment={environment} />
  ) : (
    <ContractPage environment={environment} id={id} />
  );
