// host -> young-generation collections while a large body streams in. Node gives every socket read a
// new buffer (up to 64 KiB) outside V8's heap. A body's chunks are garbage once read, but V8 frees such
// buffers only when it collects the young generation, and streaming allocates too few JS objects to
// fill it: 100 MiB of them built up until V8 ran full mark-compacts of the whole heap (~100 MB in the
// local stack) for "external memory pressure", 3–5 in a first 100 MiB upload. A minor collection every
// few MiB read frees them in ~1 ms each, before that pressure is reached.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Body bytes read between two minor collections: well under the 64 MiB at which V8 starts marking. */
export const YOUNG_COLLECTION_BYTES = 16 * 1024 * 1024;

type Collect = (options: { type: 'minor' }) => void;

let collect: Collect | null | undefined;

/**
 * V8's `gc`, taken once without `--expose-gc` on the command line: the flag holds only while a new
 * context is made, so no global `gc` appears anywhere (Jest's `--logHeapUsage` takes it the same way;
 * Node warns that flags changed after start may do nothing, and then this is null: nothing is done).
 */
export const minorCollector = (): Collect | null => {
  if (collect !== undefined) return collect;
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    collect = typeof gc === 'function' ? (gc as Collect) : null;
  } catch {
    collect = null;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  return collect;
};

/** V8's minor collection, when this process could take V8's `gc`. */
const collectYoung = (): void => minorCollector()?.({ type: 'minor' });

/**
 * `chunks` as they are, with a minor collection (`collect`; a test counts its calls) each time another
 * `YOUNG_COLLECTION_BYTES` have been read; `return` goes to `chunks` unchanged (the caller's choice of
 * destroying the source or not holds).
 */
export const collectingYoung = (
  chunks: AsyncIterator<Uint8Array>,
  collect: () => void = collectYoung,
): AsyncIterator<Uint8Array> => {
  let since = 0;
  const counted = (result: IteratorResult<Uint8Array>): IteratorResult<Uint8Array> => {
    if (!result.done) {
      since += result.value.byteLength;
      if (since >= YOUNG_COLLECTION_BYTES) {
        since = 0;
        collect();
      }
    }
    return result;
  };
  return {
    next: () => chunks.next().then(counted),
    return: (value?: unknown) => chunks.return?.(value) ?? Promise.resolve({ done: true, value: undefined }),
  };
};
