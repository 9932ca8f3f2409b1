// test support -> a customer's page for the onboarding form's browser tests: its own origin (a throwaway
// HTTP server on 127.0.0.1), a content security policy that allows exactly what the README tells a
// customer to allow (`script-src` the API address, `frame-src` the frame address), the loader from the
// API address, and a script that mounts the form with the token in the page's query and records what
// the form tells it (`onSubmitted`, `onError`) and every message the page receives.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HostPage {
  /** The page's origin, `http://{hostname}:{port}`. */
  origin: string;
  /** The page that mounts the form with `sessionToken`. */
  url(sessionToken: string): string;
  stop(): Promise<void>;
}

/** What the host page's script records, read with `page.evaluate(() => window.host)`. */
export interface HostRecord {
  submitted: number;
  errors: string[];
  messages: Array<{ origin: string; data: string }>;
}

const HOST_SCRIPT = `'use strict';
const record = { submitted: 0, errors: [], messages: [] };
window.host = record;
window.addEventListener('message', (event) => {
  record.messages.push({ origin: event.origin, data: JSON.stringify(event.data) });
});
const sessionToken = new URLSearchParams(location.search).get('token') || '';
window.handle = Service.onboarding.mount({
  container: document.getElementById('signup'),
  sessionToken,
  onSubmitted: () => {
    record.submitted += 1;
  },
  onError: (error) => {
    record.errors.push(error instanceof Error ? error.message : String(error));
  },
});
`;

const HOST_CSS = `body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1b1f24;background:#f3f4f6}
header{background:#14365d;color:#fff;padding:1rem}
header p{margin:0;font-weight:700}
main{max-width:48rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:0 0 1rem}
#signup{background:#fff;border-radius:.5rem;box-shadow:0 1px 3px rgba(0,0,0,.15);overflow:hidden}
`;

const page = (api: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Harbour Realty: buyer sign-up</title>
<link rel="stylesheet" href="/host.css">
</head>
<body>
<header><p>Harbour Realty</p></header>
<main>
<h1>Sign up to buy 12 Wharf Street</h1>
<div id="signup"></div>
</main>
<script src="${api}/onboarding.js"></script>
<script src="/host.js"></script>
</body>
</html>
`;

/**
 * Serves the customer's page for the API at `api` and the frame at `frame` (origins). At `127.0.0.1` it is
 * the frame's site (ports do not make sites); at `localhost` another site, so the frame is a third party.
 */
export const startHostPage = async (
  api: string,
  frame: string,
  hostname: '127.0.0.1' | 'localhost' = '127.0.0.1',
): Promise<HostPage> => {
  const csp = [
    "default-src 'none'",
    `script-src 'self' ${api}`,
    `frame-src ${frame}`,
    "style-src 'self'",
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const server: Server = createServer((request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://localhost');
    const send = (type: string, body: string) => {
      response.writeHead(200, {
        'Content-Type': type,
        'Content-Security-Policy': csp,
        'Cache-Control': 'no-store',
      });
      response.end(body);
    };
    if (pathname === '/') send('text/html; charset=utf-8', page(api));
    else if (pathname === '/host.js') send('text/javascript; charset=utf-8', HOST_SCRIPT);
    else if (pathname === '/host.css') send('text/css; charset=utf-8', HOST_CSS);
    else {
      response.writeHead(404, { 'Content-Type': 'text/plain' });
      response.end('Not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://${hostname}:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (sessionToken) => `${origin}/?token=${encodeURIComponent(sessionToken)}`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
