// frontend/back-office -> a review's page (decisions.md §11): the contract's pages (images served by the
// back office itself, each with its text) beside the analysis, whose page references link to those
// pages; the `Review` field holding the draft (the analysis as drafted until someone saves one) with a
// preview rendered as the hosted review page renders it (raw HTML shown as text); `Assign to me`,
// `Save draft` and `Publish` (confirmed by `Publish review`). Nothing is lost: the field's unsaved text
// is kept in this browser until it is saved or published, and a stale save keeps it in the field and
// says another lawyer saved since.
import { useEffect, useState } from 'preact/hooks';
import { markdownToHtml } from '../../../../lambdas/pages/markdown';
import { ApiError, call, get } from '../../../app-kit/api';
import {
  ConfirmButton,
  errorText,
  Loading,
  Notice,
  Pill,
  Section,
  TimeAgo,
  Title,
  useLoaded,
  useNow,
  useWhileVisible,
  when,
} from '../../../app-kit/components';
import { ContractChangesList } from '../contract-changes-list';
import type {
  BackOfficeSessionJson,
  ContractChangesJson,
  ContractReviewJson,
  EnvironmentJson,
  ReviewDraftJson,
} from '../types';
import { PRODUCT_NAMES } from './reviews';

interface ReviewAnswer {
  contract_review: ContractReviewJson;
  draft: ReviewDraftJson;
}

interface ContractAnswer {
  id: string;
  version: number;
  current_version: number;
  pages: Array<{ number: number; width: number; height: number; text: string }>;
  analysis_markdown: string | null;
}

/** Unsaved text in this browser: the field's text and the draft revision it was written over. */
interface Unsaved {
  text: string;
  basedOn: number;
}

const unsavedKey = (environment: EnvironmentJson, id: string) => `back-office:review:${environment}:${id}`;

const readUnsaved = (key: string): Unsaved | null => {
  try {
    const value = JSON.parse(localStorage.getItem(key) ?? 'null') as Unsaved | null;
    return value && typeof value.text === 'string' && typeof value.basedOn === 'number' ? value : null;
  } catch {
    return null;
  }
};

/** Markdown as the hosted pages render it; "page N" and the analysis's "(p. N)" link to the page shown here. */
const rendered = (markdown: string): string =>
  markdownToHtml(markdown.replace(/\(p\. (\d{1,4})\)/g, '(page $1)'), {
    topLevel: 3,
    references: (kind, n) => (kind === 'page' ? `#page-${n}` : undefined),
  });

/** Safe: markdown-it with HTML off shows raw HTML as text, and links are limited (lambdas/pages/markdown.ts). */
const Markdown = ({ source }: { source: string }) => (
  <div class="markdown" dangerouslySetInnerHTML={{ __html: rendered(source) }} />
);

const pagePath = (environment: EnvironmentJson, id: string, version: number, page: number) =>
  `/api/${environment}/reviews/${id}/versions/${version}/pages/${page}`;

const ContractPages = ({
  environment,
  contract,
}: {
  environment: EnvironmentJson;
  contract: ContractAnswer;
}) => (
  <ol class="contract-pages">
    {contract.pages.map((page) => (
      <li key={page.number} id={`page-${page.number}`} class="contract-page" tabIndex={-1}>
        <h3>Page {page.number}</h3>
        <img
          src={pagePath(environment, contract.id, contract.version, page.number)}
          width={page.width}
          height={page.height}
          alt={`Page ${page.number} of the contract (its text follows)`}
          loading="lazy"
        />
        <details>
          <summary>Text of page {page.number}</summary>
          <p class="page-text">{page.text || 'This page has no text (a scan).'}</p>
        </details>
      </li>
    ))}
  </ol>
);

const stateOf = (review: ContractReviewJson) =>
  review.lawyer_review?.state === 'completed' ? (
    <Pill tone="ok">Published</Pill>
  ) : review.lawyer_review?.state === 'requested' ? (
    <Pill tone="warn">Due</Pill>
  ) : (
    <Pill tone="bad">Not requested</Pill>
  );

const PUBLICATION_NAMES: Readonly<Record<string, string>> = {
  contract_viewer: 'Contract viewer',
  review: 'Review page',
  review_snapshot: 'Review for the recipient',
};

const Publications = ({ review }: { review: ContractReviewJson }) => {
  const shown = review.publications.filter((publication) => publication.channel !== 'contract_viewer');
  if (shown.length === 0) return null;
  return (
    <ul class="publications">
      {shown.map((publication) => (
        <li key={publication.channel}>
          {PUBLICATION_NAMES[publication.channel] ?? publication.channel}: {publication.state}
          {publication.url && publication.state === 'published' && (
            <>
              {' '}
              <a href={publication.url}>{publication.url}</a>
            </>
          )}
        </li>
      ))}
    </ul>
  );
};

