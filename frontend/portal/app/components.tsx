// frontend/portal -> the parts every page uses: the frame of a page (skip link, header, navigation, the
// environment in words), a secret shown once with its copy button, a destructive button that asks first,
// a pager for short lists, and the notices of errors and progress (announced to screen readers).
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api';
import { integrationPath, Link } from './router';
import { ENVIRONMENT_NAMES, ENVIRONMENTS, type Environment } from './types';

export const errorText = (error: unknown): string =>
  error instanceof ApiError ? error.message : 'Something went wrong. Reload the page and try again.';

/** A page's title: the document's too, and where focus goes when the page changes. */
export const Title = ({ children }: { children: string }) => {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${children} · Developer portal`;
    heading.current?.focus();
  }, [children]);
  return (
    <h1 tabIndex={-1} ref={heading}>
      {children}
    </h1>
  );
};

/** Which environment this page concerns, in words, and the way to the same page in the other one. */
export const EnvironmentBar = ({
  environment,
  integrationId,
  section = '',
}: {
  environment: Environment;
  integrationId: string;
  section?: string;
}) => {
  const other = ENVIRONMENTS.find((candidate) => candidate !== environment) ?? 'sandbox';
  return (
    <p class={`environment environment-${environment}`}>
      <span>
        Environment: <strong>{ENVIRONMENT_NAMES[environment]}</strong>
        {environment === 'sandbox' ? ' (test data; nothing is sent to real buyers)' : ' (live data)'}
      </span>{' '}
      <Link href={integrationPath(other, integrationId, section)}>
        Switch to {ENVIRONMENT_NAMES[other].toLowerCase()}
      </Link>
    </p>
  );
};

export const Notice = ({ error, status }: { error?: string | null; status?: string | null }) => (
  <>
    <div role="alert" class={error ? 'notice notice-error' : 'visually-hidden'}>
      {error ?? ''}
    </div>
    <div role="status" class={status ? 'notice notice-ok' : 'visually-hidden'}>
      {status ?? ''}
    </div>
  </>
);

/** A secret, this once: the text to select, a copy button, and the warning that it will not be shown again. */
export const SecretOnce = ({
  label,
  secret,
  onDone,
  children,
}: {
  label: string;
  secret: string;
  onDone: () => void;
  /** How to use it, shown with it (and gone with it). */
  children?: ComponentChildren;
}) => {
  const [copied, setCopied] = useState(false);
  return (
    <section class="secret" aria-labelledby="secret-heading">
      <h2 id="secret-heading">{label}</h2>
      <p>Copy it now: it is shown this once, and the portal cannot show it again.</p>
      <p>
        <code class="secret-value" data-testid="secret">
          {secret}
        </code>
      </p>
      {children}
      <p class="actions">
        <button
          type="button"
          onClick={async () => {
            await navigator.clipboard.writeText(secret).catch(() => undefined);
            setCopied(true);
          }}
        >
          Copy
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          I have copied it
        </button>
        <span role="status">{copied ? 'Copied.' : ''}</span>
      </p>
    </section>
  );
};

/**
 * A button for an action that cannot be undone: it asks first, in a modal dialog (the page behind stays
 * where it was: an inline question pushed wide tables sideways). Escape or Cancel closes it; focus then
 * returns to the button.
 */
export const ConfirmButton = ({
  label,
  question,
  confirmLabel,
  onConfirm,
}: {
  label: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => Promise<void>;
}) => {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!asking || !element || element.open) return;
    element.showModal();
    // The safe choice has the focus: Enter pressed by habit cancels.
    cancel.current?.focus();
  }, [asking]);
  const close = () => {
    dialog.current?.close();
    setAsking(false);
    opener.current?.focus();
  };
  return (
    <>
      <button type="button" class="danger" ref={opener} onClick={() => setAsking(true)}>
        {label}
      </button>
      {asking && (
        <dialog
          class="confirm-dialog"
          ref={dialog}
          aria-label={question}
          onCancel={(event) => {
            event.preventDefault();
            if (!busy) close();
          }}
        >
          <p class="question">{question}</p>
          <p class="actions">
            <button
              type="button"
              class="danger"
              disabled={busy}
              onClick={async () => {
                setBusy(true);
                try {
                  await onConfirm();
                } finally {
                  setBusy(false);
                  close();
                }
              }}
            >
              {confirmLabel}
            </button>{' '}
            <button type="button" class="secondary" disabled={busy} onClick={close} ref={cancel}>
              Cancel
            </button>
          </p>
        </dialog>
      )}
    </>
  );
};

export const PAGE_SIZE = 10;

/** A short list shown a page at a time, with where the reader is in it. */
export const Paged = <T,>({
  items,
  label,
  children,
}: {
  items: readonly T[];
  label: string;
  children: (page: readonly T[]) => ComponentChildren;
}) => {
  const [start, setStart] = useState(0);
  // A page emptied by a removal shows the last page there is.
  const from =
    items.length === 0 ? 0 : Math.min(start, Math.floor((items.length - 1) / PAGE_SIZE) * PAGE_SIZE);
  const page = items.slice(from, from + PAGE_SIZE);
  return (
    <>
      {children(page)}
      {items.length > PAGE_SIZE && (
        <nav class="pager" aria-label={`${label} pages`}>
          <button type="button" disabled={from === 0} onClick={() => setStart(Math.max(0, from - PAGE_SIZE))}>
            Previous page
          </button>
          <span>
            {from + 1}–{from + page.length} of {items.length}
          </span>
          <button
            type="button"
            disabled={from + PAGE_SIZE >= items.length}
            onClick={() => setStart(from + PAGE_SIZE)}
          >
            Next page
          </button>
        </nav>
      )}
    </>
  );
};

/** A wide table in a region that scrolls sideways on a small screen (and can be scrolled by keyboard). */
/**
 * Newer and older pages of a list the service pages (`{data, has_more}`, newest first): `cursors` holds
 * the last id of each page before this one, so going back needs no second cursor.
 */
export const CursorPager = ({
  label,
  noun,
  cursors,
  setCursors,
  page,
}: {
  label: string;
  noun: string;
  cursors: string[];
  setCursors: (cursors: string[]) => void;
  page: { data: Array<{ id: string }>; has_more: boolean } | null | undefined;
}) =>
  cursors.length > 0 || page?.has_more ? (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
        Newer {noun}
      </button>
      <button
        type="button"
        disabled={!page?.has_more}
        onClick={() => {
          const last = page?.data.at(-1);
          if (last) setCursors([...cursors, last.id]);
        }}
      >
        Older {noun}
      </button>
    </nav>
  ) : null;

export const TableRegion = ({ label, children }: { label: string; children: ComponentChildren }) => {
  const region = useRef<HTMLElement>(null);
  // Whether the table is wider than its region (a phone): then a line says it scrolls sideways, and
  // shadows at its edges show there is more (portal.css).
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const element = region.current;
    if (!element) return;
    const check = () => setOverflows(element.scrollWidth > element.clientWidth + 1);
    check();
    const observer = new ResizeObserver(check);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <>
      {overflows && (
        <p class="scroll-cue" data-testid="scroll-cue">
          Scroll the table sideways for more columns →
        </p>
      )}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard */}
      <section class="table-region" aria-label={label} tabIndex={0} ref={region}>
        {children}
      </section>
    </>
  );
};

/** How an HTTP status reads at a glance: a pill, green for 2xx, amber for 4xx, red for 5xx. */
export const StatusPill = ({ status }: { status: number | null }) => {
  const tone =
    status === null || status >= 500
      ? 'bad'
      : status >= 400
        ? 'warn'
        : status >= 200 && status < 300
          ? 'ok'
          : 'warn';
  return <span class={`state state-${tone}`}>{status === null ? 'No answer' : status}</span>;
};

export const when = (time: string | null): string =>
  time === null ? '—' : new Date(time).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });

/** Loads `load()` when `key` changes; `reload` loads it again. */
export const useLoaded = <T,>(load: () => Promise<T>, key: string) => {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  const [shownKey, setShownKey] = useState(key);
  // Another address (another environment, page or filter): what was shown for the last one goes at once,
  // never shown under the new one's title. A reload of the same keeps it until the new answer comes.
  if (shownKey !== key) {
    setShownKey(key);
    setValue(null);
  }
  useEffect(() => {
    let current = true;
    setError(null);
    load()
      .then((loaded) => {
        if (current) setValue(loaded);
      })
      .catch((failed: unknown) => {
        if (!current) return;
        // The session ended (signed out elsewhere, or expired): the page again shows the sign-in.
        if (failed instanceof ApiError && failed.status === 401) location.reload();
        setError(errorText(failed));
      });
    return () => {
      current = false;
    };
  }, [key, round]);
  return { value, error, reload: () => setRound((r) => r + 1) };
};

export const Loading = ({ what }: { what: string }) => <p class="loading">Loading {what}…</p>;

export const Section = ({ title, children }: { title: string; children: ComponentChildren }) => (
  <section aria-label={title}>
    <h2>{title}</h2>
    {children}
  </section>
);
