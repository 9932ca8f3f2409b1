// unit -> Standard Webhooks signing and the message envelope (lambdas/core/webhooks/signing.ts). Every
// message is checked with the independent `standardwebhooks` verifier, whose clock (`Date.now`) is
// pinned for each test, so the 5-minute tolerance is tested without waiting.
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, jest, test } from '@jest/globals';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { newContractReview } from '../../lambdas/core/contracts/shape';
import { contractReviewEvent } from '../../lambdas/core/events';
import { isContractReviewId } from '../../lambdas/core/ids';
import { CHANNELS, type Micros } from '../../lambdas/core/model';
import type { Ids } from '../../lambdas/core/ports';
import {
  envelopeBody,
  isSigningSecret,
  newSigningSecret,
  signatureHeader,
  TEST_EVENT_TYPE,
  testEventData,
  webhookHeaders,
  webhookTimestamp,
} from '../../lambdas/core/webhooks/signing';

/** 2026-11-21T09:30:00Z, in seconds. */
const T = Date.UTC(2026, 10, 21, 9, 30, 0) / 1000;
const MESSAGE_ID = 'msg_2xQ7bLr0Zk4mP1sVt9yCnD';
const BODY =
  '{"type":"contract-reviews.analysis.completed","timestamp":"2026-11-21T09:29:59.000001Z","test":false,"data":{}}';

const secret = () => newSigningSecret((n) => new Uint8Array(randomBytes(n)));
const keyBytes = (value: string) => Buffer.from(value.slice('whsec_'.length), 'base64');

/** The verifier's clock, in seconds since the epoch. */
const setVerifierClock = (seconds: number): void => {
  jest.spyOn(Date, 'now').mockReturnValue(seconds * 1000);
};

beforeEach(() => {
  setVerifierClock(T);
});
afterEach(() => {
  jest.restoreAllMocks();
});

/** What the verifier says about a message: 'verified' or its error message. */
const verdict = (
  secretValue: string,
  body: string | Buffer,
  headers: { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string },
): string => {
  try {
    new Webhook(secretValue).verify(body, headers, { jsonParse: false });
    return 'verified';
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.message;
    throw error;
  }
};

describe('signing secrets', () => {
  test('whsec_ and the base64 of the 32 random bytes asked for', () => {
    const asked: number[] = [];
    const bytes = Uint8Array.from({ length: 32 }, (_, i) => i * 7 + 1);
    const value = newSigningSecret((n) => {
      asked.push(n);
      return bytes;
    });
    expect(asked).toEqual([32]);
    expect(value).toBe(`whsec_${Buffer.from(bytes).toString('base64')}`);
    expect(keyBytes(value)).toEqual(Buffer.from(bytes));
    expect(isSigningSecret(value)).toBe(true);
  });

  test('every new secret decodes to a 32-byte key, and no two are alike', () => {
    const values = Array.from({ length: 50 }, secret);
    for (const value of values) {
      expect(value).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(keyBytes(value)).toHaveLength(32);
      expect(isSigningSecret(value)).toBe(true);
    }
    expect(new Set(values).size).toBe(values.length);
  });

  test('a random source that gives the wrong number of bytes is refused', () => {
    expect(() => newSigningSecret(() => new Uint8Array(16))).toThrow('expected 32 random bytes');
  });

  test('keys of 24 to 64 bytes are secrets; other lengths and forms are not', () => {
    const ofLength = (n: number) => `whsec_${Buffer.alloc(n, 0xa5).toString('base64')}`;
    expect(isSigningSecret(ofLength(24))).toBe(true);
    expect(isSigningSecret(ofLength(64))).toBe(true);
    expect(isSigningSecret(ofLength(23))).toBe(false);
    expect(isSigningSecret(ofLength(65))).toBe(false);
    const good = secret();
    expect(isSigningSecret(good.slice('whsec_'.length))).toBe(false);
    expect(isSigningSecret(`WHSEC_${good.slice(6)}`)).toBe(false);
    expect(isSigningSecret(`${good} `)).toBe(false);
    expect(isSigningSecret(good.replace('=', ''))).toBe(false);
    expect(isSigningSecret(`whsec_${Buffer.alloc(32, 1).toString('base64url')}`)).toBe(false);
    expect(isSigningSecret('whsec_')).toBe(false);
    expect(isSigningSecret('')).toBe(false);
    // Non-canonical base64 (trailing bits set) decodes but is not the form a secret is written in.
    const nonCanonical = ofLength(32).replace(/U=$/, 'V=');
    expect(keyBytes(nonCanonical)).toEqual(keyBytes(ofLength(32)));
    expect(isSigningSecret(nonCanonical)).toBe(false);
  });
});

