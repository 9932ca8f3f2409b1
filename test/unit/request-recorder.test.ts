// The request history's recorder, in process over a store that keeps what it is given: records held and
// written in batches of 25 after the answer's turn, on the host's timer or when it flushes; a failed write
// logged and dropped; a bounded backlog. The DynamoDB store itself is tested in test/adapters.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ApiRequestStore } from '../../lambdas/core/ports';
import type { ApiRequestRecord } from '../../lambdas/core/request-history/model';
import { BATCH_SIZE, BatchingRecorder, MAX_HELD } from '../../lambdas/core/request-history/recorder';
import { eventually } from '../support/eventually';
import { linesOf } from '../support/log-capture';

let counter = 0;
const entry = (): ApiRequestRecord => {
  counter += 1;
  return {
    id: `rqs_${String(counter).padStart(8, '0')}`,
    time: 1_763_717_400_000_000 + counter,
    method: 'GET',
    path: '/v1/contract-reviews',
    status: 200,
    durationMs: 3,
    environment: 'sandbox',
    integrationId: 'int_recorder',
  };
};
const entries = (n: number) => Array.from({ length: n }, entry);

/** A store that keeps each batch it is given; `failing` makes its writes reject. */
class KeepingStore implements Pick<ApiRequestStore, 'write'> {
  readonly batches: ApiRequestRecord[][] = [];
  failing = false;
  async write(records: readonly ApiRequestRecord[]): Promise<void> {
    if (this.failing) throw new Error('table unavailable');
    this.batches.push([...records]);
  }
  get written(): ApiRequestRecord[] {
    return this.batches.flat();
  }
}

test('without a timer (a Lambda), records wait for the flush, then go in order in batches of at most 25', async () => {
  const store = new KeepingStore();
  const recorder = new BatchingRecorder(store);
  const recorded = entries(3);
  for (const e of recorded) recorder.record(e);
  await nextTurn();
  expect(store.batches).toEqual([]);
  await recorder.flush();
  expect(store.written).toEqual(recorded);
  await recorder.flush();
  expect(store.batches).toHaveLength(1);

  const many = entries(2 * BATCH_SIZE + 1);
  for (const e of many) recorder.record(e);
  await recorder.flush();
  expect(store.written).toEqual([...recorded, ...many]);
  expect(store.batches.map((b) => b.length)).toEqual([3, BATCH_SIZE, BATCH_SIZE, 1]);
});

test('a full batch is written by itself, but not before the turn that recorded it ends', async () => {
  const store = new KeepingStore();
  const recorder = new BatchingRecorder(store);
  const batch = entries(BATCH_SIZE);
  for (const e of batch) recorder.record(e);
  // Recording the 25th started no write within the turn that answered its call.
  await Promise.resolve();
  expect(store.batches).toEqual([]);
  await eventually(
    async () => store.batches.length,
    (n) => n === 1,
    { what: 'the full batch written' },
  );
  expect(store.written).toEqual(batch);
});

test('with a timer (a long-running host), a lone record is written without a flush', async () => {
  const store = new KeepingStore();
  const recorder = new BatchingRecorder(store, { flushAfterMs: 5 });
  const lone = entry();
  recorder.record(lone);
  await eventually(
    async () => store.written,
    (written) => written.length === 1,
    { what: 'the lone record written' },
  );
  expect(store.written).toEqual([lone]);
});

test('a batch that cannot be written is logged and dropped; the flush resolves and later records are written', async () => {
  const store = new KeepingStore();
  const recorder = new BatchingRecorder(store);
  store.failing = true;
  const lost = entries(2);
  const lines = await linesOf(async () => {
    for (const e of lost) recorder.record(e);
    await recorder.flush();
  });
  expect(lines).toEqual([
    expect.objectContaining({
      level: 'WARN',
      message: 'request history: a batch could not be written and is dropped',
      records: 2,
      error: expect.objectContaining({ message: 'table unavailable' }),
    }),
  ]);
  store.failing = false;
  const kept = entry();
  recorder.record(kept);
  await recorder.flush();
  expect(store.written).toEqual([kept]);
});

/** `MAX_HELD + extra` records in one turn (no write can start meanwhile), a flush, then `after`. */
const flood = async (extra: number, after: (recorder: BatchingRecorder) => void = () => {}) => {
  const store = new KeepingStore();
  const recorder = new BatchingRecorder(store);
  const lines = await linesOf(async () => {
    for (let i = 0; i < MAX_HELD + extra; i++) recorder.record(entry());
    await recorder.flush();
    after(recorder);
  });
  return { written: store.written, logged: lines.map((line) => [line.message, line.held ?? line.dropped]) };
};

