// frontend/back-office -> the Reviews page (decisions.md §11): the reviews due in one environment, oldest
// request first, each with its id, reference, product, organisation, how long it has waited and who is on
// it, linking to its page. It keeps itself current: every few seconds while the tab is visible it reads
// again every page shown (a review due appears, one published or superseded leaves), and `Load more`
// adds the next page. With each read comes the queue's summary (how many are due, and the newest): a new
// request is the list's last row, so a lawyer with only the first page open learns of it from the summary,
// announced politely to screen readers, with a link to it.
import { useState } from 'preact/hooks';
import { get, queryOf } from '../../../app-kit/api';
import {
  EmptyState,
  Loading,
  Notice,
  TableRegion,
  TimeAgo,
  Title,
  useLoaded,
  useNow,
  useWhileVisible,
} from '../../../app-kit/components';
import { Link } from '../../../app-kit/navigation';
import { reviewPath } from '../router';
import {
  ENVIRONMENT_NAMES,
  type EnvironmentJson,
  type PageOf,
  type ReviewQueueItemJson,
  type ReviewQueueSummaryJson,
} from '../types';

/** Rows a page of the list holds. */
export const QUEUE_PAGE_SIZE = 50;
/** How often the list reads itself again while visible. */
const REFRESH_MS = 3_000;

export const PRODUCT_NAMES: Readonly<Record<string, string>> = {
  contract_viewer: 'Contract viewer',
  legal_information: 'Legal information',
  legal_advice: 'Legal advice',
};

/** The first `pages` pages of the queue, read one after the other (each starts after the last row). */
const readRows = async (
  environment: EnvironmentJson,
  pages: number,
): Promise<{ rows: ReviewQueueItemJson[]; hasMore: boolean }> => {
  const rows: ReviewQueueItemJson[] = [];
  let hasMore = false;
  for (let page = 0; page < pages; page += 1) {
    const answer = await get<PageOf<ReviewQueueItemJson>>(
      `/api/${environment}/reviews${queryOf({ limit: String(QUEUE_PAGE_SIZE), starting_after: rows.at(-1)?.id })}`,
    );
    rows.push(...answer.data);
    hasMore = answer.has_more;
    if (!hasMore) break;
  }
  return { rows, hasMore };
};

/** The rows shown and the summary of the whole queue, read together. */
const readQueue = async (environment: EnvironmentJson, pages: number) => {
  const [shown, summary] = await Promise.all([
    readRows(environment, pages),
    get<ReviewQueueSummaryJson>(`/api/${environment}/reviews/summary`),
  ]);
  return { ...shown, summary };
};

const countOf = (summary: ReviewQueueSummaryJson): string =>
  `${summary.due_counted_all ? '' : 'More than '}${summary.due.toLocaleString('en-GB')} review${summary.due === 1 ? '' : 's'} due`;

/**
 * The whole queue in a line: how many are due and the newest, linked. The live region holds only what
 * changes when the queue does (not the time ago, which counts on), so a screen reader hears an arrival once.
 */
const QueueSummary = ({
  environment,
  summary,
  listed,
  now,
}: {
  environment: EnvironmentJson;
  summary: ReviewQueueSummaryJson;
  /** Whether the newest is among the rows shown. */
  listed: boolean;
  now: number;
}) => (
  <section class="queue-summary" aria-label="All reviews due" data-testid="queue-summary">
    <p role="status" aria-atomic="true">
      <strong>{countOf(summary)}</strong>
      {summary.newest && (
        <>
          ; the newest is{' '}
          <Link href={reviewPath(environment, summary.newest.id)}>
            <code>{summary.newest.id}</code>
          </Link>{' '}
          ({summary.newest.external_reference}){listed ? '' : ', the last of the list'}.
        </>
      )}
    </p>
    {summary.newest?.requested_at && (
      <p class="hint">
        Newest requested <TimeAgo time={summary.newest.requested_at} now={now} />
        {summary.newest.assignee ? `; ${summary.newest.assignee} is working on it.` : '.'}
      </p>
    )}
  </section>
);

export const ReviewsPage = ({ environment }: { environment: EnvironmentJson }) => {
  const [pages, setPages] = useState(1);
  // Keyed by the environment only: `Load more` keeps the rows shown while it reads the next page.
  const queue = useLoaded(() => readQueue(environment, pages), environment);
  useWhileVisible(queue.reload, REFRESH_MS);
  const now = useNow();
  const name = ENVIRONMENT_NAMES[environment].toLowerCase();
  return (
    <>
      <Title>Reviews</Title>
      <p class="hint">
        Every contract whose lawyer's review is due in {name}, oldest request first. The list keeps itself up
        to date.
      </p>
      <Notice error={queue.error} />
      {queue.value === null ? (
        <Loading what="the reviews due" />
      ) : queue.value.rows.length === 0 ? (
        <EmptyState title={`No reviews are due in ${name}.`}>
          <p>A review appears here within seconds of being requested.</p>
        </EmptyState>
      ) : (
        <>
          <QueueSummary
            environment={environment}
            summary={queue.value.summary}
            listed={queue.value.rows.some((row) => row.id === queue.value?.summary.newest?.id)}
            now={now}
          />
          <TableRegion label="Reviews due">
            <table>
              <caption>
                {queue.value.rows.length} review{queue.value.rows.length === 1 ? '' : 's'} due
                {queue.value.hasMore ? ' shown (more below)' : ''}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Review</th>
                  <th scope="col">External reference</th>
                  <th scope="col">Product</th>
                  <th scope="col">Organisation</th>
                  <th scope="col">Waited</th>
                  <th scope="col">Working on it</th>
                </tr>
              </thead>
              <tbody>
                {queue.value.rows.map((row) => (
                  <tr key={row.id} data-review={row.id}>
                    <th scope="row">
                      <Link href={reviewPath(environment, row.id)}>
                        <code>{row.id}</code>
                      </Link>
                    </th>
                    <td>{row.external_reference}</td>
                    <td>{PRODUCT_NAMES[row.product] ?? row.product}</td>
                    <td>
                      <code>{row.organisation_id}</code>
                    </td>
                    <td>{row.requested_at ? <TimeAgo time={row.requested_at} now={now} /> : '—'}</td>
                    <td>{row.assignee ?? <span class="hint">Nobody yet</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
          {queue.value.hasMore && (
            <p>
              <button
                type="button"
                class="secondary"
                onClick={() => {
                  setPages((count) => count + 1);
                  queue.reload();
                }}
              >
                Load more
              </button>
            </p>
          )}
        </>
      )}
    </>
  );
};
