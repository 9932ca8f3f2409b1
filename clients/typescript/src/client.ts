// client -> the /v1 API as calls: an access token exchanged for the API key when first needed and again
// when it expires or a call answers 401, an `Idempotency-Key` made for every upload, uploads streamed
// with their `Content-Digest` (transport.ts), lists as async iterators, errors as `ServiceApiError` with their `code`.
import { randomUUID } from 'node:crypto';
import { errorOfResponse } from './errors.js';
import { type Answer, fetchAnswer, postStreaming } from './transport.js';
import type {
  Client,
  ContractRequest,
  ContractReview,
  ListClientsParams,
  ListContractReviewsParams,
  Onboarding,
  OnboardingSession,
  Page,
  Token,
  VersionRequest,
} from './types.js';
import { type UploadFile, uploadBody } from './upload-body.js';

export interface ClientOptions {
  /** `svc_test_…` (sandbox) or `svc_live_…` (production): kept on your server only. */
  apiKey: string;
  /** The environment's base address, such as `http://127.0.0.1:3001` for the local sandbox. */
  baseUrl: string;
  /**
   * The `fetch` of the JSON calls and the token exchange; the platform's by default. Uploads go through
   * node:http(s), which streams a body without buffering it.
   */
  fetch?: typeof fetch;
}

export interface UploadOptions {
  /** Send the same key to retry a request safely; a fresh UUID by default. */
  idempotencyKey?: string;
}

/** An upload's answer: the contract review, and whether it replays an earlier request with the same key. */
export interface UploadResult {
  status: number;
  contractReview: ContractReview;
  replayed: boolean;
}

/** A token is renewed this long before it expires, so that a call does not meet its expiry on the way. */
const RENEW_BEFORE_MS = 60_000;

interface CallOptions {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  /** An upload's headers and body, the body made afresh for each attempt. */
  upload?: { headers: Record<string, string>; chunks: () => AsyncIterable<Uint8Array> };
}

/** The connection was cut while the body was being sent: the server may have answered and closed early. */
const isCutShort = (error: unknown): boolean =>
  ['EPIPE', 'ECONNRESET'].includes((error as { code?: unknown } | null)?.code as string);

/** Attempts at an upload whose connection is cut short, each with the same key and bytes. */
const UPLOAD_ATTEMPTS = 3;

/**
 * Sends again an upload whose connection was cut before an answer was read (a server that refused it
 * early, such as an expired token's 401, and closed while the body was still going): safe, since the
 * same Idempotency-Key with the same bytes is the same request, which the service does at most once.
 */
const sentAgainIfCut = async <T>(send: () => Promise<T>): Promise<T> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (!isCutShort(error) || attempt >= UPLOAD_ATTEMPTS) throw error;
    }
  }
};

export class ContractServiceClient {
  readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly fetch: typeof fetch;
  private token: { value: string; expiresAt: number } | undefined;
  /** The exchange under way: calls made meanwhile wait for it rather than exchanging again. */
  private exchanging: Promise<string> | undefined;

  readonly contractReviews = {
    /** `POST /v1/contract-reviews`: sends a contract; answers 202 at once while it is read. */
    create: (
      request: ContractRequest,
      file: UploadFile,
      options: UploadOptions = {},
    ): Promise<UploadResult> => this.upload('/v1/contract-reviews', request, file, options),
    /** `POST /v1/contract-reviews/{id}/versions`: a changed contract (200 when byte-identical: nothing made). */
    createVersion: (
      id: string,
      request: VersionRequest,
      file: UploadFile,
      options: UploadOptions = {},
    ): Promise<UploadResult> =>
      this.upload(`/v1/contract-reviews/${encodeURIComponent(id)}/versions`, request, file, options),
    get: (id: string): Promise<ContractReview> =>
      this.json({ method: 'GET', path: `/v1/contract-reviews/${encodeURIComponent(id)}` }),
    /** One page, newest first. */
    listPage: (params: ListContractReviewsParams = {}): Promise<Page<ContractReview>> =>
      this.json({ method: 'GET', path: '/v1/contract-reviews', query: params }),
    /** Every contract review, newest first, fetching the next page as the loop reaches it. */
    list: (
      params: Omit<ListContractReviewsParams, 'starting_after'> = {},
    ): AsyncIterableIterator<ContractReview> =>
      this.paginate((page) => this.contractReviews.listPage({ ...params, ...page })),
    /**
     * Reads the contract review every `intervalMs` (30 s, as the interface recommends, by default) until
     * `done` holds, and resolves with it; rejects after `timeoutMs` (none by default).
     */
    poll: (
      id: string,
      done: (review: ContractReview) => boolean,
      { intervalMs = 30_000, timeoutMs }: { intervalMs?: number; timeoutMs?: number } = {},
    ): Promise<ContractReview> => this.poll(() => this.contractReviews.get(id), done, intervalMs, timeoutMs),
  };

