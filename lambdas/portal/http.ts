// portal -> a request to the portal's backend and its answer, as plain data: the local host turns Node's
// HTTP into these, a deployed function its event, and the portal's code is the same behind both.
export interface PortalRequest {
  method: string;
  /** The path, not decoded, without the query. */
  path: string;
  query: URLSearchParams;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | undefined>>;
  /** The body as text (JSON routes); empty when there is none. */
  body: string;
}

export interface PortalAnswer {
  status: number;
  headers: Record<string, string>;
  /** `Set-Cookie` values, one each. */
  cookies: string[];
  body: string | Uint8Array;
}

/** The largest JSON body a route reads (a webhook endpoint's address and events, a name). */
export const MAX_BODY_BYTES = 16 * 1024;
