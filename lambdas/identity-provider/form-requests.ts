// identity provider -> what a page's form sends: refused unless it comes from one of this origin's own
// pages (a browser says so in `Sec-Fetch-Site`, or else in `Origin`), which, with oidc-provider's
// interaction cookie (SameSite, HttpOnly, signed, scoped to the interaction's path), keeps other sites
// (other ports of the same host included, which SameSite counts as the same site) from posting into a
// person's sign-in. Bodies are small URL-encoded forms, read up to a bound.
import type { IncomingMessage } from 'node:http';

const MAX_FORM_BYTES = 16 * 1024;

/** Whether the form was posted by a page of `origin` itself. */
export const isSameOriginPost = (request: IncomingMessage, origin: string): boolean => {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  return request.headers.origin === origin;
};

/** A body that is not a form (400) or is too large for one (413). */
export class FormRefused extends Error {
  constructor(readonly status: 400 | 413) {
    super(status === 400 ? 'not a form' : 'form too large');
    this.name = 'FormRefused';
  }
}

/**
 * The fields of a URL-encoded form body; `FormRefused` for another type or a body over the bound. An
 * oversized body is left unread (the answer closes the connection), never read on to its end.
 */
export const readForm = (request: IncomingMessage): Promise<URLSearchParams> =>
  new Promise((resolve, reject) => {
    const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded') return reject(new FormRefused(400));
    if (Number(request.headers['content-length'] ?? 0) > MAX_FORM_BYTES) return reject(new FormRefused(413));
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= MAX_FORM_BYTES) {
        chunks.push(chunk);
        return;
      }
      request.off('data', onData);
      request.pause();
      reject(new FormRefused(413));
    };
    request.on('data', onData);
    request.once('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    request.once('error', reject);
  });

/**
 * The address a request came from, for limits per address. Behind the one proxy the deployment puts in
 * front (`behindProxy`), it is the last `X-Forwarded-For` entry: the one that proxy appended, which the
 * caller cannot choose (entries before it are whatever the caller sent).
 */
export const clientAddress = (request: IncomingMessage, behindProxy: boolean): string => {
  const forwarded = request.headers['x-forwarded-for'];
  const entries = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',');
  const last = entries.at(-1)?.trim();
  return behindProxy && last ? last : (request.socket.remoteAddress ?? 'unknown');
};
