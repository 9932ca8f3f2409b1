// adapters -> how a rendering thread starts from the sources (under tsx, or jest, which does not load
// modules through tsx): pdf.js and Skia are loaded first, at Node's own speed, then tsx's loader for
// the thread's TypeScript module. Loaded through tsx's loader, pdf.js took about 0.6 s more of every
// thread's start (its worker code 1.3 s of CPU). (A bundle starts its threads from `pdfjs-render-worker.mjs`
// instead.) Before pdf.js's worker code, the Skia JPEG decoder it looks for as it loads; Node strips
// that module's types itself.
import './skia-jpeg-decoder.ts';
import 'pdfjs-dist/legacy/build/pdf.mjs';
import 'pdfjs-dist/legacy/build/pdf.worker.mjs';
import '@napi-rs/canvas';
import { register } from 'tsx/esm/api';

register();
await import('./pdfjs-render-worker.ts');
