// local -> the local stack's standard output gathered into one write per turn of the event loop. Writes to
// a pipe or a file are synchronous (Node's "A note on process I/O"), and the stack logs a line per
// request: under bench -- get's load, a write(2) a line held a fifth of the main thread by its CPU profile.
// A turn's lines are joined into one string and written once when the turn ends (or sooner, past
// MAX_HELD characters), whatever the stream: a file's (SyncWriteStream) has no writev, so corking it
// still wrote each line alone. Anything but a plain string (a Buffer, a callback) first sends what is
// held, then goes as it came, so the order is kept; the process's exit sends whatever is still held.
import type { Writable } from 'node:stream';

/** Characters held before they are written without waiting for the turn's end: bounds the held text. */
const MAX_HELD = 1024 * 1024;

export const writeOncePerTurn = (stream: Writable): void => {
  const write = stream.write as (this: Writable, ...args: unknown[]) => boolean;
  let held = '';
  let releaseQueued = false;
  const release = () => {
    releaseQueued = false;
    if (held === '') return;
    const text = held;
    held = '';
    write.call(stream, text);
  };
  stream.write = function (this: Writable, chunk: unknown, ...rest: unknown[]): boolean {
    if (typeof chunk !== 'string' || rest.length > 0) {
      release();
      return write.apply(this, [chunk, ...rest]);
    }
    held += chunk;
    if (held.length >= MAX_HELD) release();
    else if (!releaseQueued) {
      releaseQueued = true;
      setImmediate(release);
    }
    return true;
  } as Writable['write'];
  process.once('exit', release);
};
