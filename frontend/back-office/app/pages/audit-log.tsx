// frontend/back-office -> the Audit log page (decisions.md §11): every change made in the back office (and
// by the operator tool) in this environment, with the staff changes, newest first, a page at a time; each
// with its time, the staff member's email, what was done, the id it was done to and its details (a
// withdrawal's reason). Filtered by staff member and action. Nothing here can change an entry.
import { useState } from 'preact/hooks';
import { get, queryOf } from '../../../app-kit/api';
import {
  CursorPager,
  EmptyState,
  Loading,
  Notice,
  TableRegion,
  Title,
  useLoaded,
  when,
} from '../../../app-kit/components';
import { Link } from '../../../app-kit/navigation';
import { reviewPath } from '../router';
import type { AuditActionJson, AuditEntryJson, EnvironmentJson, PageOf } from '../types';

/** Each action in words; a record, so an action the core adds must be named here. */
const ACTION_NAMES: Readonly<Record<AuditActionJson, string>> = {
  'review.assigned': 'Review assigned',
  'review.draft_saved': 'Review draft saved',
  'review.published': 'Review published',
  'signup.accepted': 'Sign-up accepted',
  'publication.withdrawn': 'Publication withdrawn',
  'budget.set': 'Sandbox budget set',
  'staff.changed': 'Staff member added or changed',
  'staff.removed': 'Staff member removed',
};
const ACTIONS = Object.keys(ACTION_NAMES) as AuditActionJson[];

/** Where the id an entry names is shown, if the back office has a page for it. */
const TargetLink = ({ environment, entry }: { environment: EnvironmentJson; entry: AuditEntryJson }) => {
  const at = entry.environment ?? environment;
  const code = <code>{entry.target}</code>;
  if (entry.target.startsWith('crv_'))
    return (
      <Link
        href={
          entry.action.startsWith('review.')
            ? reviewPath(at, entry.target)
            : `/${at}/contracts/${entry.target}`
        }
      >
        {code}
      </Link>
    );
  if (entry.target.startsWith('onb_')) return <Link href={`/${at}/sign-ups/${entry.target}`}>{code}</Link>;
  return code;
};

const DETAIL_NAMES: Readonly<Record<string, string>> = {
  reason: 'Reason',
  channel: 'Channel',
  total: 'Total',
  total_before: 'Total before',
  roles: 'Roles',
  roles_before: 'Roles before',
  clients: 'Clients',
  version: 'Version',
  revision: 'Draft revision',
  bytes: 'Bytes',
  assignee_before: 'Assigned before to',
};

const Details = ({ details }: { details: AuditEntryJson['details'] }) => {
  const shown = Object.entries(details).filter(([, value]) => value !== null && value !== '');
  if (shown.length === 0) return <span class="hint">—</span>;
  return (
    <ul class="details">
      {shown.map(([name, value]) => (
        <li key={name}>
          {DETAIL_NAMES[name] ?? name}: {String(value)}
        </li>
      ))}
    </ul>
  );
};

interface Filters {
  staff: string;
  action: string;
}

const NO_FILTERS: Filters = { staff: '', action: '' };

export const AuditLogPage = ({ environment }: { environment: EnvironmentJson }) => {
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [applied, setApplied] = useState<Filters>(NO_FILTERS);
  const [cursors, setCursors] = useState<string[]>([]);
  const path = `/api/${environment}/audit-log${queryOf({
    staff: applied.staff.trim(),
    action: applied.action,
    limit: '20',
    starting_after: cursors.at(-1),
  })}`;
  const log = useLoaded(() => get<PageOf<AuditEntryJson>>(path), path);
  const apply = (filters: Filters) => {
    setDraft(filters);
    setApplied(filters);
    setCursors([]);
  };
  const filtered = applied.staff.trim() !== '' || applied.action !== '';
  return (
    <>
      <Title>Audit log</Title>
      <p class="hint">
        Every change made in the back office or with the operator tool here, and every change of staff, newest
        first. Entries are kept for good and cannot be changed.
      </p>
      <form
        aria-label="Filter the audit log"
        onSubmit={(event) => {
          event.preventDefault();
          apply(draft);
        }}
      >
        <div class="filters">
          <div>
            <label for="audit-staff">Staff member</label>
            <input
              id="audit-staff"
              type="email"
              placeholder="name@example.com"
              value={draft.staff}
              onInput={(event) => setDraft({ ...draft, staff: event.currentTarget.value })}
            />
          </div>
          <div>
            <label for="audit-action">Action</label>
            <select
              id="audit-action"
              value={draft.action}
              onChange={(event) => setDraft({ ...draft, action: event.currentTarget.value })}
            >
              <option value="">Any</option>
              {ACTIONS.map((action) => (
                <option key={action} value={action}>
                  {ACTION_NAMES[action]}
                </option>
              ))}
            </select>
          </div>
          <div class="actions">
            <button type="submit">Apply filters</button>
            <button type="button" class="secondary" onClick={() => apply(NO_FILTERS)}>
              Clear filters
            </button>
          </div>
        </div>
      </form>
      <Notice error={log.error} />
      {log.value === null ? (
        !log.error && <Loading what="the audit log" />
      ) : log.value.data.length === 0 ? (
        <EmptyState title={filtered ? 'No entry matches these filters.' : 'Nothing has been changed yet.'}>
          <p>
            {filtered
              ? 'Change or clear the filters.'
              : 'Each change made in the back office appears here the moment it is made.'}
          </p>
        </EmptyState>
      ) : (
        <>
          <TableRegion label="Audit log entries">
            <table>
              <caption>Changes, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Staff member</th>
                  <th scope="col">Action</th>
                  <th scope="col">Target</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {log.value.data.map((entry) => (
                  <tr key={entry.id} data-entry={entry.id}>
                    <td>
                      <time dateTime={entry.time}>{when(entry.time)}</time>
                    </td>
                    <td>{entry.staff}</td>
                    <td>{ACTION_NAMES[entry.action] ?? entry.action}</td>
                    <td>
                      <TargetLink environment={environment} entry={entry} />
                    </td>
                    <td>
                      <Details details={entry.details} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
          <CursorPager
            label="Audit log pages"
            noun="entries"
            cursors={cursors}
            setCursors={setCursors}
            page={log.value}
          />
        </>
      )}
    </>
  );
};
