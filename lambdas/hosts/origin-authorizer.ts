// host -> the Lambda authorizer of an HTTP API that only CloudFront may call (lib/origin-protection.ts): a
// request is admitted when its origin secret header is one of the secret's accepted values
// (hosts/origin-verify.ts, as the ingest service checks it). API Gateway keeps each answer a few minutes
// per header value, so the secret is read rarely; a request without the header never reaches here.
import type { OriginVerifier } from './origin-verify';

/** What an HTTP API (payload 2.0) tells a request authorizer: the request's headers, lower-cased. */
export interface OriginAuthorizerEvent {
  readonly headers?: Readonly<Record<string, string | undefined>>;
}

/** The authorizer's simple answer. */
export interface OriginAuthorizerAnswer {
  readonly isAuthorized: boolean;
}

export const authorizeOrigin = async (
  verifier: OriginVerifier,
  header: string,
  event: OriginAuthorizerEvent,
): Promise<OriginAuthorizerAnswer> => ({
  isAuthorized: await verifier.accepts(event.headers?.[header.toLowerCase()]),
});