describe('signatures, checked with the standardwebhooks verifier', () => {
  test('one secret: one v1 signature, the same as the verifier computes, and it verifies', () => {
    const value = secret();
    const header = signatureHeader(MESSAGE_ID, T, BODY, [value]);
    expect(header).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(header).toBe(new Webhook(value).sign(MESSAGE_ID, new Date(T * 1000), BODY));
    const headers = { 'webhook-id': MESSAGE_ID, 'webhook-timestamp': String(T), 'webhook-signature': header };
    expect(verdict(value, BODY, headers)).toBe('verified');
    expect(verdict(secret(), BODY, headers)).toBe('No matching signature found');
  });

  test('during a rotation both signatures are sent, newest first, and each verifies alone with its own secret', () => {
    const newest = secret();
    const previous = secret();
    const header = signatureHeader(MESSAGE_ID, T, BODY, [newest, previous]);
    const parts = header.split(' ');
    expect(parts).toEqual([
      signatureHeader(MESSAGE_ID, T, BODY, [newest]),
      signatureHeader(MESSAGE_ID, T, BODY, [previous]),
    ]);
    const headers = (signature: string) => ({
      'webhook-id': MESSAGE_ID,
      'webhook-timestamp': String(T),
      'webhook-signature': signature,
    });
    // The whole header verifies with either secret, as a receiver mid-rotation holds one of them.
    expect(verdict(newest, BODY, headers(header))).toBe('verified');
    expect(verdict(previous, BODY, headers(header))).toBe('verified');
    // Each signature alone verifies with its own secret and not with the other.
    expect(verdict(newest, BODY, headers(parts[0]!))).toBe('verified');
    expect(verdict(previous, BODY, headers(parts[1]!))).toBe('verified');
    expect(verdict(newest, BODY, headers(parts[1]!))).toBe('No matching signature found');
    expect(verdict(previous, BODY, headers(parts[0]!))).toBe('No matching signature found');
    expect(verdict(secret(), BODY, headers(header))).toBe('No matching signature found');
  });

  test('a changed body, id or timestamp fails verification', () => {
    const value = secret();
    const headers = webhookHeaders(MESSAGE_ID, T, BODY, [value]);
    expect(verdict(value, BODY, headers)).toBe('verified');
    expect(verdict(value, BODY.replace('"test":false', '"test":true'), headers)).toBe(
      'No matching signature found',
    );
    expect(verdict(value, `${BODY} `, headers)).toBe('No matching signature found');
    expect(verdict(value, BODY, { ...headers, 'webhook-id': 'msg_2xQ7bLr0Zk4mP1sVt9yCnE' })).toBe(
      'No matching signature found',
    );
    expect(verdict(value, BODY, { ...headers, 'webhook-timestamp': String(T - 1) })).toBe(
      'No matching signature found',
    );
    expect(verdict(value, BODY, { ...headers, 'webhook-timestamp': String(T + 1) })).toBe(
      'No matching signature found',
    );
  });

  test('the verifier rejects a message signed more than 5 minutes before it reads its clock', () => {
    const value = secret();
    const headers = webhookHeaders(MESSAGE_ID, T, BODY, [value]);
    setVerifierClock(T + 5 * 60);
    expect(verdict(value, BODY, headers)).toBe('verified');
    setVerifierClock(T + 5 * 60 + 1);
    expect(verdict(value, BODY, headers)).toBe('Message timestamp too old');
    setVerifierClock(T + 24 * 3600);
    expect(verdict(value, BODY, headers)).toBe('Message timestamp too old');
    // Signed afresh at the time of the late attempt (same webhook-id), it verifies again.
    expect(verdict(value, BODY, webhookHeaders(MESSAGE_ID, T + 24 * 3600, BODY, [value]))).toBe('verified');
    // And one from more than 5 minutes in the verifier's future is refused too.
    setVerifierClock(T - 5 * 60 - 1);
    expect(verdict(value, BODY, headers)).toBe('Message timestamp too new');
  });

  test('the HMAC is over the exact UTF-8 bytes of the body', () => {
    const value = secret();
    const body = '{"name":"Zoë Ångström","note":"契約 ✓ 🏠","escaped":"\\u00e9"}';
    const headers = webhookHeaders(MESSAGE_ID, T, body, [value]);
    expect(verdict(value, body, headers)).toBe('verified');
    expect(verdict(value, Buffer.from(body, 'utf8'), headers)).toBe('verified');
    // The same characters in another normal form are other bytes: not the message that was signed.
    expect(verdict(value, body.normalize('NFD'), headers)).toBe('No matching signature found');
  });

  test('keys of any accepted length sign messages the verifier accepts', () => {
    for (const n of [24, 32, 64]) {
      const value = `whsec_${randomBytes(n).toString('base64')}`;
      expect(isSigningSecret(value)).toBe(true);
      expect(verdict(value, BODY, webhookHeaders(MESSAGE_ID, T, BODY, [value]))).toBe('verified');
    }
  });

  test('no secret, a value that is not a secret, or a timestamp that is not whole seconds is refused', () => {
    const value = secret();
    expect(() => signatureHeader(MESSAGE_ID, T, BODY, [])).toThrow('at least one signing secret');
    expect(() => signatureHeader(MESSAGE_ID, T, BODY, [value, 'whsec_short'])).toThrow('not a whsec_');
    expect(() => signatureHeader(MESSAGE_ID, T * 1000 + 0.5, BODY, [value])).toThrow('whole seconds');
    expect(() => signatureHeader(MESSAGE_ID, -1, BODY, [value])).toThrow('whole seconds');
    expect(() => signatureHeader('', T, BODY, [value])).toThrow('message id');
  });
});

