// adapters/webhooks -> one attempt to deliver a webhook message over HTTP (decisions.md §6): a JSON POST,
// no redirects followed (a 3xx is only a status), 10 s for everything (resolving, connecting, answering),
// and at most 1 KiB of the answer kept. It never throws: every failure is an outcome with an `error`.
//
// The SSRF guard runs here at every attempt, not only at registration: the URL is checked again, its
// host resolved, and the attempt refused if any address is not public (the local stack alone lets its
// loopback forms through). The connection then goes to the checked addresses themselves (the socket's
// `lookup` answers with them, TLS still checks the certificate against the host name), so a name that
// resolves differently a moment later (DNS rebinding) cannot steer the request elsewhere.
import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import type { LookupFunction } from 'node:net';
import {
  addressRefusal,
  checkEndpointUrl,
  hostAddress,
  isAllowedLoopback,
  isLoopbackAddress,
} from '../../core/webhooks/target';

/** Bytes of the answer's body kept (decisions.md §6). */
export const BODY_LIMIT = 1024;
export const DEFAULT_TIMEOUT_MS = 10_000;

export interface WebhookRequest {
  url: string;
  /** The Standard Webhooks headers and any others; `content-type`, `content-length` and `host` are set here. */
  headers: Readonly<Record<string, string>>;
  /** The envelope's exact JSON text, as signed. */
  body: string;
}

/** Every address a host name resolves to. */
export type Resolve = (hostname: string) => Promise<string[]>;

export interface SendOptions {
  /** The local stack alone: http to 127.0.0.1, localhost and [::1]. */
  allowLoopbackHttp: boolean;
  /** For everything: resolving, connecting, sending and answering. */
  timeoutMs?: number;
  /** The system resolver unless given (tests give a fake one). */
  resolve?: Resolve;
}

/** What one attempt came to: a status (any, 3xx included) or an error, never both. */
export interface AttemptOutcome {
  /** The answer's status, or null when none came. */
  status: number | null;
  /** Why no status came: refused address, network error, time-out; null when a status came. */
  error: string | null;
  durationMs: number;
  /** At most 1 KiB of the answer's body, as UTF-8 text (a character cut at the limit is left out). */
  body: string;
}

/**
 * `sendWebhook` bound to the stack's options: the `send` of the core's `WebhookSender` port
 * (`{ send: webhookSender({ allowLoopbackHttp }) }`).
 */
export type SendAttempt = (request: WebhookRequest) => Promise<AttemptOutcome>;

export const webhookSender =
  (options: SendOptions): SendAttempt =>
  (request) =>
    sendWebhook(request, options);

const systemResolve: Resolve = async (hostname) =>
  (await lookup(hostname, { all: true })).map((entry) => entry.address);

type Answer = Omit<AttemptOutcome, 'durationMs'>;
type Target = { ok: true; addresses: string[] } | { ok: false; error: string };

const ABORTED = Symbol('aborted');

