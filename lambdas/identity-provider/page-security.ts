// identity provider -> the security headers of its pages and answers. A page loads nothing (its one
// stylesheet is inline, allowed by hash), may not be framed, and its forms may go only to this origin
// and on to where the sign-in returns: browsers hold a form's redirects to `form-action` too, so the
// client's redirect address has to be named there, or the last step would be blocked.
import { STYLE_SOURCE } from './pages/document';

/** Headers on every answer, JSON or page. */
export const BASE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // Same-origin posts keep their `Origin` (no-referrer would send `Origin: null`), and nothing of a
  // page's address (an interaction's id) goes to another site.
  'Referrer-Policy': 'same-origin',
};

/**
 * The CSP source that lets a form's redirects reach `uri`: its origin for http(s), its scheme for a
 * native app's own (`com.example.app:`). Null when it cannot be named safely as a source.
 */
export const formTargetSource = (uri: string): string | null => {
  const url = URL.parse(uri);
  if (!url) return null;
  if (url.protocol === 'http:' || url.protocol === 'https:')
    return /^https?:\/\/([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/.test(url.origin) ? url.origin : null;
  return /^[a-z][a-z0-9+.-]*:$/.test(url.protocol) ? url.protocol : null;
};

export interface PagePolicy {
  /** Where the page's forms may lead besides this origin (the client's redirect address). */
  formTargets?: readonly string[];
  /** Inline scripts the page runs, by their CSP hash source (oidc-provider's form_post answer). */
  scriptSources?: readonly string[];
}

export const contentSecurityPolicy = ({ formTargets = [], scriptSources = [] }: PagePolicy = {}): string => {
  const targets = formTargets.map(formTargetSource).filter((source) => source !== null);
  return [
    "default-src 'none'",
    `script-src ${scriptSources.length ? scriptSources.join(' ') : "'none'"}`,
    `style-src ${STYLE_SOURCE}`,
    `form-action ${["'self'", ...new Set(targets)].join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
};

/** The headers of one of its HTML pages. */
export const pageHeaders = (policy: PagePolicy = {}): Record<string, string> => ({
  ...BASE_SECURITY_HEADERS,
  'Content-Security-Policy': contentSecurityPolicy(policy),
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
  'Content-Type': 'text/html; charset=utf-8',
});

/** The `'sha256-…'` sources of a CSP's `script-src` (what oidc-provider added for its inline script). */
export const scriptHashSources = (policy: string | undefined): string[] =>
  (policy ?? '')
    .split(';')
    .map((directive) => directive.trim().split(/\s+/))
    .find(([name]) => name === 'script-src')
    ?.filter((source) => source.startsWith("'sha256-")) ?? [];
