// pages -> the look of the plain pages (withdrawn, not found, unavailable), the same as the
// pages that show a contract, and the pages' icon. The plain pages carry their style inline: they must
// work when nothing else of a publication does (CloudFront answers them from a function, with no file
// beside them), so the pages' CSP allows exactly this style by its hash and no other inline style.
import { createHash } from 'node:crypto';

export const PLAIN_CSS = `body{margin:0;font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1b1f24;background:#e9ecef}
main{max-width:36rem;margin:2rem auto;padding:1.5rem;background:#fff;border-top:4px solid #0b57d0;box-shadow:0 1px 3px rgba(0,0,0,.2)}
h1{margin:0 0 .75rem;font-size:1.375rem;line-height:1.3}
p{margin:0 0 .75rem}
p:last-child{margin-bottom:0}
.next{color:#49525d}
@media (max-width:40rem){main{margin:0;box-shadow:none;min-height:100vh}}`;

/** The CSP source that allows the plain pages' inline style, and nothing else inline. */
export const PLAIN_STYLE_SOURCE = `'sha256-${createHash('sha256').update(PLAIN_CSS).digest('base64')}'`;

/** The pages' icon: a page of text, in the pages' blue. */
export const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="5" y="2" width="22" height="28" rx="3" fill="#0b57d0"/>' +
  '<path d="M10 10h12M10 15h12M10 20h8" stroke="#fff" stroke-width="2.5" stroke-linecap="round"/></svg>';

/** Where the pages host answers the icon, for pages that cannot carry one of their own. */
export const ICON_PATH = '/favicon.svg';
