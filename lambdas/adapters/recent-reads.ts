// adapter -> the contract-review reads port: a small in-process memory of recent reads, each kept for at
// most `maxAge`, so that many clients polling one contract cost one database read a second. Concurrent
// misses for one id share a single read, and a write through this process forgets the id at once, so a
// client reads its own changes here; changes made elsewhere show within `maxAge`.
import type { ContractReview, Micros } from '../core/model';
import type { Clock, ContractReviewReads, ContractReviewStore } from '../core/ports';
import { SECOND } from '../core/time';

export interface RecentReadsOptions {
  maxAge?: Micros;
  capacity?: number;
}

/** `store` with every write forgetting what `reads` keeps of that contract review. */
export const withRecentReads = (
  store: ContractReviewStore,
  clock: Clock,
  { maxAge = SECOND, capacity = 10_000 }: RecentReadsOptions = {},
): { store: ContractReviewStore; reads: ContractReviewReads } => {
  const recent = new Map<string, { read: Promise<ContractReview | null>; at: Micros }>();
  const reads: ContractReviewReads = {
    get: (id) => {
      const now = clock.now();
      const kept = recent.get(id);
      if (kept && now - kept.at < maxAge) return kept.read;
      recent.delete(id);
      if (recent.size >= capacity) recent.delete(recent.keys().next().value as string);
      const read = store.get(id);
      recent.set(id, { read, at: now });
      read.catch(() => recent.delete(id));
      return read;
    },
  };
  /** Forgets `id` once `write` settles, whether it succeeded or not. */
  const forgetAfter = async (id: string, write: Promise<void>): Promise<void> => {
    try {
      await write;
    } finally {
      recent.delete(id);
    }
  };
  return {
    reads,
    store: {
      create: (entry) => forgetAfter(entry.review.id, store.create(entry)),
      addVersion: (entry) => forgetAfter(entry.review.id, store.addVersion(entry)),
      update: (review, expectedUpdatedAt, events, runs, audit) =>
        forgetAfter(review.id, store.update(review, expectedUpdatedAt, events, runs, audit)),
      get: (id) => store.get(id),
      getVersion: (id, version) => store.getVersion(id, version),
      findByExternalReference: (scope, reference) => store.findByExternalReference(scope, reference),
      list: (scope, options) => store.list(scope, options),
    },
  };
};
