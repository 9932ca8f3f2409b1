// A large body's chunks pass through the Node host unchanged, with a minor collection every 16 MiB read
// (so Node's read buffers are freed as the body streams), and stopping early leaves the request whole.
import { PerformanceObserver } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  collectingYoung,
  minorCollector,
  YOUNG_COLLECTION_BYTES,
} from '../../lambdas/hosts/http/young-collection';

const MiB = 1024 * 1024;

const chunksOf = (count: number, size: number) =>
  Array.from({ length: count }, (_, i) => Buffer.alloc(size, i % 251));

test('every chunk comes through as it was, in order', async () => {
  const sent = chunksOf(40, 64 * 1024);
  const chunks = collectingYoung(Readable.from(sent)[Symbol.asyncIterator]());
  const got: Uint8Array[] = [];
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) got.push(next.value);
  expect(got).toEqual(sent);
});

test('a minor collection is asked for each time another 16 MiB has been read, not before', async () => {
  let collections = 0;
  const chunks = collectingYoung(
    Readable.from(chunksOf((3 * YOUNG_COLLECTION_BYTES) / MiB - 1, MiB))[Symbol.asyncIterator](),
    () => {
      collections += 1;
    },
  );
  while (!(await chunks.next()).done);
  // 48 MiB less one: the third 16 MiB is never completed.
  expect(collections).toBe(2);
});

test('the collector is V8’s own collection, taken with no global gc appearing', async () => {
  // Any kind: V8 may run a young collection as a full one when the old generation is near its limit.
  const collections: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { detail } = entry as PerformanceEntry & { detail?: { kind?: number } };
      if (detail?.kind !== undefined) collections.push(detail.kind);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  try {
    const collect = minorCollector();
    expect(collect).toEqual(expect.any(Function));
    collect?.({ type: 'minor' });
    // gc entries are delivered after the collection, on a later turn.
    for (let turn = 0; turn < 1000 && collections.length === 0; turn++) await nextTurn();
    expect(collections.length).toBeGreaterThanOrEqual(1);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  } finally {
    observer.disconnect();
  }
});

test('stopping early goes to the source as asked: a source kept whole stays readable', async () => {
  const source = Readable.from(chunksOf(8, 1024), { objectMode: false });
  const chunks = collectingYoung(source.iterator({ destroyOnReturn: false }));
  await chunks.next();
  await chunks.return?.();
  expect(source.destroyed).toBe(false);
  const rest: Buffer[] = [];
  for await (const chunk of source) rest.push(chunk as Buffer);
  expect(rest.length).toBeGreaterThan(0);
});