  readonly onboardings = {
    /** `POST /v1/clients/onboardings/sessions`: a `reference` used before reopens its onboarding. */
    createSession: (reference: string): Promise<OnboardingSession> =>
      this.json({ method: 'POST', path: '/v1/clients/onboardings/sessions', json: { reference } }),
    get: (id: string): Promise<Onboarding> =>
      this.json({ method: 'GET', path: `/v1/clients/onboardings/${encodeURIComponent(id)}` }),
  };

  readonly clients = {
    get: (id: string): Promise<Client> =>
      this.json({ method: 'GET', path: `/v1/clients/${encodeURIComponent(id)}` }),
    listPage: (params: ListClientsParams = {}): Promise<Page<Client>> =>
      this.json({ method: 'GET', path: '/v1/clients', query: params }),
    list: (params: Omit<ListClientsParams, 'starting_after'> = {}): AsyncIterableIterator<Client> =>
      this.paginate((page) => this.clients.listPage({ ...params, ...page })),
  };

  constructor(options: ClientOptions) {
    this.apiKey = options.apiKey;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** `POST /v1/token`: a fresh access token for the API key (the client does this itself when needed). */
  async exchangeToken(): Promise<Token> {
    const response = await this.fetch(`${this.baseUrl}/v1/token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.apiKey}` },
    });
    const text = await response.text();
    if (!response.ok) throw errorOfResponse(fetchAnswer(response), text);
    const token = JSON.parse(text) as Token;
    this.token = { value: token.access_token, expiresAt: Date.now() + token.expires_in * 1000 };
    return token;
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt - RENEW_BEFORE_MS > Date.now()) return this.token.value;
    this.exchanging ??= this.exchangeToken()
      .then((token) => token.access_token)
      .finally(() => {
        this.exchanging = undefined;
      });
    return this.exchanging;
  }

  /** Sends a call with the access token; on a 401 exchanges the key again and sends it once more. */
  private async call(options: CallOptions): Promise<Answer> {
    const url = new URL(`${this.baseUrl}${options.path}`);
    for (const [name, value] of Object.entries(options.query ?? {}))
      if (value !== undefined) url.searchParams.set(name, String(value));
    const send = async (token: string): Promise<Answer> => {
      const authorization = `Bearer ${token}`;
      if (options.upload)
        return postStreaming(url, { authorization, ...options.upload.headers }, options.upload.chunks());
      const headers: Record<string, string> = { authorization };
      if (options.json !== undefined) headers['content-type'] = 'application/json';
      const body = options.json === undefined ? undefined : JSON.stringify(options.json);
      return fetchAnswer(await this.fetch(url, { method: options.method, headers, body }));
    };
    const used = await this.accessToken();
    const answer = await send(used);
    if (answer.status !== 401) return answer;
    await answer.text(); // read to its end, so the connection can serve the next call
    // Renewed once for every call that met the refusal of the same token.
    if (this.token?.value === used) this.token = undefined;
    return send(await this.accessToken());
  }

  private async json<T>(options: CallOptions): Promise<T> {
    const answer = await this.call(options);
    const text = await answer.text();
    if (answer.status >= 300) throw errorOfResponse(answer, text);
    return JSON.parse(text) as T;
  }

  private async upload(
    path: string,
    request: unknown,
    file: UploadFile,
    options: UploadOptions,
  ): Promise<UploadResult> {
    const idempotencyKey = options.idempotencyKey ?? randomUUID();
    const body = await uploadBody(request, file, idempotencyKey);
    try {
      const send = () =>
        this.call({
          method: 'POST',
          path,
          upload: {
            chunks: body.chunks,
            headers: {
              'content-type': body.contentType,
              'content-length': String(body.contentLength),
              'content-digest': body.contentDigest,
              'idempotency-key': idempotencyKey,
            },
          },
        });
      const answer = await sentAgainIfCut(send);
      const text = await answer.text();
      if (answer.status >= 300) throw errorOfResponse(answer, text);
      return {
        status: answer.status,
        contractReview: JSON.parse(text) as ContractReview,
        replayed: answer.header('idempotent-replayed') === 'true',
      };
    } finally {
      await body.dispose();
    }
  }

  private async *paginate<T extends { id: string }>(
    fetchPage: (page: { starting_after?: string }) => Promise<Page<T>>,
  ): AsyncIterableIterator<T> {
    let startingAfter: string | undefined;
    for (;;) {
      const page = await fetchPage(startingAfter === undefined ? {} : { starting_after: startingAfter });
      yield* page.data;
      const last = page.data.at(-1);
      if (!page.has_more || last === undefined) return;
      startingAfter = last.id;
    }
  }

  private async poll<T>(
    read: () => Promise<T>,
    done: (value: T) => boolean,
    intervalMs: number,
    timeoutMs: number | undefined,
  ): Promise<T> {
    const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() + intervalMs > deadline)
        throw new Error(`the condition did not hold within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
