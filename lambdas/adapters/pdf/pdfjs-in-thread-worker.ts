// adapters -> pdf.js's worker side run in this thread over a port of our own, so that a JPEG decoded by
// Skia (skia-jpeg-decoder.ts) reaches pdf.js's canvas as it is. In Node pdf.js runs its worker code in
// the calling thread anyway ("fake worker"), but its loopback port structured-clones every message, as a
// real worker's would, and a native Skia image cannot be cloned. This port clones every message the same
// way except one that hands over a decoded image: that message holds the image and plain numbers, and
// the worker side keeps nothing of it (in a browser the image would be transferred, not copied).
import { PDFWorker } from 'pdfjs-dist/legacy/build/pdf.mjs';
// @ts-expect-error pdf.js ships no types for its worker module; WorkerMessageHandler is its one export.
import { WorkerMessageHandler } from 'pdfjs-dist/legacy/build/pdf.worker.mjs';
import { isDecodedFrame } from './skia-jpeg-decoder';

type Listener = (event: { data: unknown }) => void;

/** Both ends of pdf.js's messages in one thread: each side's handler listens for the other's name. */
class InThreadPort {
  private readonly listeners = new Set<Listener>();
  private readonly delivered = Promise.resolve();

  postMessage(message: unknown, transfer?: unknown[]): void {
    const data = transfer?.some(isDecodedFrame)
      ? message
      : structuredClone(message, transfer ? { transfer: transfer as Transferable[] } : undefined);
    // Delivered in order, after the sender's turn, as a port would.
    void this.delivered.then(() => {
      for (const listener of this.listeners) listener.call(this, { data });
    });
  }

  addEventListener(_type: 'message', listener: Listener, options?: { signal?: AbortSignal }): void {
    if (options?.signal?.aborted) return;
    this.listeners.add(listener);
    options?.signal?.addEventListener('abort', () => this.listeners.delete(listener), { once: true });
  }

  removeEventListener(_type: 'message', listener: Listener): void {
    this.listeners.delete(listener);
  }

  terminate(): void {
    this.listeners.clear();
  }
}

/**
 * A pdf.js worker for one document, its worker side in this thread. `getDocument({ worker })` leaves
 * it running: the caller destroys it after the document's loading task.
 */
export const inThreadPdfWorker = (): PDFWorker => {
  const port = new InThreadPort();
  (WorkerMessageHandler as { initializeFromPort(port: InThreadPort): void }).initializeFromPort(port);
  // pdf.js types `port` as null alone, though it documents and takes a worker's port there.
  return new PDFWorker({ port: port as unknown as null });
};
