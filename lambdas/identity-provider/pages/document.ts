// identity provider pages -> the shell of every page of the identity provider (sign-in, sign-up, consent,
// notices): the document's language, viewport and title, and its one stylesheet, inline and allowed by
// its hash (`STYLE_SOURCE`), so the pages load nothing at all: no file, font, image or script.
import { createHash } from 'node:crypto';
import { escapeHtml } from '../../pages/html';
import { LOOK_CSS } from '../../pages/look';

/** The service's name as people see it on these pages. */
export const SERVICE_NAME = 'Contract publishing service';

const STYLE = `${LOOK_CSS}html{background:var(--surface)}
main{max-width:28rem;margin:2rem auto;padding:1.5rem;background:#fff;border:1px solid var(--line);border-radius:.5rem}
@media (max-width:30rem){main{margin:0;border:0;border-radius:0;min-height:100vh}}
.service{margin:0 0 .5rem;color:var(--muted);font-size:.9375rem}
h1{margin:0 0 1rem;font-size:1.5rem;line-height:1.25}
p,ul{margin:0 0 1rem}
ul{padding-left:1.25rem}
.field{margin:0 0 1rem}
label{display:block;margin:0 0 .25rem}
input{display:block;width:100%;padding:.5rem .625rem}
.hint{margin:.25rem 0 0}
.error{margin:.25rem 0 0;color:var(--danger);font-weight:600}
.alert{margin:0 0 1rem;padding:.75rem;color:var(--danger);background:var(--danger-soft);border:1px solid var(--danger);border-radius:var(--radius);font-weight:600}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin:1.25rem 0 1rem}
.address{overflow-wrap:anywhere}
fieldset{margin:0 0 1rem;padding:0;border:0}
legend{margin:0 0 .5rem;padding:0}
.choice{display:flex;align-items:center;gap:.5rem}
.choice input{display:inline-block;width:1.125rem;height:1.125rem;margin:0}
.choice label{margin:0}
.choice+.hint{margin:0 0 .75rem 1.625rem}
.reach strong{display:none}
form:not(:has(#environment-sandbox:checked)):not(:has(#environment-production:checked)) .reach-none,
form:has(#environment-sandbox:checked):not(:has(#environment-production:checked)) .reach-sandbox,
form:not(:has(#environment-sandbox:checked)):has(#environment-production:checked) .reach-production,
form:has(#environment-sandbox:checked):has(#environment-production:checked) .reach-both{display:inline}
`;

/** The CSP source that allows the inline stylesheet, and only it. */
export const STYLE_SOURCE = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/** A whole page: `title` is text (escaped here); `body` is markup its caller built, values escaped. */
export const identityPage = (title: string, body: string[]): string =>
  [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="same-origin">',
    '<meta name="robots" content="noindex, nofollow">',
    `<title>${escapeHtml(`${title} · ${SERVICE_NAME}`)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    '<main>',
    `<p class="service">${escapeHtml(SERVICE_NAME)}</p>`,
    ...body,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
