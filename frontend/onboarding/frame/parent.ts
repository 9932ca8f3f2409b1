// frontend/onboarding/frame -> the frame's side of the conversation with the page that mounted it
// (README: How page, loader and frame talk). It says `ready` (to the parent's origin where the browser
// names it, else to any: the message carries nothing but its type), then takes the first `session`
// message from its parent window, learns the parent's origin from it, and ignores every later one. From
// then on it posts only `resize` and `submitted`, and `error` for a bad token, to that origin only.

export type FrameMessage =
  | { type: 'resize'; height: number }
  | { type: 'submitted' }
  | { type: 'error'; code: 'session_invalid' };

export interface ParentLink {
  /** Posts `message` to the mounting origin; nothing before the session arrived. */
  post(message: FrameMessage): void;
}

/** Whether the form was opened inside another page, as it must be. */
export const isFramed = (): boolean => window.parent !== window;

/**
 * Says `ready` to the parent and calls `onSession` once, with the token of the first `session` message
 * the parent window sends from an origin the frame can answer.
 */
export const connectParent = (onSession: (sessionToken: string, link: ParentLink) => void): ParentLink => {
  let origin: string | null = null;
  const link: ParentLink = {
    post: (message) => {
      if (origin !== null) window.parent.postMessage(message, origin);
    },
  };
  const listener = (event: MessageEvent) => {
    if (event.source !== window.parent || event.origin === 'null') return;
    const data = event.data as { type?: unknown; sessionToken?: unknown } | null;
    if (typeof data !== 'object' || data === null || data.type !== 'session') return;
    if (typeof data.sessionToken !== 'string') return;
    origin = event.origin;
    window.removeEventListener('message', listener);
    onSession(data.sessionToken, link);
  };
  window.addEventListener('message', listener);
  window.parent.postMessage({ type: 'ready' }, readyTarget());
  return link;
};

/**
 * Where `ready` goes: the parent's origin where the browser names it (`location.ancestorOrigins`,
 * Chromium and Safari), else any origin; the message carries nothing but its type.
 */
const readyTarget = (): string => {
  const named = window.location.ancestorOrigins?.[0];
  try {
    if (named && new URL(named).origin === named) return named;
  } catch {
    // "null" (an opaque origin) or nothing usable: any origin.
  }
  return '*';
};

/** Tells the parent the content's height whenever it changes, so the frame never scrolls within itself. */
export const reportHeight = (link: ParentLink): void => {
  let last = -1;
  const report = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height !== last) {
      last = height;
      link.post({ type: 'resize', height });
    }
  };
  new ResizeObserver(report).observe(document.documentElement);
  report();
};
