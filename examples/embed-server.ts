// examples -> `npm run example:embed`: the smallest server that embeds the sign-up form, as the README's
// "Embedding the sign-up form" describes. It serves a host page and its script, and opens an onboarding
// session per sign-up on the server side with its API key, through the typed client (clients/typescript),
// so that no credential but the one session token ever reaches the page.
//
//   SERVICE_API_KEY=svc_test_…  (from `npm run --silent ops -- dev-bootstrap`)
//   PORT_BASE=3000              (the local stack's; the sandbox API is +1, its frame address +3)
//   EXAMPLE_PORT=3020           (where this page is served)
import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import { ContractServiceClient } from '../clients/typescript/src/index';

const portBase = Number(process.env.PORT_BASE ?? 3000);
const api = process.env.SERVICE_API_URL ?? `http://127.0.0.1:${portBase + 1}`;
const frame = process.env.SERVICE_FRAME_URL ?? `http://127.0.0.1:${portBase + 3}`;
const port = Number(process.env.EXAMPLE_PORT ?? portBase + 20);
const apiKey = process.env.SERVICE_API_KEY;
if (!apiKey?.startsWith('svc_')) {
  console.error(
    'Set SERVICE_API_KEY to a sandbox API key (svc_test_…): npm run --silent ops -- dev-bootstrap prints one.',
  );
  process.exit(1);
}

// The typed client exchanges the key for an access token when first needed and renews it before it
// expires (outside this repository: import from 'contract-publishing-client').
const client = new ContractServiceClient({ apiKey, baseUrl: api });

/** A session for one sign-up: your own reference for the buyer file, the token for the page. */
const openSession = async (): Promise<{ session_token: string }> => {
  const { session_token } = await client.onboardings.createSession(`buyer-file-${randomUUID()}`);
  return { session_token };
};

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Sign up to buy 14 Wattle Grove</title>
  <script src="${api}/onboarding.js"></script>
  <script src="/signup.js" type="module"></script>
</head>
<body>
  <main>
    <h1>Sign up</h1>
    <div id="signup"></div>
    <p id="next" hidden><a href="/">Continue to the next step of your purchase</a></p>
  </main>
</body>
</html>
`;

const script = `const answer = await fetch('/my-server/signup-session', { method: 'POST' });
const { session_token } = await answer.json();
Service.onboarding.mount({
  container: document.getElementById('signup'),
  sessionToken: session_token,
  onSubmitted: () => { document.getElementById('next').hidden = false; },
  onError: (error) => console.error('the sign-up form could not be shown', error),
});
`;

const send = (response: ServerResponse, status: number, type: string, body: string) => {
  response.writeHead(status, {
    'Content-Type': type,
    'Cache-Control': 'no-store',
    // The page's own policy lets the loader in and the frame be framed, and nothing else.
    'Content-Security-Policy': `default-src 'self'; script-src 'self' ${api}; frame-src ${frame}; connect-src 'self'`,
  });
  response.end(body);
};

createServer((request, response) => {
  const route = `${request.method} ${new URL(request.url ?? '/', 'http://x').pathname}`;
  if (route === 'GET /') return send(response, 200, 'text/html; charset=utf-8', page);
  // No icon: an empty answer rather than a 404 in the browser's console.
  if (route === 'GET /favicon.ico') return send(response, 204, 'image/x-icon', '');
  if (route === 'GET /signup.js') return send(response, 200, 'text/javascript; charset=utf-8', script);
  if (route === 'POST /my-server/signup-session')
    return void openSession().then(
      (session) => send(response, 200, 'application/json', JSON.stringify(session)),
      (error: unknown) => {
        console.error(error);
        send(
          response,
          502,
          'application/json',
          JSON.stringify({ error: 'the service could not open a session' }),
        );
      },
    );
  send(response, 404, 'text/plain; charset=utf-8', 'Not found');
}).listen(port, '127.0.0.1', () => {
  console.log(`Embedding example: http://127.0.0.1:${port}/ (sandbox API ${api})`);
});
