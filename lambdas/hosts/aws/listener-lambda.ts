// host -> a Node HTTP listener (oidc-provider's Koa app and the identity provider's pages) as a Lambda behind
// API Gateway (HTTP API, payload 2.0) behind CloudFront. The listener runs on a loopback server of the
// instance's own, started on first use, and each event is sent to it as a request, as a Lambda web adapter
// would: the listener keeps the `IncomingMessage`/`ServerResponse` it was written for, unchanged.
import { createServer, type IncomingHttpHeaders, type RequestListener, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

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

const headersOf = (event: APIGatewayProxyEventV2, publicOrigin: URL): Record<string, string> => {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {}))
    if (value !== undefined) headers[name.toLowerCase()] = value;
  // API Gateway joins repeated headers with commas, except cookies, which it passes apart.
  if (event.cookies?.length) headers.cookie = event.cookies.join('; ');
  // The listener sees the public address (CloudFront does not pass Host on) and one proxy before it.
  headers.host = publicOrigin.host;
  headers['x-forwarded-proto'] = publicOrigin.protocol.replace(':', '');
  const viewer = viewerAddress(headers['x-forwarded-for']);
  if (viewer) headers['x-forwarded-for'] = viewer;
  else delete headers['x-forwarded-for'];
  return headers;
};

const resultOf = (
  status: number,
  headers: IncomingHttpHeaders,
  body: Buffer,
): APIGatewayProxyStructuredResultV2 => {
  const single: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (name !== 'set-cookie' && name !== 'connection' && name !== 'transfer-encoding' && value !== undefined)
      single[name] = Array.isArray(value) ? value.join(', ') : value;
  const cookies = headers['set-cookie'] ?? [];
  return {
    statusCode: status,
    headers: single,
    ...(cookies.length > 0 && { cookies }),
    body: body.toString('base64'),
    isBase64Encoded: true,
  };
};

/** A Lambda handler serving `listener` (built on first use by `build`) at `publicOrigin`. */
export const listenerLambda = (build: () => Promise<RequestListener>, publicOrigin: string) => {
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
  return async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    const target = await loopback();
    const method = event.requestContext.http.method.toUpperCase();
    const body =
      event.body === undefined || method === 'GET' || method === 'HEAD'
        ? undefined
        : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
    const headers = headersOf(event, origin);
    if (body) headers['content-length'] = String(body.length);
    const path = event.rawPath + (event.rawQueryString ? `?${event.rawQueryString}` : '');
    return new Promise((resolve, reject) => {
      // A connection per event: nothing is left open between events (the instance may be frozen).
      const sent = request(
        { host: '127.0.0.1', port: target, method, path, headers, agent: false },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () =>
            resolve(resultOf(answer.statusCode ?? 502, answer.headers, Buffer.concat(chunks))),
          );
          answer.on('error', reject);
        },
      );
      sent.on('error', reject);
      sent.end(body);
    });
  };
};
