// frontend/app-kit -> the parts every application's pages use (the portal's, the back office's): a page's
// title, the Sign out button, the notices of errors and progress (announced to screen readers), a button that asks first in a
// dialog, pagers, a table region that scrolls sideways, a state pill, loading and empty states, times
// and how long ago they were, and loading a page's data.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { APP, ApiError, call } from './api';

export const errorText = (error: unknown): string =>
  error instanceof ApiError ? error.message : 'Something went wrong. Reload the page and try again.';

/** Ends the session at the backend, then goes where it says (the identity provider's sign-out). */
export const SignOutButton = ({ onError }: { onError: (message: string) => void }) => (
  <button
    type="button"
    class="secondary"
    onClick={async () => {
      try {
        const { next } = await call<{ next: string }>('POST', '/api/sign-out');
        location.assign(next);
      } catch (failed) {
        onError(errorText(failed));
      }
    }}
  >
    Sign out
  </button>
);

/** A page's title: the document's too, and where focus goes when the page changes. */
export const Title = ({ children }: { children: string }) => {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${children} · ${APP.title}`;
    heading.current?.focus();
  }, [children]);
  return (
    <h1 tabIndex={-1} ref={heading}>
      {children}
    </h1>
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
  tone = 'danger',
  children,
}: {
  label: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => Promise<void>;
  /** `danger` for what destroys; `primary` for what cannot be taken back but is the work's aim (publish). */
  tone?: 'danger' | 'primary';
  /** More of the question: what will happen, or a field the answer needs. */
  children?: ComponentChildren;
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
      <button
        type="button"
        class={tone === 'danger' ? 'danger' : undefined}
        ref={opener}
        onClick={() => setAsking(true)}
      >
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
          {children}
          <p class="actions">
            <button
              type="button"
              class={tone === 'danger' ? 'danger' : undefined}
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

/** A wide table in a region that scrolls sideways on a small screen (and can be scrolled by keyboard). */
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

/** A state at a glance: a pill, green (`ok`), amber (`warn`) or red (`bad`), saying it in words too. */
export const Pill = ({ tone, children }: { tone: 'ok' | 'warn' | 'bad'; children: ComponentChildren }) => (
  <span class={`state state-${tone}`}>{children}</span>
);

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

/** What a list says when it holds nothing: what that means, and what to do next if anything. */
export const EmptyState = ({ title, children }: { title: string; children?: ComponentChildren }) => (
  <div class="empty-state">
    <p class="empty-title">{title}</p>
    {children}
  </div>
);

/** How long ago `time` was, in words (`3 minutes`, `2 days`), from `now` (milliseconds). */
export const durationSince = (time: string, now: number): string => {
  const seconds = Math.max(0, Math.floor((now - Date.parse(time)) / 1000));
  const [amount, unit] =
    seconds < 60
      ? [seconds, 'second']
      : seconds < 3600
        ? [Math.floor(seconds / 60), 'minute']
        : seconds < 86_400
          ? [Math.floor(seconds / 3600), 'hour']
          : [Math.floor(seconds / 86_400), 'day'];
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`;
};

/** The current time, moving on every `everyMs` (so durations shown keep counting). */
export const useNow = (everyMs = 15_000): number => {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
};

/** A time as how long ago it was, with the exact time for a pointer and for assistive technology. */
export const TimeAgo = ({ time, now }: { time: string; now: number }) => (
  <time dateTime={time} title={when(time)}>
    {durationSince(time, now)} ago
  </time>
);

/**
 * Calls `refresh` every `everyMs` while the page is visible, and at once when it becomes visible again
 * (a list that keeps itself current without wasting calls in a hidden tab).
 */
export const useWhileVisible = (refresh: () => void, everyMs: number): void => {
  const latest = useRef(refresh);
  latest.current = refresh;
  useEffect(() => {
    const tick = () => {
      if (document.visibilityState === 'visible') latest.current();
    };
    const timer = setInterval(tick, everyMs);
    document.addEventListener('visibilitychange', tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', tick);
    };
  }, [everyMs]);
};
