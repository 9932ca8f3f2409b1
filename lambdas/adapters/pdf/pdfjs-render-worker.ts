// adapters -> the module a rendering thread runs (see pdfjs-render-thread.ts): the pages of the PDF in
// `workerData`, opened with pdf.js in this thread and painted on request; range reads are asked of the
// thread that started this one, which reads the blob store.
import { parentPort, workerData } from 'node:worker_threads';
import type { RangeSource } from './pdfjs-document';
import { PageFailed } from './pdfjs-page';
import { InlinePages, type PagesInit } from './pdfjs-pages';
import { type FromThread, type ToThread, toWire } from './pdfjs-render-thread';

if (!parentPort) throw new Error('pdfjs-render-worker runs in a worker thread');
const port = parentPort;
const post = (message: FromThread) => port.postMessage(message);

const reads = new Map<number, PromiseWithResolvers<Uint8Array>>();
let lastRead = 0;
const ranges: RangeSource = {
  read(begin, end) {
    const id = ++lastRead;
    const read = Promise.withResolvers<Uint8Array>();
    reads.set(id, read);
    post({ type: 'read', id, begin, end });
    return read.promise;
  },
};

const pages = new InlinePages(ranges, workerData as PagesInit);
pages.opened.then(
  (total) => post({ type: 'opened', total }),
  (error: unknown) => post({ type: 'unopenable', error: toWire(error) }),
);

port.on('message', (message: ToThread) => {
  if (message.type === 'range') {
    const read = reads.get(message.id);
    reads.delete(message.id);
    if (message.bytes) read?.resolve(message.bytes);
    else read?.reject(new Error('The range could not be read.'));
    return;
  }
  const { number } = message;
  pages.paint(number).then(
    (page) => post({ type: 'painted', page }),
    (error: unknown) =>
      post({ type: 'failed', number, pageFailed: error instanceof PageFailed, error: toWire(error) }),
  );
});
