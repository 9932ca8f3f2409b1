// pages -> one look for every page a person signs in to and works in: the identity provider's pages,
// the developer portal and the back office. Its colours, type and controls as CSS custom properties and
// base rules; each surface adds its own layout. The identity provider inlines it (allowed by its hash);
// the portal's build imports it as `look.css` (frontend/portal/build.ts).

/** Colours meet WCAG AA on white and on `--surface` (axe checks every page at two widths). */
export const LOOK_CSS = `:root{
--font:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"DejaVu Sans",sans-serif;
--mono:ui-monospace,"DejaVu Sans Mono",monospace;
--ink:#1d232a;--muted:#49525d;--line:#cfd4da;--field-line:#6b7480;--surface:#f4f5f7;
--accent:#1f5fbf;--accent-strong:#174a96;--accent-soft:#eef3fb;
--danger:#b3261e;--danger-soft:#fdf0ef;--focus:#f0a500;--radius:.25rem}
*,*::before,*::after{box-sizing:border-box}
html{font-family:var(--font);line-height:1.5;color:var(--ink)}
body{margin:0}
a{color:var(--accent)}
a:hover{color:var(--accent-strong)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
button{font:inherit;font-weight:600;padding:.5rem 1.25rem;color:#fff;background:var(--accent);border:2px solid var(--accent);border-radius:var(--radius);cursor:pointer}
button:hover{background:var(--accent-strong);border-color:var(--accent-strong)}
button.secondary{color:var(--accent);background:#fff}
button.secondary:hover{color:var(--accent-strong);background:var(--accent-soft)}
button.danger{color:#fff;background:var(--danger);border-color:var(--danger)}
button.danger:hover{background:#8c1d18;border-color:#8c1d18}
button:disabled,button:disabled:hover{color:#4a515a;background:#e3e6ea;border-color:#8a929c;cursor:not-allowed}
input,select,textarea{font:inherit;color:inherit;background:#fff;border:1px solid var(--field-line);border-radius:var(--radius)}
input[aria-invalid=true]{border-color:var(--danger);border-width:2px}
label{font-weight:600}
legend{font-weight:600}
code,pre{font-family:var(--mono)}
.hint{color:var(--muted);font-size:.9375rem}
`;
