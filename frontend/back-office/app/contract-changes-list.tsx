// frontend/back-office -> what changed in the contract since the version a review's draft was started on
// (issue 28, "beyond the anchors"), page by page as the core computes it (core/back-office/
// contract-changes.ts): pages changed, added and removed, their lines marked inserted or deleted (in words
// and signs, not colour alone), unchanged pages and lines collapsed to counts. The answer is capped: the
// pages past the cap are counted, and the lawyer is sent to the two versions' PDFs for them.
import type { ContractChangesJson, EnvironmentJson } from './types';

type PageChange = ContractChangesJson['pages'][number];
type Line = Extract<PageChange, { lines: unknown }>['lines'][number];

const LineOf = ({ line }: { line: Line }) => {
  if (line.change === 'skipped')
    return (
      <li class="diff-skipped">
        {line.count} unchanged {line.count === 1 ? 'line' : 'lines'}
      </li>
    );
  if (line.change === 'inserted')
    return (
      <li>
        <ins>
          <span class="visually-hidden">Inserted: </span>
          {line.text}
        </ins>
      </li>
    );
  if (line.change === 'deleted')
    return (
      <li>
        <del>
          <span class="visually-hidden">Deleted: </span>
          {line.text}
        </del>
      </li>
    );
  return <li class="diff-same">{line.text}</li>;
};

const pages = (first: number, last: number) => (first === last ? `page ${first}` : `pages ${first}–${last}`);

const PageOf = ({ change }: { change: PageChange }) => {
  if (change.kind === 'unchanged')
    return (
      <li class="diff-page diff-unchanged">
        {change.count} {change.count === 1 ? 'page' : 'pages'} unchanged (
        {pages(change.after_first, change.after_last)})
      </li>
    );
  const title =
    change.kind === 'changed' ? (
      <>
        <a href={`#page-${change.after}`}>Page {change.after}</a>
        {change.before !== change.after ? ` (page ${change.before} before)` : ''}: changed
      </>
    ) : change.kind === 'added' ? (
      <>
        <a href={`#page-${change.after}`}>Page {change.after}</a>: added
      </>
    ) : (
      <>Page {change.before} of the earlier version: removed</>
    );
  return (
    <li class="diff-page" data-page-change={change.kind}>
      <h3>{title}</h3>
      <ol class="diff-lines">
        {change.lines.map((line, index) => (
          // The lines never reorder: their place is their identity.
          <LineOf key={index} line={line} />
        ))}
      </ol>
    </li>
  );
};

/** A change's place in the newer version (or, for a page removed, in the earlier one). */
const keyOf = (change: PageChange): string =>
  change.kind === 'unchanged'
    ? `same-${change.after_first}`
    : change.kind === 'removed'
      ? `removed-${change.before}`
      : `${change.kind}-${change.after}`;

const pdfOf = (environment: EnvironmentJson, changes: ContractChangesJson, version: number) =>
  `/api/${environment}/reviews/${changes.id}/versions/${version}/pdf`;

/** The pages past the answer's cap: how many, from where, and the two PDFs to compare them in. */
const NotShown = ({
  environment,
  changes,
}: {
  environment: EnvironmentJson;
  changes: ContractChangesJson;
}) => {
  const left = changes.not_shown;
  if (left === null) return null;
  return (
    <p class="diff-not-shown" data-testid="changes-not-shown">
      <strong>
        {left.pages} more {left.pages === 1 ? 'page' : 'pages'} changed
      </strong>{' '}
      (from page {left.from_page} on), too many to show here: open the PDFs,{' '}
      <a href={pdfOf(environment, changes, changes.since)}>version {changes.since}</a> and{' '}
      <a href={pdfOf(environment, changes, changes.version)}>version {changes.version}</a>.
    </p>
  );
};

export const ContractChangesList = ({
  environment,
  changes,
}: {
  environment: EnvironmentJson;
  changes: ContractChangesJson;
}) => (
  <>
    <p class="hint">
      The draft was started on version {changes.since}; the contract is now version {changes.version}. Its
      text compared page by page:
    </p>
    {changes.not_shown === null && changes.pages.every((change) => change.kind === 'unchanged') ? (
      <p>The text of the contract did not change.</p>
    ) : (
      <ol class="diff-pages">
        {changes.pages.map((change) => (
          <PageOf key={keyOf(change)} change={change} />
        ))}
      </ol>
    )}
    <NotShown environment={environment} changes={changes} />
  </>
);
