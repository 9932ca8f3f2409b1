// frontend/onboarding -> `/onboarding.js`, the loader a customer's page includes (README.md): it draws the
// sign-up form as a frame from the environment's frame address, hands the frame the session token once
// the frame says `ready`, sizes it to its content, and passes on `submitted` and errors. Every message
// is checked twice: from the frame address, and from this mount's own frame. No framework, no globals
// beyond `Service.onboarding`.

/** Replaced by the environment's frame address (its origin) when the server starts. */
const FRAME_ADDRESS = '__FRAME_ORIGIN__';
/** The frame's version (a hash of its page), set by the build: a new form is never served from a cache. */
declare const __FRAME_VERSION__: string;

const LOAD_TIMEOUT_MS = 15_000;
const MAX_HEIGHT = 100_000;

export interface MountOptions {
  container: Element;
  sessionToken: string;
  onSubmitted: () => void;
  onError?: (error: Error) => void;
}

export interface MountHandle {
  unmount(): void;
}

const mount = (options: MountOptions): MountHandle => {
  const { container, sessionToken, onSubmitted, onError } = (options ?? {}) as Partial<MountOptions>;
  let mounted = true;
  const report = (error: Error) => {
    if (!mounted) return;
    if (typeof onError === 'function') onError(error);
    else console.error(error);
  };
  const refuse = (message: string): MountHandle => {
    const error = new TypeError(`Service.onboarding.mount: ${message}`);
    if (typeof onError !== 'function') throw error;
    // Asynchronously, as every other error: the caller has its handle first.
    queueMicrotask(() => report(error));
    return {
      unmount: () => {
        mounted = false;
      },
    };
  };
  if (onError !== undefined && typeof onError !== 'function')
    throw new TypeError('Service.onboarding.mount: onError must be a function.');
  if (typeof Element === 'undefined' || !(container instanceof Element))
    return refuse('container must be an element of the page.');
  if (typeof sessionToken !== 'string' || !sessionToken.startsWith('onbs_'))
    return refuse('sessionToken must be the session_token of an onboarding session (onbs_…).');
  if (typeof onSubmitted !== 'function') return refuse('onSubmitted must be a function.');

  let origin: string;
  let src: string;
  try {
    origin = new URL(FRAME_ADDRESS).origin;
    src = new URL(`/?v=${encodeURIComponent(__FRAME_VERSION__)}`, origin).href;
  } catch {
    return refuse('the form frame address is not set on this server.');
  }

  const frame = document.createElement('iframe');
  frame.src = src;
  frame.title = 'Sign-up form';
  frame.referrerPolicy = 'no-referrer';
  frame.style.display = 'block';
  frame.style.width = '100%';
  frame.style.height = '30rem';
  frame.style.border = 'none';

  const timer = setTimeout(
    () => report(new Error('The sign-up form did not load within 15 seconds.')),
    LOAD_TIMEOUT_MS,
  );

  const listener = (event: MessageEvent) => {
    if (event.origin !== origin || event.source === null || event.source !== frame.contentWindow) return;
    const data = event.data as { type?: unknown; height?: unknown; code?: unknown } | null;
    if (typeof data !== 'object' || data === null) return;
    switch (data.type) {
      case 'ready':
        clearTimeout(timer);
        frame.contentWindow?.postMessage({ type: 'session', sessionToken }, origin);
        break;
      case 'resize':
        if (typeof data.height === 'number' && Number.isFinite(data.height) && data.height > 0)
          frame.style.height = `${Math.min(Math.ceil(data.height), MAX_HEIGHT)}px`;
        break;
      case 'submitted':
        onSubmitted();
        break;
      case 'error':
        report(
          new Error(
            data.code === 'session_invalid'
              ? 'The sign-up session token is unknown or malformed (session_invalid).'
              : `The sign-up form failed (${String(data.code)}).`,
          ),
        );
        break;
    }
  };
  window.addEventListener('message', listener);
  container.appendChild(frame);

  return {
    unmount: () => {
      if (!mounted) return;
      mounted = false;
      clearTimeout(timer);
      window.removeEventListener('message', listener);
      frame.remove();
    },
  };
};

type ServiceGlobal = { onboarding?: { mount: typeof mount } };
const target = window as unknown as { Service?: ServiceGlobal };
target.Service = target.Service ?? {};
target.Service.onboarding = { mount };