/** `work`'s result, or ABORTED as soon as `signal` aborts (the work itself is left to finish unheard). */
const unlessAborted = <T>(work: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> =>
  new Promise((settle, reject) => {
    if (signal.aborted) return settle(ABORTED);
    const onAbort = () => settle(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(settle, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection closed before an answer',
  EPIPE: 'connection closed while sending',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'name resolution failed for now',
};

const describeNetworkError = (error: unknown): string => {
  const { code, address, port } = error as NodeJS.ErrnoException & { address?: string; port?: number };
  const known = code === undefined ? undefined : NETWORK_ERRORS[code];
  if (known === undefined) return code === undefined ? messageOf(error) : `${code}: ${messageOf(error)}`;
  if (address === undefined) return known;
  return `${known} (${address.includes(':') ? `[${address}]` : address}${port === undefined ? '' : `:${port}`})`;
};

/**
 * The addresses to connect to, each checked: a literal host was judged with the URL; a name must resolve
 * only to public addresses, or, for `localhost` on the local stack, only to loopback addresses.
 */
const resolveTarget = async (url: URL, options: SendOptions): Promise<Target> => {
  const literal = hostAddress(url);
  if (literal !== null) return { ok: true, addresses: [literal] };
  const host = url.hostname;
  let addresses: string[];
  try {
    addresses = await (options.resolve ?? systemResolve)(host);
  } catch (error) {
    return { ok: false, error: `could not resolve ${host}: ${describeNetworkError(error)}` };
  }
  if (addresses.length === 0) return { ok: false, error: `could not resolve ${host}: no address` };
  const loopbackOnly = isAllowedLoopback(url, options);
  for (const address of addresses) {
    let refusal: string | null;
    if (loopbackOnly) refusal = isLoopbackAddress(address) ? null : 'not a loopback address';
    else refusal = addressRefusal(address);
    if (refusal !== null)
      return { ok: false, error: `address refused: ${host} resolves to ${address}, ${refusal}` };
  }
  return { ok: true, addresses };
};

/** A socket `lookup` that answers with the checked addresses only, never asking DNS again. */
const pinnedLookup = (addresses: string[]): LookupFunction => {
  const entries = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  return (_hostname, options, callback) => {
    const first = entries[0]!;
    process.nextTick(() =>
      options.all ? callback(null, entries) : callback(null, first.address, first.family),
    );
  };
};

/** The first BODY_LIMIT bytes as text; a character cut at the limit is left out rather than mangled. */
const bodyText = (chunks: Buffer[]): string =>
  new TextDecoder('utf-8').decode(Buffer.concat(chunks), { stream: true });

/**
 * POSTs once to the checked addresses. Before the status line, the time-out is an error; once a status
 * came, the receiver has answered, and the time-out or a broken connection only ends the body early.
 */
const exchange = (
  url: URL,
  addresses: string[],
  request: WebhookRequest,
  signal: AbortSignal,
  timedOut: string,
): Promise<Answer> =>
  new Promise((settle) => {
    const secure = url.protocol === 'https:';
    const literal = hostAddress(url);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(request.body));
    headers.host = url.host;
    const options: RequestOptions = {
      method: 'POST',
      hostname: literal ?? url.hostname,
      port: url.port === '' ? (secure ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers,
      // A fresh connection each time: no pooled socket from an earlier resolution is reused.
      agent: false,
      ...(literal === null
        ? { lookup: pinnedLookup(addresses), servername: url.hostname.replace(/\.$/, '') }
        : {}),
    };

    let status: number | null = null;
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      outgoing.destroy();
      settle({ status, error: status === null ? (error ?? 'no answer') : null, body: bodyText(chunks) });
    };
    const onAbort = () => finish(timedOut);

    const onResponse = (response: IncomingMessage) => {
      status = response.statusCode ?? null;
      response.on('data', (chunk: Buffer) => {
        if (size < BODY_LIMIT) {
          const part = chunk.subarray(0, BODY_LIMIT - size);
          chunks.push(part);
          size += part.length;
        }
        if (size >= BODY_LIMIT) finish(null);
      });
      response.on('end', () => finish(null));
      response.on('error', () => finish(null));
      response.on('close', () => finish(null));
    };
    const outgoing = secure ? httpsRequest(options, onResponse) : httpRequest(options, onResponse);
    outgoing.on('error', (error) => finish(describeNetworkError(error)));
    outgoing.on('close', () => finish('connection closed before an answer'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    outgoing.end(request.body);
  });

/** One delivery attempt; resolves with its outcome, never rejects. */
export const sendWebhook = async (request: WebhookRequest, options: SendOptions): Promise<AttemptOutcome> => {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timedOut = `timed out after ${timeoutMs / 1000} s`;
  const outcome = (answer: Answer): AttemptOutcome => ({
    ...answer,
    durationMs: Math.round(performance.now() - started),
  });
  const failure = (error: string) => outcome({ status: null, error, body: '' });
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const checked = checkEndpointUrl(request.url, { allowLoopbackHttp: options.allowLoopbackHttp });
    if (!checked.ok) return failure(`address refused: ${checked.reason}`);
    const target = await unlessAborted(resolveTarget(checked.url, options), abort.signal);
    if (target === ABORTED) return failure(timedOut);
    if (!target.ok) return failure(target.error);
    return outcome(await exchange(checked.url, target.addresses, request, abort.signal, timedOut));
  } catch (error) {
    return failure(`could not send: ${messageOf(error)}`);
  } finally {
    clearTimeout(timer);
  }
};
