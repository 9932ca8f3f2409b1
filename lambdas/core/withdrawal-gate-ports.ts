// core -> the ports of the withdrawal gate (workers/withdrawal-gate.ts) and the S3 events it is sent:
// the bucket's markers, CloudFront's KeyValueStore of withdrawn slugs, and invalidations. The adapter
// over the AWS SDK is adapters/cloudfront/withdrawal-gate-ports.ts.

/** S3's EventBridge events the gate is sent (lib/hosted-pages.ts filters on them). */
export const MARKER_EVENT_TYPES = ['Object Created', 'Object Deleted'] as const;

/** The KeyValueStore as the gate uses it: every write names the store version (ETag) it expects. */
export interface KeyValueStore {
  /** The store's current version (DescribeKeyValueStore's ETag). */
  etag(): Promise<string>;
  /** PutKey: throws `ConcurrentChange` when `ifMatch` is no longer the store's version. */
  put(key: string, value: string, ifMatch: string): Promise<void>;
  /** DeleteKey, as `put`; deleting a key that is not there succeeds. */
  delete(key: string, ifMatch: string): Promise<void>;
}

export interface GatePorts {
  /** The bucket the markers live in (events of any other bucket are refused). */
  readonly bucket: string;
  /** Whether the marker blob `key` is in the bucket now (its current version). */
  markerPresent(key: string): Promise<boolean>;
  readonly store: KeyValueStore;
  /** Invalidates `paths` in the distribution; `reference` makes a repeated request a no-op. */
  invalidate(paths: string[], reference: string): Promise<void>;
  /** Waits before a retry (tests pass a no-op). */
  pause(milliseconds: number): Promise<void>;
}

/**
 * What the backfill (a deployment's one-off run) uses: the gate's store, and every blob key under
 * `published/` that ends as a marker's does, read from the bucket's current versions.
 */
export interface BackfillPorts extends Pick<GatePorts, 'store' | 'pause'> {
  markerKeys(): AsyncIterable<string>;
}
