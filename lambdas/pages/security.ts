// pages -> the security headers of every hosted page, deployed (CloudFront response headers
// policy) and locally (pages-host.ts). The CSP allows only this origin's images, stylesheets and fonts: no
// inline style (but the plain pages' one, by its hash) or script (positions live in the stylesheet as
// classes), no script but the pages' own file (local-time.ts), no frames.
import { escapeHtml } from './html';
import { PLAIN_STYLE_SOURCE } from './plain-style';

/** The content security policy of every hosted page. */
export const PAGE_CSP = [
  "default-src 'none'",
  "img-src 'self'",
  // One file of this origin's: the times in the reader's own time zone (local-time.ts); nothing inline.
  "script-src 'self'",
  // The plain pages' one inline style, by its hash (plain-style.ts).
  `style-src 'self' ${PLAIN_STYLE_SOURCE}`,
  // The text layer's font, shipped beside the page (text-layer-font.ts).
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The same policy for a `<meta http-equiv>` tag, so the page keeps it wherever it is served from;
 * `frame-ancestors` is ignored in a meta tag, so only the header carries it.
 */
export const PAGE_CSP_META = PAGE_CSP.split('; ')
  .filter((directive) => !directive.startsWith('frame-ancestors'))
  .join('; ');

/** Headers on every answer of the pages host, whatever its status. */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': PAGE_CSP,
  'X-Content-Type-Options': 'nosniff',
  // The link is the only key to a page: never send it to another site.
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  // Unguessable links are not for search engines.
  'X-Robots-Tag': 'noindex, nofollow',
};

/**
 * The opening of every hosted page up to `</head>`: the policy, referrer and robots rules in one place,
 * so no page can leave one out. `title` is text (escaped here); `extra` is markup the caller built.
 */
export const documentHead = (title: string, extra: string[] = []): string[] => [
  '<!doctype html>',
  '<html lang="en">',
  '<head>',
  '<meta charset="utf-8">',
  `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(PAGE_CSP_META)}">`,
  '<meta name="referrer" content="no-referrer">',
  '<meta name="robots" content="noindex, nofollow">',
  '<meta name="viewport" content="width=device-width, initial-scale=1">',
  `<title>${escapeHtml(title)}</title>`,
  ...extra,
  '</head>',
];