describe('headers of one attempt', () => {
  test('webhook-id, webhook-timestamp, webhook-signature and the JSON content type', () => {
    const newest = secret();
    const previous = secret();
    const headers = webhookHeaders(MESSAGE_ID, T, BODY, [newest, previous]);
    expect(headers).toEqual({
      'webhook-id': MESSAGE_ID,
      'webhook-timestamp': String(T),
      'webhook-signature': signatureHeader(MESSAGE_ID, T, BODY, [newest, previous]),
      'content-type': 'application/json',
    });
    expect(Object.keys(headers)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
      'content-type',
    ]);
    expect(verdict(newest, BODY, headers)).toBe('verified');
    expect(verdict(previous, BODY, headers)).toBe('verified');
  });

  test('the timestamp of an attempt is its time in whole seconds', () => {
    const now: Micros = T * 1_000_000 + 999_999;
    expect(webhookTimestamp(now)).toBe(T);
    expect(webhookTimestamp(T * 1_000_000)).toBe(T);
  });
});

describe('the envelope', () => {
  const occurredAt: Micros = Date.UTC(2026, 10, 21, 9, 29, 59, 123) * 1000 + 456;

  test('exact text: type, timestamp (six fractional digits), test, data, in that order', () => {
    const body = envelopeBody({
      type: 'contract-reviews.processing.failed',
      occurredAt,
      data: '{"contract_review":{"id":"crv_x"}}',
      test: false,
    });
    expect(body).toBe(
      '{"type":"contract-reviews.processing.failed","timestamp":"2026-11-21T09:29:59.123456Z","test":false,"data":{"contract_review":{"id":"crv_x"}}}',
    );
    expect(Object.keys(JSON.parse(body))).toEqual(['type', 'timestamp', 'test', 'data']);
    const value = secret();
    const webhook = new Webhook(value);
    expect(webhook.verify(body, webhookHeaders(MESSAGE_ID, T, body, [value]))).toEqual({
      type: 'contract-reviews.processing.failed',
      timestamp: '2026-11-21T09:29:59.123456Z',
      test: false,
      data: { contract_review: { id: 'crv_x' } },
    });
  });

  test('the recorded data text is inserted verbatim: key order, unicode, escapes and spacing kept', () => {
    const data = '{"z":1,"a":{"ü":"Zoë 契約 🏠","e":"\\u00e9\\n"}, "list":[3,1,2],"n":1.50}';
    const body = envelopeBody({ type: 'clients.submitted', occurredAt, data, test: false });
    expect(body).toBe(
      `{"type":"clients.submitted","timestamp":"2026-11-21T09:29:59.123456Z","test":false,"data":${data}}`,
    );
    expect(body.slice(body.indexOf('"data":') + '"data":'.length, -1)).toBe(data);
    // Re-serialising would have changed it; the envelope did not.
    expect(JSON.stringify(JSON.parse(data))).not.toBe(data);
    const parsed = JSON.parse(body) as { data: Record<string, unknown> };
    expect(Object.keys(parsed.data)).toEqual(['z', 'a', 'list', 'n']);
    expect(parsed.data.a).toEqual({ ü: 'Zoë 契約 🏠', e: 'é\n' });
    const value = secret();
    expect(verdict(value, body, webhookHeaders(MESSAGE_ID, T, body, [value]))).toBe('verified');
  });

  test('the type is JSON-escaped, and test is a boolean', () => {
    const body = envelopeBody({ type: 'a"b', occurredAt: 7, data: '{}', test: true });
    expect(body).toBe('{"type":"a\\"b","timestamp":"1970-01-01T00:00:00.000007Z","test":true,"data":{}}');
    expect(JSON.parse(body)).toEqual({
      type: 'a"b',
      timestamp: '1970-01-01T00:00:00.000007Z',
      test: true,
      data: {},
    });
  });

  test('data that is not the JSON text of an object is refused', () => {
    for (const data of ['', 'null', '[]', '"text"', '1', '{"a":', '{} {}']) {
      expect(() => envelopeBody({ type: 'test', occurredAt, data, test: true })).toThrow(
        'event data must be the JSON text of an object',
      );
    }
  });
});