export const ReviewPage = ({
  environment,
  id,
  session,
}: {
  environment: EnvironmentJson;
  id: string;
  session: BackOfficeSessionJson;
}) => {
  const key = `${environment}:${id}`;
  const loaded = useLoaded(() => get<ReviewAnswer>(`/api/${environment}/reviews/${id}`), key);
  const contract = useLoaded(() => get<ContractAnswer>(`/api/${environment}/reviews/${id}/contract`), key);
  // A new version arrived after the draft was started: what changed since the draft's version.
  const since = loaded.value?.draft.draft_version ?? null;
  const current = loaded.value?.contract_review.version ?? null;
  const changed = since !== null && current !== null && since < current;
  const changes = useLoaded(
    () =>
      changed
        ? get<ContractChangesJson>(`/api/${environment}/reviews/${id}/changes?since=${since}`)
        : Promise.resolve(null),
    `${key}:${since}:${current}`,
  );
  const now = useNow();
  const storage = unsavedKey(environment, id);
  const [text, setText] = useState<string | null>(null);
  const [basedOn, setBasedOn] = useState(0);
  const [conflict, setConflict] = useState<ReviewDraftJson | null>(null);
  const [preview, setPreview] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const answer = loaded.value;
  const review = answer?.contract_review ?? null;
  const draft = answer?.draft ?? null;
  const due = review?.lawyer_review?.state === 'requested';
  // Published, but a publication is not live yet: look again until it is.
  const settling =
    review !== null && !due && review.publications.some((publication) => publication.state === 'pending');
  useWhileVisible(() => {
    if (settling) loaded.reload();
  }, 2_000);

  // The field starts from the draft read, or from this browser's unsaved text written over it.
  useEffect(() => {
    if (draft === null || text !== null) return;
    const unsaved = readUnsaved(storage);
    if (unsaved && unsaved.text !== draft.text) {
      setText(unsaved.text);
      setBasedOn(unsaved.basedOn);
      if (unsaved.basedOn !== draft.revision) setConflict(draft);
      else setStatus('Your unsaved text from before is back in the field.');
    } else {
      setText(draft.text);
      setBasedOn(draft.revision);
    }
  }, [draft, text, storage]);

  const edit = (value: string) => {
    setText(value);
    localStorage.setItem(storage, JSON.stringify({ text: value, basedOn } satisfies Unsaved));
  };

  const run = async (action: () => Promise<string>) => {
    setBusy(true);
    setError(null);
    setStatus(null);
    try {
      setStatus(await action());
    } catch (failed) {
      setError(errorText(failed));
    } finally {
      setBusy(false);
    }
  };

  const save = (over: number) =>
    run(async () => {
      try {
        const saved = await call<ReviewDraftJson>('PUT', `/api/${environment}/reviews/${id}/draft`, {
          text: text ?? '',
          based_on_revision: over,
        });
        setBasedOn(saved.revision);
        setConflict(null);
        localStorage.removeItem(storage);
        loaded.reload();
        return `Draft saved at ${when(saved.saved_at)}.`;
      } catch (failed) {
        if (failed instanceof ApiError && failed.code === 'draft_conflict') {
          const latest = await get<ReviewAnswer>(`/api/${environment}/reviews/${id}`);
          setConflict(latest.draft);
          return 'Not saved: another lawyer saved this draft since you opened it. Your text is still in the field.';
        }
        throw failed;
      }
    });

  if (loaded.error && !answer) return <Notice error={loaded.error} />;
  if (!answer || review === null || draft === null) return <Loading what="the review" />;
  const mine = draft.assignee === session.email;
  return (
    <>
      <Title>{`Review of ${review.id}`}</Title>
      <dl class="review-facts">
        <dt>State</dt>
        <dd>{stateOf(review)}</dd>
        <dt>External reference</dt>
        <dd>{review.external_reference}</dd>
        <dt>Product</dt>
        <dd>{PRODUCT_NAMES[review.product] ?? review.product}</dd>
        <dt>Contract version</dt>
        <dd>{review.version}</dd>
        {review.lawyer_review?.requested_at && (
          <>
            <dt>Requested</dt>
            <dd>
              <TimeAgo time={review.lawyer_review.requested_at} now={now} />
            </dd>
          </>
        )}
        <dt>Working on it</dt>
        <dd>
          {draft.assignee ?? 'Nobody yet'}{' '}
          {due && !mine && (
            <button
              type="button"
              class="secondary"
              disabled={busy}
              onClick={() =>
                run(async () => {
                  await call('POST', `/api/${environment}/reviews/${id}/assign`);
                  loaded.reload();
                  return 'The review is assigned to you.';
                })
              }
            >
              Assign to me
            </button>
          )}
        </dd>
      </dl>
      {!due && (
        <section class="notice notice-ok" aria-label="Published">
          <p>
            The review was published
            {review.lawyer_review?.completed_at ? ` on ${when(review.lawyer_review.completed_at)}` : ''}.
          </p>
          <Publications review={review} />
        </section>
      )}
      <Notice error={error} status={status} />
      {changed && (
        <Section title={`What changed since version ${since}`}>
          {changes.value ? (
            <ContractChangesList environment={environment} changes={changes.value} />
          ) : changes.error ? (
            <p>What changed cannot be shown: {changes.error}</p>
          ) : (
            <Loading what="what changed" />
          )}
        </Section>
      )}
      <div class="review-layout">
        <Section title="Contract">
          {contract.value ? (
            <>
              <p>
                <a href={`/api/${environment}/reviews/${id}/versions/${contract.value.version}/pdf`}>
                  Download the PDF (version {contract.value.version})
                </a>
              </p>
              <ContractPages environment={environment} contract={contract.value} />
            </>
          ) : contract.error ? (
            <p>The contract's pages cannot be shown: {contract.error}</p>
          ) : (
            <Loading what="the contract" />
          )}
        </Section>
        <div class="review-side">
          <Section title="Analysis">
            {contract.value?.analysis_markdown ? (
              <Markdown source={contract.value.analysis_markdown} />
            ) : (
              <p>{contract.value ? 'No analysis was made of this version.' : 'Loading…'}</p>
            )}
          </Section>
          {due && text !== null && (
            <Section title="Your review">
              {conflict && (
                <div class="notice notice-error" data-testid="conflict">
                  <p>
                    {conflict.saved_by ?? 'Another lawyer'} saved this draft
                    {conflict.saved_at ? ` ${when(conflict.saved_at)}` : ''}, after the text you are editing
                    was read. Your text is still in the field below.
                  </p>
                  <details>
                    <summary>Their saved draft</summary>
                    <pre class="their-draft">{conflict.text}</pre>
                  </details>
                  <p>
                    <button
                      type="button"
                      class="secondary"
                      onClick={() => {
                        setText(conflict.text);
                        setBasedOn(conflict.revision);
                        setConflict(null);
                        localStorage.removeItem(storage);
                      }}
                    >
                      Use their draft instead of mine
                    </button>
                    <button
                      type="button"
                      class="secondary"
                      disabled={busy}
                      onClick={() => save(conflict.revision)}
                    >
                      Save mine over theirs
                    </button>
                  </p>
                </div>
              )}
              <p class="hint">
                Markdown.{' '}
                {draft.saved_by
                  ? `Last saved by ${draft.saved_by} ${when(draft.saved_at)}.`
                  : 'The analysis as drafted, until someone saves a draft.'}
              </p>
              <label for="review-text">Review</label>
              <textarea
                id="review-text"
                rows={18}
                value={text}
                onInput={(event) => edit(event.currentTarget.value)}
              />
              <p class="actions">
                <button
                  type="button"
                  class="secondary"
                  onClick={() => setPreview(!preview)}
                  aria-expanded={preview}
                >
                  {preview ? 'Hide preview' : 'Preview'}
                </button>
                <button type="button" disabled={busy} onClick={() => save(basedOn)}>
                  Save draft
                </button>
                <ConfirmButton
                  label="Publish"
                  tone="primary"
                  question="Publish this review?"
                  confirmLabel="Publish review"
                  onConfirm={() =>
                    run(async () => {
                      await call<ContractReviewJson>('POST', `/api/${environment}/reviews/${id}/publish`, {
                        text: text ?? '',
                      });
                      localStorage.removeItem(storage);
                      loaded.reload();
                      return 'The review is published.';
                    })
                  }
                >
                  <p>The text in the field is published as the review; it cannot be taken back here.</p>
                </ConfirmButton>
              </p>
              {preview && (
                <section aria-label="Preview" class="preview">
                  <h3>Preview</h3>
                  <Markdown source={text} />
                </section>
              )}
            </Section>
          )}
        </div>
      </div>
    </>
  );
};
