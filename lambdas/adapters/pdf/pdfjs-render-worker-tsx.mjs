// adapters -> how a rendering thread starts from the sources (under tsx, or jest, which does not load
// modules through tsx): pdf.js and Skia are loaded first, at Node's own speed, then tsx's loader for
// the thread's TypeScript module. Loaded through tsx's loader, pdf.js took about 0.6 s more of every
// thread's start. (A bundle starts its threads from `pdfjs-render-worker.mjs` instead.)
import 'pdfjs-dist/legacy/build/pdf.mjs';
import 'pdfjs-dist/legacy/build/pdf.worker.mjs';
import '@napi-rs/canvas';
import { register } from 'tsx/esm/api';

register();
await import('./pdfjs-render-worker.ts');
