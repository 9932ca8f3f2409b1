// test -> a small client of the API as an integrator writes one: token exchange, JSON calls, and
// multipart uploads hashed before they are sent (`Content-Digest`).
import { createHash, randomUUID } from 'node:crypto';

export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back and assert on it.
  body: any;
  text: string;
}

export const call = async (url: string, init: RequestInit = {}): Promise<Answer> => {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
};

export const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` });

export const exchange = async (base: string, apiKey: string): Promise<string> => {
  const answer = await call(`${base}/v1/token`, { method: 'POST', headers: bearer(apiKey) });
  if (answer.status !== 200) throw new Error(`token exchange failed: ${answer.status} ${answer.text}`);
  return answer.body.access_token as string;
};

export interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  content: Uint8Array | string;
}

/** A multipart/form-data body built in full first, as the interface requires for hashing. */
export const multipart = (parts: Part[], boundary = `----service-test-${randomUUID()}`) => {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n`));
    if (part.contentType) chunks.push(Buffer.from(`Content-Type: ${part.contentType}\r\n`));
    chunks.push(Buffer.from('\r\n'), Buffer.from(part.content), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
};

export const contentDigest = (body: Uint8Array) =>
  `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;

export const contractParts = (pdf: Uint8Array, request: unknown): Part[] => [
  {
    name: 'request',
    contentType: 'application/json',
    content: typeof request === 'string' ? request : JSON.stringify(request),
  },
  { name: 'file', filename: 'contract.pdf', contentType: 'application/pdf', content: pdf },
];

export interface UploadOptions {
  idempotencyKey?: string | null;
  digest?: string | null;
  headers?: Record<string, string>;
}

/**
 * A multipart upload's body and headers, with `Idempotency-Key` and a correct `Content-Digest` unless told
 * otherwise: built before the clock starts where a bench times only the sending.
 */
export const uploadRequest = (token: string, parts: Part[], options: UploadOptions = {}) => {
  const { body, contentType } = multipart(parts);
  const headers: Record<string, string> = {
    ...bearer(token),
    'content-type': contentType,
    ...options.headers,
  };
  if (options.idempotencyKey !== null) headers['idempotency-key'] = options.idempotencyKey ?? randomUUID();
  if (options.digest !== null) headers['content-digest'] = options.digest ?? contentDigest(body);
  return { body, headers };
};

/** POSTs a multipart upload (see `uploadRequest`). */
export const upload = (url: string, token: string, parts: Part[], options: UploadOptions = {}) =>
  call(url, { method: 'POST', ...uploadRequest(token, parts, options) });

/** A 429 `rate_limited` as §4 shapes it: `Retry-After` in whole seconds, and the request id. */
export const expectRateLimited = (answer: Answer) => {
  expect({ status: answer.status, code: answer.body?.error?.code }).toEqual({
    status: 429,
    code: 'rate_limited',
  });
  expect(answer.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
  expect(answer.headers.get('service-request-id')).toMatch(/^rqs_/);
};

/**
 * Sends one request after another until one is refused 429 (at most `max`): the answers, and how long
 * the sending took. A loaded machine may answer slower than a limit refills, so a test counts what was
 * admitted against that time rather than expecting a fixed number.
 */
export const sendUntilLimited = async (send: () => Promise<Answer>, max = 40) => {
  const started = performance.now();
  const answers: Answer[] = [];
  while (answers.length < max && answers.at(-1)?.status !== 429) answers.push(await send());
  return { answers, elapsedMs: performance.now() - started };
};

/** An error answer as the interface shapes it: the status and code, a message, and the request id. */
export const expectError = (answer: Answer, status: number, code: string) => {
  expect({ status: answer.status, code: answer.body?.error?.code }).toEqual({ status, code });
  expect(answer.body.error.message).toEqual(expect.any(String));
  expect(answer.body.error.message.length).toBeGreaterThan(0);
  expect(answer.headers.get('service-request-id')).toMatch(/^rqs_[A-Za-z0-9]+$/);
  expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
};
