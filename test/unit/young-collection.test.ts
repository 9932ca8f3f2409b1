// A large body's chunks pass through the Node host unchanged, with a minor collection every 16 MiB read
// (so Node's read buffers are freed as the body streams), and stopping early leaves the request whole.
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { collectingYoung, YOUNG_COLLECTION_BYTES } from '../../lambdas/hosts/http/young-collection';

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

test('a minor collection runs each time another 16 MiB has been read, and no global gc appears', async () => {
  const minors: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { detail } = entry as PerformanceEntry & { detail?: { kind?: number } };
      if (detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) minors.push(1);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  try {
    const count = (3 * YOUNG_COLLECTION_BYTES) / MiB;
    const chunks = collectingYoung(Readable.from(chunksOf(count, MiB))[Symbol.asyncIterator]());
    while (!(await chunks.next()).done);
    // gc entries are delivered after the collection, on a later turn.
    for (let turn = 0; turn < 1000 && minors.length < 3; turn++) await nextTurn();
    expect(minors.length).toBeGreaterThanOrEqual(3);
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
