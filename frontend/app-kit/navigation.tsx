// frontend/app-kit -> moving between an application's pages without a reload: the current path (links,
// the back button and `navigate` all change it) and a link that uses it.
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';

const NAVIGATED = 'app:navigated';

export const navigate = (path: string, replace = false): void => {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  window.dispatchEvent(new Event(NAVIGATED));
};

/** The current path, following links, the back button and `navigate`. */
export const usePath = (): string => {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    window.addEventListener('popstate', update);
    window.addEventListener(NAVIGATED, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(NAVIGATED, update);
    };
  }, []);
  return path;
};

/** A link that changes the page without a reload (a new tab, or any modifier key, is the browser's). */
export const Link = ({
  href,
  children,
  ...rest
}: { href: string; children: ComponentChildren } & JSX.HTMLAttributes<HTMLAnchorElement>) => (
  <a
    href={href}
    {...rest}
    onClick={(event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      navigate(href);
    }}
  >
    {children}
  </a>
);
