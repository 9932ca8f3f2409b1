// core -> the ports of past /v1 requests: idempotent replays and the request history.

import type { Page, Scope } from '../model';
import type { ApiRequestFilter, ApiRequestRecord, TimeWindow } from '../request-history/model';

/** The kept answer of an idempotent request, replayed byte for byte to its retries. */
export interface StoredReplay {
  status: number;
  body: string;
}

export type IdempotencyClaim =
  | { kind: 'claimed' }
  | { kind: 'replay'; answer: StoredReplay }
  | { kind: 'reused' }
  | { kind: 'in_use' };

/** The idempotency record a write completes in the same transaction as its effect. */
export interface IdempotencyCompletion {
  scope: Scope;
  key: string;
  fingerprint: string;
  answer: StoredReplay;
}

export interface IdempotencyStore {
  /** Claims `key` for a request with `fingerprint`, or says why it cannot be claimed. */
  claim(scope: Scope, key: string, fingerprint: string): Promise<IdempotencyClaim>;
  /** Keeps the answer of a claimed request that ended without an effect to write. */
  complete(completion: IdempotencyCompletion): Promise<void>;
  /** Gives up a claim so that a corrected retry with the same key proceeds. */
  release(scope: Scope, key: string, fingerprint: string): Promise<void>;
}

/** What a page of one integration's request history is asked for (checked by the core). */
export interface ApiRequestPageQuery {
  limit: number;
  window: TimeWindow;
  filter: ApiRequestFilter;
  /** The record after which the page starts (one of this very list). */
  startingAfter?: ApiRequestRecord;
}

/** The request history of this environment (decisions.md §10). */
export interface ApiRequestStore {
  /** Writes the records, in as few calls as the store allows; throws if any could not be written. */
  write(records: readonly ApiRequestRecord[]): Promise<void>;
  /** A record by its request id; null when there is none (never recorded, or expired). */
  get(id: string): Promise<ApiRequestRecord | null>;
  /** An integration's records in the window that match the filter, newest first (ties by id, descending). */
  list(integrationId: string, query: ApiRequestPageQuery): Promise<Page<ApiRequestRecord>>;
}

/**
 * Where the API hands each recorded call once it is answered (request-history/recorder.ts): held, then
 * written in batches, so that recording costs an answer nothing.
 */
export interface ApiRequestRecorder {
  /** Takes a record to write later; never throws, never waits. */
  record(entry: ApiRequestRecord): void;
  /** Writes what is held, and resolves once every write under way has ended (written, or logged and dropped). */
  flush(): Promise<void>;
}

/** The request history area: idempotent replays, the history's pages, and its recorder. */
export interface RequestHistoryPorts {
  idempotency: IdempotencyStore;
  apiRequests: ApiRequestStore;
  apiRequestRecorder: ApiRequestRecorder;
}
