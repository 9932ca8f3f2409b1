// api -> the HTTP side of the two upload endpoints, in the order of decisions.md §1: the
// `Idempotency-Key` and `Content-Digest` headers, the size, then the body streamed to the blob store
// and its digest checked. What comes after (idempotency, multipart, fields) is the core's.
import { createHash } from 'node:crypto';
import type { SendPorts, UploadAnswer, UploadedParts } from '../../core/contracts/send';
import { fail } from '../../core/errors';
import type { Ports } from '../../core/ports';
import { formatContentDigest, parseContentDigest } from '../upload/content-digest';
import { MAX_UPLOAD_BODY_BYTES, payloadTooLarge, readUpload } from '../upload/read-upload';
import type { Reply } from './endpoint';
import type { ApiRequest } from './request';

/** The ports of the two upload endpoints: the caller's checks (token, key, rate and quota), then the send. */
export type UploadEndpointPorts = SendPorts & Pick<Ports, 'apiKeys' | 'rateLimiter' | 'tokenVerifier'>;

export interface UploadHeaders {
  idempotencyKey: string;
  digest: Buffer;
}

/** Checks the two required headers and the declared size, before any of the body is read. */
export const checkUploadHeaders = (request: ApiRequest): UploadHeaders => {
  const idempotencyKey = request.header('idempotency-key');
  if (idempotencyKey === undefined) {
    fail(
      'idempotency_key_required',
      'Send an `Idempotency-Key` header, a value you choose per request such as a UUID.',
    );
  }
  if (idempotencyKey.trim() === '' || idempotencyKey.length > 255) {
    fail('idempotency_key_invalid', '`Idempotency-Key` must be 1 to 255 characters, such as a UUID.');
  }
  const digestHeader = request.header('content-digest');
  if (digestHeader === undefined) {
    fail(
      'content_digest_required',
      'Send `Content-Digest: sha-256=:<base64>:`, the SHA-256 of the whole body as sent.',
    );
  }
  const digest = parseContentDigest(digestHeader);
  if (!digest.valid) {
    // The reason names the fault and what to send instead.
    fail('content_digest_invalid', digest.reason);
  }
  if (request.contentLength !== undefined && request.contentLength > MAX_UPLOAD_BODY_BYTES)
    throw payloadTooLarge();
  return { idempotencyKey, digest: digest.sha256 };
};

export interface ReceivedUpload {
  idempotencyKey: string;
  fingerprint: string;
  parts: UploadedParts;
}

/** Streams the body into the blob store and checks it against `Content-Digest`. */
export const receiveUpload = async (
  request: ApiRequest,
  ports: Pick<Ports, 'blobs' | 'environment' | 'ids'>,
  headers: UploadHeaders,
): Promise<ReceivedUpload> => {
  const blobKey = `uploads/${ports.environment}/${ports.ids.id('upl')}.pdf`;
  const received = await readUpload({
    contentType: request.header('content-type'),
    contentLength: request.contentLength,
    body: request.stream(),
    blobs: ports.blobs,
    blobKey,
  });
  if (!received.bodySha256.equals(headers.digest)) {
    if (received.parts.ok) await ports.blobs.delete(blobKey);
    fail(
      'content_digest_mismatch',
      `The body's SHA-256 is ${formatContentDigest(received.bodySha256)}, not the one in \`Content-Digest\`; hash the exact bytes you send.`,
    );
  }
  return {
    idempotencyKey: headers.idempotencyKey,
    fingerprint: requestFingerprint(request.method, request.path, headers.digest),
    parts: received.parts,
  };
};

/** "The same request": the same method, path and body bytes (decisions.md §2). */
export const requestFingerprint = (method: string, path: string, bodySha256: Buffer): string =>
  createHash('sha256')
    .update(`${method} ${path} ${bodySha256.toString('base64')}`)
    .digest('hex');

export const uploadReply = (answer: UploadAnswer): Reply => ({
  status: answer.status,
  body: answer.body,
  ...(answer.replayed && { headers: { 'Idempotent-Replayed': 'true' } }),
});
