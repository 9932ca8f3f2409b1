// adapters -> the module a rendering thread runs (see pdfjs-render-thread.ts): one render at a time, each
// opening its own PDF with pdf.js in this thread (`open`), painting pages on request and destroying the
// document and its canvases at `close`, after which the thread may wait for another render. Range reads
// are asked of the thread that started this one, which reads the blob store.
import { parentPort } from 'node:worker_threads';
import type { RangeSource } from './pdfjs-document';
import { PageFailed } from './pdfjs-page';
import { InlinePages } from './pdfjs-pages';
import { type FromThread, type ToThread, toWire } from './pdfjs-render-thread';

if (!parentPort) throw new Error('pdfjs-render-worker runs in a worker thread');
const port = parentPort;
const post = (message: FromThread) => port.postMessage(message);

// pdf.js, destroyed while it still loads a document (a render's `close` after a file that does not open),
// rejects a promise of its own that nobody awaits: "Worker was terminated". That document is gone and the
// thread is sound. Anything else unhandled ends the thread, as it would without this listener.
process.on('unhandledRejection', (reason) => {
  if (reason instanceof Error && reason.message === 'Worker was terminated') return;
  throw reason;
});

/** Range reads under way, by id (unique for the thread's life, so a late answer to a closed render finds none). */
const reads = new Map<number, PromiseWithResolvers<Uint8Array>>();
let lastRead = 0;
/** The render under way; what an earlier one still answers (a load it was destroyed in) is not posted. */
let current: InlinePages | null = null;

const open = (message: Extract<ToThread, { type: 'open' }>): void => {
  let pages: InlinePages | null = null;
  const ours = () => pages !== null && pages === current;
  const ranges: RangeSource = {
    read(begin, end) {
      if (pages !== null && !ours()) return Promise.reject(new Error('The render has ended.'));
      const id = ++lastRead;
      const read = Promise.withResolvers<Uint8Array>();
      reads.set(id, read);
      post({ type: 'read', id, begin, end });
      return read.promise;
    },
  };
  pages = new InlinePages(ranges, message.init);
  current = pages;
  pages.opened.then(
    (total) => ours() && post({ type: 'opened', total }),
    (error: unknown) => ours() && post({ type: 'unopenable', error: toWire(error) }),
  );
};

const close = async (): Promise<void> => {
  const pages = current;
  current = null;
  for (const read of reads.values()) read.reject(new Error('The render has ended.'));
  reads.clear();
  await pages?.close();
  post({ type: 'closed' });
};

port.on('message', (message: ToThread) => {
  switch (message.type) {
    case 'open':
      open(message);
      return;
    case 'close':
      void close();
      return;
    case 'range': {
      const read = reads.get(message.id);
      reads.delete(message.id);
      if (message.bytes) read?.resolve(message.bytes);
      else read?.reject(new Error('The range could not be read.'));
      return;
    }
    case 'paint': {
      const pages = current;
      const { number } = message;
      if (pages === null) return;
      pages.paint(number).then(
        (page) => pages === current && post({ type: 'painted', page }),
        (error: unknown) =>
          pages === current &&
          post({ type: 'failed', number, pageFailed: error instanceof PageFailed, error: toWire(error) }),
      );
    }
  }
});
