// host -> a Node HTTP listener (oidc-provider's Koa app and the identity provider's pages) behind the one
// Lambda adapter (lambda-adapter.ts), behind CloudFront. oidc-provider is written for Node's
// `IncomingMessage`/`ServerResponse`, not for a fetch handler, so the listener runs unchanged on a
// loopback server of the instance's own, started on first use, and each Request is replayed to it, as a
// Lambda web adapter would.
import { createServer, type IncomingHttpHeaders, type RequestListener, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type LambdaHandler, lambdaHandler } from './lambda-adapter';

/** The loopback port `listener` answers on, started once per instance. */
const startLoopback = (listener: RequestListener): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer(listener);
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    // The Lambda runtime keeps the process; the server alone must not (a test, a shutdown).
    server.unref();
  });

/**
 * The viewer's address as CloudFront saw it: CloudFront appends it to `X-Forwarded-For`, then API Gateway
 * appends CloudFront's own; anything before is what the client claimed, and is not trusted.
 */
export const viewerAddress = (forwardedFor: string | undefined): string | undefined => {
  const entries = (forwardedFor ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries.length >= 2 ? entries.at(-2) : entries.at(-1);
};

const headersOf = (sent: Request, publicOrigin: URL): Record<string, string> => {
  const headers: Record<string, string> = {};
  sent.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // The listener sees the public address (CloudFront does not pass Host on) and one proxy before it.
  headers.host = publicOrigin.host;
  headers['x-forwarded-proto'] = publicOrigin.protocol.replace(':', '');
  const viewer = viewerAddress(headers['x-forwarded-for']);
  if (viewer) headers['x-forwarded-for'] = viewer;
  else delete headers['x-forwarded-for'];
  return headers;
};

const responseOf = (status: number, headers: IncomingHttpHeaders, body: Buffer): Response => {
  const answer = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name === 'connection' || name === 'transfer-encoding') continue;
    for (const one of Array.isArray(value) ? value : [value]) answer.append(name, one);
  }
  return new Response(status === 204 || status === 304 ? null : new Uint8Array(body), {
    status,
    headers: answer,
  });
};

/** `sent` replayed to the listener on `port`, its answer read whole (a Lambda's answer is buffered). */
const replay = async (sent: Request, port: number, publicOrigin: URL): Promise<Response> => {
  const body = sent.body === null ? undefined : Buffer.from(await sent.arrayBuffer());
  const headers = headersOf(sent, publicOrigin);
  if (body) headers['content-length'] = String(body.length);
  const url = new URL(sent.url);
  return new Promise((resolve, reject) => {
    // A connection per event: nothing is left open between events (the instance may be frozen).
    const out = request(
      {
        host: '127.0.0.1',
        port,
        method: sent.method,
        path: url.pathname + url.search,
        headers,
        agent: false,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () =>
          resolve(responseOf(answer.statusCode ?? 502, answer.headers, Buffer.concat(chunks))),
        );
        answer.on('error', reject);
      },
    );
    out.on('error', reject);
    out.end(body);
  });
};

/** A Lambda handler serving `listener` (built on first use by `build`) at `publicOrigin`. */
export const listenerLambda = (
  build: () => Promise<RequestListener>,
  publicOrigin: string,
): LambdaHandler => {
  const origin = new URL(publicOrigin);
  let port: Promise<number> | undefined;
  const loopback = (): Promise<number> => {
    port ??= build()
      .then(startLoopback)
      .catch((error: unknown) => {
        port = undefined;
        throw error;
      });
    return port;
  };
  return lambdaHandler(async (sent) => replay(sent, await loopback(), origin));
};