test('past MAX_HELD waiting records, new ones are dropped and counted, not held', async () => {
  const { written, logged } = await flood(10, (recorder) => recorder.record(entry()));
  expect(written).toHaveLength(MAX_HELD);
  expect(logged).toEqual([
    ['request history: too many records wait to be written; dropping new ones', MAX_HELD],
    ['request history: records dropped while too many waited', 10],
  ]);
});

test('the count of records dropped is logged once the backlog has drained, with no later record to tell it', async () => {
  // The flood ends with its flush: no call comes after it, as when a load stops or the host stops.
  const { written, logged } = await flood(3);
  expect(written).toHaveLength(MAX_HELD);
  expect(logged).toEqual([
    ['request history: too many records wait to be written; dropping new ones', MAX_HELD],
    ['request history: records dropped while too many waited', 3],
  ]);
});

test('no more writes under way than `maxWrites`; the flush waits for every one', async () => {
  const started: Array<() => void> = [];
  const written: ApiRequestRecord[][] = [];
  // Each write waits until the test lets it end.
  const store: Pick<ApiRequestStore, 'write'> = {
    write: (records) =>
      new Promise<void>((resolve) => {
        started.push(() => {
          written.push([...records]);
          resolve();
        });
      }),
  };
  const recorder = new BatchingRecorder(store, { maxWrites: 1 });
  for (const e of entries(3 * BATCH_SIZE)) recorder.record(e);
  await eventually(
    async () => started.length,
    (n) => n === 1,
    { what: 'the first write started' },
  );
  let flushed = false;
  const flushing = recorder.flush().then(() => {
    flushed = true;
  });
  for (let ended = 0; ended < 3; ended++) {
    await nextTurn();
    expect({ started: started.length, flushed }).toEqual({ started: ended + 1, flushed: false });
    started[ended]?.();
    await eventually(
      async () => written.length,
      (n) => n === ended + 1,
      { what: `write ${ended + 1} ended` },
    );
  }
  await flushing;
  expect(written.map((batch) => batch.length)).toEqual([BATCH_SIZE, BATCH_SIZE, BATCH_SIZE]);
});

test('while `holdWhile` says the host is saturated, writes wait; they start once it is not', async () => {
  const store = new KeepingStore();
  let saturated = false;
  let heldBack = 0;
  const recorder = new BatchingRecorder(store, {
    flushAfterMs: 5,
    holdWhile: () => {
      if (saturated) heldBack += 1;
      return saturated;
    },
    maxHoldMs: Number.MAX_SAFE_INTEGER,
  });
  // The host is not saturated at first: a full batch goes out.
  const first = entries(BATCH_SIZE);
  for (const e of first) recorder.record(e);
  await eventually(
    async () => store.written.length,
    (n) => n === BATCH_SIZE,
    { what: 'the first batch written' },
  );
  saturated = true;
  const held = entries(2 * BATCH_SIZE + 3);
  for (const e of held) recorder.record(e);
  // The recorder tries to write them (its turn, its timer, its re-checks) and is held back each time.
  await eventually(
    async () => heldBack,
    (n) => n >= 3,
    { what: 'the recorder held back three times' },
  );
  expect(store.written).toEqual(first);
  saturated = false;
  await eventually(
    async () => store.written.length,
    (n) => n === first.length + held.length,
    { what: 'the held records written once the host was no longer saturated' },
  );
  expect(store.written).toEqual([...first, ...held]);
});

test('a flush writes what is held even while the host is saturated', async () => {
  const store = new KeepingStore();
  const recorder = new BatchingRecorder(store, { holdWhile: () => true, maxHoldMs: Number.MAX_SAFE_INTEGER });
  // The first write is never held (no write has begun yet): let it go, then hold the rest.
  recorder.record(entry());
  await recorder.flush();
  const held = entries(BATCH_SIZE + 1);
  for (const e of held) recorder.record(e);
  for (let turn = 0; turn < 5; turn++) await nextTurn();
  expect(store.written).toHaveLength(1);
  await recorder.flush();
  expect(store.written.slice(1)).toEqual(held);
});

test('a host that stays saturated still writes, a batch once `maxHoldMs` has passed since the last', async () => {
  const store = new KeepingStore();
  let asked = 0;
  const recorder = new BatchingRecorder(store, {
    holdWhile: () => {
      asked += 1;
      return true;
    },
    maxHoldMs: 50,
    maxWrites: 1,
  });
  const recorded = entries(3 * BATCH_SIZE);
  for (const e of recorded) recorder.record(e);
  await eventually(
    async () => store.written.length,
    (n) => n === recorded.length,
    { what: 'every batch written, one per maxHoldMs, while always saturated' },
  );
  expect(store.written).toEqual(recorded);
  // The later batches were held at first: the recorder asked, and was told to wait.
  expect(asked).toBeGreaterThan(0);
});
