// core -> webhook messages as Standard Webhooks sends them (interface.md "Events": Envelope, Headers and
// verification; decisions.md §6): the `whsec_` signing secret, the `v1,` signatures (one per secret while
// a rotation lasts), the headers of one attempt, and the envelope's exact JSON text. Pure: no I/O.
import { createHmac } from 'node:crypto';
import type { ContractReview, Micros } from '../model';
import { presentContractReview } from '../present';
import { formatTime, MINUTE, SECOND } from '../time';

const SECRET_PREFIX = 'whsec_';
/** Bytes of key in a new secret. */
const KEY_BYTES = 32;
/** The key lengths Standard Webhooks accepts. */
const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The key of a secret, or null when it is not a `whsec_` secret with a canonical base64 key of 24–64 bytes. */
const keyOf = (secret: string): Buffer | null => {
  if (!secret.startsWith(SECRET_PREFIX)) return null;
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (encoded.length % 4 !== 0 || !BASE64.test(encoded)) return null;
  const key = Buffer.from(encoded, 'base64');
  if (key.toString('base64') !== encoded) return null;
  return key.length >= MIN_KEY_BYTES && key.length <= MAX_KEY_BYTES ? key : null;
};

const keyOrThrow = (secret: string): Buffer => {
  const key = keyOf(secret);
  if (key === null) throw new Error('not a whsec_ signing secret');
  return key;
};

/** A new signing secret: `whsec_` and the base64 of 32 random bytes. Shown once, at registration or rotation. */
export const newSigningSecret = (randomBytes: (n: number) => Uint8Array): string => {
  const bytes = randomBytes(KEY_BYTES);
  if (bytes.length !== KEY_BYTES) throw new Error(`expected ${KEY_BYTES} random bytes, got ${bytes.length}`);
  return `${SECRET_PREFIX}${Buffer.from(bytes).toString('base64')}`;
};

export const isSigningSecret = (value: string): boolean => keyOf(value) !== null;

/** `webhook-timestamp` of an attempt made at `now`: whole seconds since the Unix epoch. */
export const webhookTimestamp = (now: Micros): number => Math.floor(now / SECOND);

/**
 * `webhook-signature`: `v1,` and the base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` (body as its exact
 * UTF-8 bytes), one per secret, space-separated, in the order given: during a rotation, newest first.
 */
export const signatureHeader = (
  messageId: string,
  timestampSeconds: number,
  body: string,
  secrets: readonly string[],
): string => {
  if (messageId === '') throw new Error('a message id is required');
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new Error(`not a timestamp in whole seconds: ${timestampSeconds}`);
  }
  if (secrets.length === 0) throw new Error('at least one signing secret is required');
  const signed = Buffer.from(`${messageId}.${timestampSeconds}.${body}`, 'utf8');
  return secrets
    .map((secret) => `v1,${createHmac('sha256', keyOrThrow(secret)).update(signed).digest('base64')}`)
    .join(' ');
};

export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
  'content-type': 'application/json';
}

/** The headers of one attempt: the same `webhook-id` on every attempt, signed afresh at `timestampSeconds`. */
export const webhookHeaders = (
  messageId: string,
  timestampSeconds: number,
  body: string,
  secrets: readonly string[],
): WebhookHeaders => ({
  'webhook-id': messageId,
  'webhook-timestamp': String(timestampSeconds),
  'webhook-signature': signatureHeader(messageId, timestampSeconds, body, secrets),
  'content-type': 'application/json',
});

/** `type` of a test event. */
export const TEST_EVENT_TYPE = 'test';

export interface EnvelopeEvent {
  /** The event name, or `test`. */
  type: string;
  /** When it happened: the envelope's `timestamp`, the same on every attempt. */
  occurredAt: Micros;
  /** The `data` object as recorded JSON text, sent as it is. */
  data: string;
  test: boolean;
}

const isJsonObject = (text: string): boolean => {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
};

/**
 * The message body: `{"type","timestamp","test","data"}` in that order, the timestamp as the interface
 * shows times, and the recorded data text inserted verbatim (never re-serialised), so what was recorded
 * is exactly what is sent and signed.
 */
export const envelopeBody = (event: EnvelopeEvent): string => {
  if (!isJsonObject(event.data)) throw new Error('event data must be the JSON text of an object');
  const type = JSON.stringify(event.type);
  const timestamp = JSON.stringify(formatTime(event.occurredAt));
  return `{"type":${type},"timestamp":${timestamp},"test":${event.test},"data":${event.data}}`;
};

const TEST_CONTRACT_REVIEW_ID = 'crv_test000000000000000000';

/**
 * The data of a test event (as JSON text): the shape of `contract-reviews.publication.published`,
 * `{ channel, url, contract_review }`, about an example contract review that does not exist, shown as
 * `GET /v1/contract-reviews/{id}` would show it, live at `{pagesBaseUrl}/example/`.
 */
export const testEventData = (pagesBaseUrl: string, now: Micros): string => {
  const url = `${pagesBaseUrl.replace(/\/+$/, '')}/example/`;
  const at = (minutesAgo: number): Micros => now - minutesAgo * MINUTE;
  const completed = (minutesAgo: number) => ({
    state: 'completed' as const,
    completedAt: at(minutesAgo),
    failureReason: null,
    failedAt: null,
  });
  const review: ContractReview = {
    id: TEST_CONTRACT_REVIEW_ID,
    scope: { organisationId: 'org_test', integrationId: 'int_test', environment: 'sandbox' },
    externalReference: 'example-0001',
    product: 'legal_advice',
    version: 1,
    review: null,
    processing: completed(90),
    analysis: completed(80),
    lawyerReview: { state: 'completed', requestedAt: at(80), completedAt: at(0) },
    publications: [
      { channel: 'review_snapshot', state: 'published', slug: 'example', url, publishedAt: at(0) },
    ],
    clients: [],
    recipient: { firstName: 'Alex', lastName: 'Example', email: 'alex@example.com' },
    createdAt: at(95),
    updatedAt: at(0),
  };
  return JSON.stringify({
    channel: 'review_snapshot',
    url,
    contract_review: presentContractReview(review),
  });
};