describe('test events', () => {
  const PAGES = 'https://pages.sandbox.example.net';
  const now: Micros = Date.UTC(2026, 10, 21, 9, 30, 0, 500) * 1000 + 250;

  /** A real `publication.published` data, for its shape. */
  const realPublishedData = (): Record<string, unknown> => {
    let n = 0;
    const ids: Ids = { id: (prefix) => `${prefix}_${++n}`, secret: (prefix) => `${prefix}${++n}` };
    const review = newContractReview({
      id: 'crv_real',
      scope: { organisationId: 'org_1', integrationId: 'int_1', environment: 'sandbox' },
      externalReference: 'ref-1',
      product: 'legal_advice',
      review: null,
      clients: [],
      recipient: { firstName: 'A', lastName: 'B', email: 'a@b.test' },
      slugs: { review_snapshot: 'slug' },
      now,
    });
    const event = contractReviewEvent(ids, 'contract-reviews.publication.published', review, now, {
      channel: 'review_snapshot',
      url: `${PAGES}/slug/`,
    });
    return JSON.parse(event.data) as Record<string, unknown>;
  };

  test('the data shape of publication.published, about an example review that is not real', () => {
    const data = JSON.parse(testEventData(PAGES, now)) as {
      channel: string;
      url: string;
      contract_review: Record<string, unknown> & {
        id: string;
        publications: { channel: string; state: string; url: string | null; published_at: string | null }[];
      };
    };
    expect(Object.keys(data)).toEqual(['channel', 'url', 'contract_review']);
    const real = realPublishedData();
    expect(Object.keys(data)).toEqual(Object.keys(real));
    expect(Object.keys(data.contract_review)).toEqual(Object.keys(real.contract_review as object));
    expect(CHANNELS).toContain(data.channel);
    expect(data.url).toBe(`${PAGES}/example/`);
    expect(data.contract_review.id).toMatch(/^crv_test/);
    expect(isContractReviewId(data.contract_review.id)).toBe(true);
    const publication = data.contract_review.publications.find((p) => p.channel === data.channel);
    expect(publication).toEqual({
      channel: data.channel,
      state: 'published',
      url: data.url,
      published_at: '2026-11-21T09:30:00.500250Z',
    });
    expect(data.contract_review).toMatchObject({
      version: 1,
      processing: { state: 'completed', failure_reason: null, failed_at: null },
      analysis: { state: 'completed' },
      lawyer_review: { state: 'completed', completed_at: '2026-11-21T09:30:00.500250Z' },
    });
    expect(data.contract_review.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  test('a trailing slash on the pages address is not doubled', () => {
    const data = JSON.parse(testEventData(`${PAGES}/`, now)) as { url: string };
    expect(data.url).toBe(`${PAGES}/example/`);
  });

  test('its envelope has type test and test true, and verifies', () => {
    const body = envelopeBody({
      type: TEST_EVENT_TYPE,
      occurredAt: now,
      data: testEventData(PAGES, now),
      test: true,
    });
    const value = secret();
    const parsed = new Webhook(value).verify(body, webhookHeaders(MESSAGE_ID, T, body, [value])) as {
      type: string;
      timestamp: string;
      test: boolean;
      data: { channel: string; url: string };
    };
    expect(Object.keys(parsed)).toEqual(['type', 'timestamp', 'test', 'data']);
    expect(parsed.type).toBe('test');
    expect(parsed.test).toBe(true);
    expect(parsed.timestamp).toBe('2026-11-21T09:30:00.500250Z');
    expect(parsed.data.url).toBe(`${PAGES}/example/`);
  });
});
