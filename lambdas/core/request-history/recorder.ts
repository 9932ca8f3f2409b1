// core -> how the request history is written without a cost to the request path: each call is held in
// memory once answered and written afterwards, in batches; a batch the store fails to write is logged and
// dropped, never retried into later answers. One recorder for every host, the host choosing when it
// writes: a long-running one (the local stack, the upload ingest service) on a short timer or as soon as
// a batch is full; a Lambda, frozen once its handler returns, by flushing before it returns.
import { log } from '../log';
import type { ApiRequestRecorder, ApiRequestStore } from '../ports';
import type { ApiRequestRecord } from './model';

export interface RecorderOptions {
  /**
   * Long-running hosts: what is held is written at most this long after the first of it was held. Absent
   * (a Lambda): only full batches are written by themselves, the rest when the host flushes.
   */
  flushAfterMs?: number;
  /**
   * Writes under way at once (default 4); while they are, more records wait in memory. A host whose store
   * runs on the same cores as its answers (the local stack's DynamoDB Local) takes 1, so that the store
   * never takes more than one core from them.
   */
  maxWrites?: number;
  /**
   * A host whose store runs on the same cores as its answers: while this says the host is saturated by
   * its answers, writes wait (the records stay held, within MAX_HELD), but at most `maxHoldMs` since the
   * last write began, so a host that stays busy still writes a batch that often. A flush never waits.
   */
  holdWhile?: () => boolean;
  /** Default MAX_HOLD_MS. */
  maxHoldMs?: number;
}

/** Records a write takes at most (DynamoDB's BatchWriteItem: 25 items). */
export const BATCH_SIZE = 25;
const MAX_WRITES = 4;
/**
 * Records waiting at most, about 30 MiB of them (~300 bytes a record held). Under a steady load the store
 * keeps up and nothing waits long; past that (a flood faster than the store writes, the store throttled or
 * down) new records are dropped and counted, the count logged once the backlog has drained to half,
 * rather than letting memory grow without bound. 100,000 holds about a minute of a flood at what DynamoDB
 * Local writes on a 2-core machine (~1,500 a second) against ~7 s at 10,000.
 */
export const MAX_HELD = 100_000;
/** How long writes wait at most while `holdWhile` holds them. */
export const MAX_HOLD_MS = 1_000;
/** How often held writes ask `holdWhile` again. */
const HOLD_RECHECK_MS = 250;

export class BatchingRecorder implements ApiRequestRecorder {
  /** What waits: `queue` from `head` on. A batch taken moves `head` (no splice, which would shift everything behind it). */
  private queue: ApiRequestRecord[] = [];
  private head = 0;
  private readonly writing = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private recheck: NodeJS.Timeout | undefined;
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private writeScheduled = false;
  private dropped = 0;

  /** At least one, or a flush would wait for writes that never start. */
  private readonly maxWrites: number;

  constructor(
    private readonly store: Pick<ApiRequestStore, 'write'>,
    private readonly options: RecorderOptions = {},
  ) {
    this.maxWrites = Math.max(1, options.maxWrites ?? MAX_WRITES);
  }

  record(entry: ApiRequestRecord): void {
    if (this.held >= MAX_HELD) {
      if (this.dropped++ === 0)
        log.warn('request history: too many records wait to be written; dropping new ones', {
          held: this.held,
        });
      return;
    }
    this.reportDropped();
    this.queue.push(entry);
    this.schedule();
  }

  /** Records waiting to be written. */
  private get held(): number {
    return this.queue.length - this.head;
  }

  /** The next batch; the written part of the queue is let go once it is half of it. */
  private take(): ApiRequestRecord[] {
    const batch = this.queue.slice(this.head, this.head + BATCH_SIZE);
    this.head += batch.length;
    if (this.head * 2 >= this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return batch;
  }

  /** Logs how many were dropped once the backlog has drained to half: when a record arrives, or a write ends. */
  private reportDropped(): void {
    if (this.dropped === 0 || this.held >= MAX_HELD / 2) return;
    log.warn('request history: records dropped while too many waited', { dropped: this.dropped });
    this.dropped = 0;
  }

  /** Writes everything held and waits for every write under way; never rejects. */
  async flush(): Promise<void> {
    while (this.held > 0 || this.writing.size > 0) {
      this.startWrites(true, { evenIfHeld: true });
      await Promise.race(this.writing);
    }
  }

  /**
   * A full batch is written on the next turn of the event loop: by then the answer that completed it has
   * been handed to the socket. A partial one waits for the timer, when there is one.
   */
  private schedule(): void {
    if (this.held >= BATCH_SIZE) {
      if (this.writeScheduled) return;
      this.writeScheduled = true;
      setImmediate(() => {
        this.writeScheduled = false;
        this.startWrites(false);
      });
    } else if (this.held > 0 && this.timer === undefined && this.options.flushAfterMs !== undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.startWrites(true);
      }, this.options.flushAfterMs).unref();
    }
  }

  /**
   * Starts writing full batches (and with `all`, a last partial one) while fewer than `maxWrites` are under
   * way; not while `holdWhile` holds them, unless `evenIfHeld` (a flush).
   */
  private startWrites(all: boolean, { evenIfHeld = false } = {}): void {
    if (!evenIfHeld && this.holding()) return;
    while (this.writing.size < this.maxWrites && (this.held >= BATCH_SIZE || (all && this.held > 0))) {
      const batch = this.take();
      this.lastWriteAt = Date.now();
      const write: Promise<void> = Promise.resolve()
        .then(() => this.store.write(batch))
        .catch((error: unknown) => {
          log.warn('request history: a batch could not be written and is dropped', {
            records: batch.length,
            error,
          });
        })
        .finally(() => {
          this.writing.delete(write);
          this.reportDropped();
          this.schedule();
        });
      this.writing.add(write);
    }
  }

  /** Whether `holdWhile` holds the writes now; if so, they are tried again shortly. */
  private holding(): boolean {
    const { holdWhile, maxHoldMs = MAX_HOLD_MS } = this.options;
    if (!holdWhile || this.held === 0 || Date.now() - this.lastWriteAt >= maxHoldMs || !holdWhile())
      return false;
    this.recheck ??= setTimeout(() => {
      this.recheck = undefined;
      this.startWrites(true);
    }, HOLD_RECHECK_MS).unref();
    return true;
  }
}

/** Records nothing: the local stack's `REQUEST_HISTORY=off`, the bench's measure of what recording costs. */
export const notRecording: ApiRequestRecorder = {
  record: () => {},
  flush: async () => {},
};
