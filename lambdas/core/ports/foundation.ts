// core -> the ports every area stands on: the time, new ids and secrets, and the blob store.

import type { Environment, Micros } from '../model';

export interface Clock {
  /** Epoch microseconds, never going backwards within a process. */
  now(): Micros;
}

export interface Ids {
  /** A new opaque id with its prefix (`crv_`, `onb_`, …), at least 128 random bits. */
  id(prefix: string): string;
  /** A new secret with its prefix (`onbs_`, `svc_test_`, …), at least 128 random bits. */
  secret(prefix: string): string;
}

/** PDFs and other large bytes. */
export interface BlobStore {
  /** Streams `body` to `key`; resolves with the number of bytes stored. */
  put(key: string, body: AsyncIterable<Uint8Array>, contentType: string): Promise<{ size: number }>;
  /** Bytes [start, end) of a stored blob. */
  readRange(key: string, start: number, end: number): Promise<Uint8Array>;
  delete(key: string): Promise<void>;
  /**
   * Copies a stored blob to `toKey` with `contentType`, inside the store: its bytes never pass through
   * this process. Rejects when `fromKey` holds no blob.
   */
  copy(fromKey: string, toKey: string, contentType: string): Promise<void>;
}

/** What every area stands on: the environment served, the time, new ids and the blob store. */
export interface FoundationPorts {
  environment: Environment;
  clock: Clock;
  ids: Ids;
  blobs: BlobStore;
}
