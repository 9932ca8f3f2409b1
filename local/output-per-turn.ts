// local -> the local stack's standard output gathered into one write per turn of the event loop. Writes to
// a pipe are synchronous on Linux (Node's "A note on process I/O"), and the stack logs a line per request:
// under bench -- get's load, a write(2) a line held a fifth of the main thread by its CPU profile (time
// blocked more than CPU: the answers waited behind it). Corked from a turn's first write until the next,
// the stream sends that turn's lines in one writev; the process's exit sends whatever is still held.
import type { Writable } from 'node:stream';

export const writeOncePerTurn = (stream: Writable): void => {
  const write = stream.write;
  let corked = false;
  const release = () => {
    if (!corked) return;
    corked = false;
    stream.uncork();
  };
  stream.write = function (this: Writable, ...args: Parameters<Writable['write']>) {
    if (!corked) {
      corked = true;
      stream.cork();
      setImmediate(release);
    }
    return write.apply(this, args);
  } as Writable['write'];
  process.once('exit', release);
};
