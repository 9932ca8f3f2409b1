// frontend/onboarding/frame -> the draft saved against the session as the person types (PUT
// /api/draft): shortly after they stop, at once when they change step, and with `keepalive` when the
// page goes away, so a reload keeps what they typed. One save at a time; an unchanged draft is not sent.
// A browser whose drafts the service does not keep (it refuses the frame's cookie) stops saving.
import { DraftNotKeptError } from './api';

export type SaveStatus = 'saved' | 'saving' | 'failed' | 'not_kept';

export interface DraftSaver {
  /** Something changed: save once the person pauses. */
  changed(): void;
  /** Save now (a step change), resolving once the latest draft is stored or failed. */
  flush(): Promise<void>;
  /** Drop a pending save (the answers are being submitted). */
  cancel(): void;
}

const PAUSE_MS = 600;

export const draftSaver = (
  save: (body: string, keepalive: boolean) => Promise<void>,
  snapshot: () => unknown,
  onStatus: (status: SaveStatus) => void,
): DraftSaver => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let dirty = false;
  let running: Promise<void> | null = null;
  let notKept = false;
  const body = () => JSON.stringify({ answers: snapshot() });
  // What the service already has: the draft as loaded.
  let lastSaved = body();

  const run = async (): Promise<void> => {
    while (dirty) {
      dirty = false;
      const next = body();
      if (next === lastSaved) continue;
      onStatus('saving');
      try {
        await save(next, false);
        lastSaved = next;
      } catch (error) {
        notKept = error instanceof DraftNotKeptError;
        onStatus(notKept ? 'not_kept' : 'failed');
        return;
      }
    }
    onStatus('saved');
  };

  const flush = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    if (running) return running.then(() => (dirty ? flush() : undefined));
    if (!dirty) return Promise.resolve();
    running = run().finally(() => {
      running = null;
    });
    return running;
  };

  const leave = () => {
    if (notKept || (!dirty && !running)) return;
    clearTimeout(timer);
    const next = body();
    if (next === lastSaved) return;
    dirty = false;
    // The page is going away: one last save that the browser finishes on its own.
    save(next, true).then(
      () => {
        lastSaved = next;
      },
      () => {},
    );
  };
  window.addEventListener('pagehide', leave);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') leave();
  });

  return {
    changed: () => {
      if (notKept) return;
      dirty = true;
      clearTimeout(timer);
      timer = setTimeout(() => void flush(), PAUSE_MS);
    },
    flush,
    cancel: () => {
      clearTimeout(timer);
      timer = undefined;
      dirty = false;
    },
  };
};
