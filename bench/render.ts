// bench -> section 3: pages rendered per second by PdfjsRenderer (pdf.js + @napi-rs/canvas) on a 30-page
// text contract and a 30-page scanned one, against `mutool draw` (MuPDF) and `pdftoppm` (Poppler) on the
// same files at the same resolution, all writing PNG files; and our JPEG pages (WebP thumbnails), the
// formats the service stores, and WebP pages, which it stored before, for their bytes against their time.
// Our renderer also makes a thumbnail and reads the text of every page; the others only draw. It renders
// in threads (one per CPU, at most 4); the "in one thread" row renders in the calling thread, as a
// bundle without the threads' module does (the Lambda function, for now).
import { execFile } from 'node:child_process';
import { mkdir, open, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import type { ImageFormat } from '../lambdas/adapters/pdf/pdfjs-page';
import { defaultThreads, PdfjsRenderer } from '../lambdas/adapters/pdf/pdfjs-renderer';
import type { BlobStore } from '../lambdas/core/ports';
import { contractPdf, repeatedPagePdf, scannedPdf } from '../test/support/pdfs';
import { median, mib, ms, ratio, round, table, verdict } from './report';

const PAGES = 30;
const DPI = 150;
/** Dots per inch of the scanned contract's page images: a common scanner setting. */
const SCAN_DPI = 300;
const RUNS = 3;
const GOAL_SHARE_OF_MUTOOL = 0.5;
const INSTALL_HINT = 'apt-get install -y mupdf-tools poppler-utils';

const run = promisify(execFile);

/** The blob store as files under a directory: the renderer reads and writes the same disk as the tools. */
export class FileBlobs implements Pick<BlobStore, 'put' | 'readRange'> {
  constructor(private readonly root: string) {}
  async put(key: string, body: AsyncIterable<Uint8Array>): Promise<{ size: number }> {
    const file = path.join(this.root, key);
    await mkdir(path.dirname(file), { recursive: true });
    const chunks: Uint8Array[] = [];
    for await (const chunk of body) chunks.push(chunk);
    await writeFile(file, chunks);
    return { size: chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0) };
  }
  async readRange(key: string, start: number, end: number): Promise<Uint8Array> {
    const file = await open(path.join(this.root, key));
    try {
      const buffer = Buffer.alloc(end - start);
      const { bytesRead } = await file.read(buffer, 0, end - start, start);
      return buffer.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  }
  async delete(key: string): Promise<void> {
    await rm(path.join(this.root, key), { force: true });
  }
}

interface Timing {
  seconds: number;
  cpuSeconds: number;
  /** Bytes of the page images written (thumbnails not counted). */
  imageBytes: number;
}

interface Figures {
  tool: string;
  document: string;
  runs: Timing[];
  pagesPerSecond: number;
  cpuMsPerPage: number;
  kibPerPage: number;
}

const sizeOf = async (directory: string, match: (name: string) => boolean): Promise<number> => {
  let total = 0;
  for (const name of await readdir(directory, { recursive: true }))
    if (match(name)) total += (await stat(path.join(directory, name))).size;
  return total;
};

/** One run of PdfjsRenderer: wall time and this process's CPU (every thread, so the encoders too). */
const renderOnce = async (
  pdf: string,
  out: string,
  format: ImageFormat,
  threads?: number,
): Promise<Timing> => {
  const blobs = new FileBlobs('/');
  const { size } = await stat(pdf);
  // Each run starts its own threads (as mutool starts its process), none kept after it.
  const renderer = new PdfjsRenderer(blobs, {
    format,
    dpi: DPI,
    idleThreadMs: 0,
    ...(threads !== undefined && { threads }),
  });
  const cpu = process.cpuUsage();
  const started = performance.now();
  await renderer.render({
    contractReviewId: 'bench',
    version: 1,
    pdfKey: pdf,
    pdfSize: size,
    outputPrefix: `${out}/`,
    deadline: Date.now() + 600_000,
  });
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return {
    seconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    imageBytes: await sizeOf(out, (name) => name.startsWith('page-')),
  };
};

/** Runs a command line under bash; rejects when it fails. */
export const runTool = (command: string) => run('bash', ['-c', command]);

/** One run of a command line tool under bash, whose `times` reports the CPU its children used. */
export const toolOnce = async (command: string, out: string): Promise<Timing> => {
  const started = performance.now();
  const { stdout } = await run('bash', ['-c', `${command} >/dev/null 2>&1 && times`]);
  const seconds = (performance.now() - started) / 1000;
  // `times` prints the shell's user and system time, then its children's: "0m0.990s 0m0.201s".
  const children = stdout.trim().split('\n')[1] ?? '';
  const cpuSeconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce(
    (sum, [, minutes, secs]) => sum + Number(minutes) * 60 + Number(secs),
    0,
  );
  return { seconds, cpuSeconds, imageBytes: await sizeOf(out, (name) => name.endsWith('.png')) };
};

const measure = async (
  tool: string,
  document: string,
  once: (out: string) => Promise<Timing>,
  workDir: string,
): Promise<Figures> => {
  const runs: Timing[] = [];
  // One warm-up run (pdf.js's code compiled, files in the page cache), then the measured ones.
  for (let n = 0; n <= RUNS; n++) {
    const out = path.join(workDir, 'out');
    await rm(out, { recursive: true, force: true });
    await mkdir(out, { recursive: true });
    const timing = await once(out);
    if (n > 0) runs.push(timing);
  }
  const seconds = median(runs.map((r) => r.seconds));
  return {
    tool,
    document,
    runs,
    pagesPerSecond: PAGES / seconds,
    cpuMsPerPage: (median(runs.map((r) => r.cpuSeconds)) / PAGES) * 1000,
    kibPerPage: median(runs.map((r) => r.imageBytes)) / PAGES / 1024,
  };
};

export const installed = async (command: string): Promise<boolean> =>
  run('bash', ['-c', `command -v ${command}`]).then(
    () => true,
    () => false,
  );

/** One A4 page's canvas at 24 dpi (248 × 351 pixels of 4 bytes), what a page kept by the renderer would add. */
const PAGE_CANVAS_KIB = (Math.round((595.28 / 72) * 24) * Math.round((841.89 / 72) * 24) * 4) / 1024;

/** The least-squares slope of `y` over `x`. */
const slope = (points: Array<[x: number, y: number]>): number => {
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length;
  const covariance = points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0);
  return covariance / points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
};

/** The limits the renderer keeps, as figures (the tests check only what cannot flake on a loaded machine). */
interface Limits {
  /** RSS growth from page 200 to page 1,000 of a 1,000-page contract at 24 dpi. */
  growthMiB: number;
  /** Its fitted trend per page. */
  kibPerPage: number;
  /** How long after its deadline a render that cannot finish answers `timed_out`, median of runs. */
  lateMs: number[];
}

const LIMIT_PAGES = 1000;

/** A 1,000-page contract rendered at 24 dpi (memory per page), and renders cut off by a deadline. */
const measureLimits = async (dir: string): Promise<Limits> => {
  const pdf = path.join(dir, 'thousand.pdf');
  await writeFile(pdf, await repeatedPagePdf(await contractPdf(1), LIMIT_PAGES));
  const { size } = await stat(pdf);
  const blobs = new FileBlobs('/');
  const request = (outputPrefix: string, deadline: number) => ({
    contractReviewId: 'bench',
    version: 1,
    pdfKey: pdf,
    pdfSize: size,
    outputPrefix,
    deadline,
  });
  const samples: Array<[number, number]> = [];
  const out = path.join(dir, 'limits');
  await new PdfjsRenderer(blobs, {
    format: 'webp',
    dpi: 24,
    thumbnailWidth: 40,
    idleThreadMs: 0,
    onPage: (done) => {
      if (done % 50 === 0) samples.push([done, process.memoryUsage().rss]);
    },
  }).render(request(`${out}/`, Date.now() + 600_000));
  const warm = samples.filter(([page]) => page >= 200);
  const first = warm[0]?.[1] ?? 0;
  const last = warm.at(-1)?.[1] ?? 0;
  const lateMs: number[] = [];
  for (let n = 0; n < RUNS; n++) {
    const deadline = Date.now() + 500;
    await new PdfjsRenderer(blobs, { format: 'webp', dpi: DPI, idleThreadMs: 0 })
      .render(request(`${out}/late-${n}/`, deadline))
      .catch(() => undefined);
    lateMs.push(Date.now() - deadline);
  }
  await rm(out, { recursive: true, force: true });
  return { growthMiB: (last - first) / 1024 / 1024, kibPerPage: slope(warm) / 1024, lateMs };
};

/**
 * Runs section 3 of the bench in `workDir` and prints it: a table, the ratios to mutool, and one JSON
 * line. Without mutool or pdftoppm, says how to install them and compares with what there is.
 */
export const renderingSection = async (workDir: string, progress: (message: string) => void) => {
  const dir = path.join(workDir, 'render');
  await mkdir(dir, { recursive: true });
  progress(`rendering: writing a ${PAGES}-page text contract and a ${PAGES}-page ${SCAN_DPI} dpi scan…`);
  const documents = {
    text: path.join(dir, 'text.pdf'),
    scanned: path.join(dir, 'scanned.pdf'),
  };
  await writeFile(documents.text, await contractPdf(PAGES));
  await writeFile(documents.scanned, await scannedPdf(PAGES, SCAN_DPI));
  const hasMutool = await installed('mutool');
  const hasPdftoppm = await installed('pdftoppm');

  const figures: Figures[] = [];
  for (const [document, pdf] of Object.entries(documents)) {
    progress(`rendering the ${document} contract (${RUNS} runs each)…`);
    figures.push(await measure('PdfjsRenderer PNG', document, (out) => renderOnce(pdf, out, 'png'), dir));
    figures.push(await measure('PdfjsRenderer JPEG', document, (out) => renderOnce(pdf, out, 'jpeg'), dir));
    figures.push(await measure('PdfjsRenderer WebP', document, (out) => renderOnce(pdf, out, 'webp'), dir));
    figures.push(
      await measure(
        'PdfjsRenderer JPEG, in one thread',
        document,
        (out) => renderOnce(pdf, out, 'jpeg', 0),
        dir,
      ),
    );
    if (hasMutool)
      figures.push(
        await measure(
          'mutool draw PNG',
          document,
          (out) => toolOnce(`mutool draw -q -r ${DPI} -o '${out}/page-%d.png' '${pdf}'`, out),
          dir,
        ),
      );
    if (hasPdftoppm)
      figures.push(
        await measure(
          'pdftoppm PNG',
          document,
          (out) => toolOnce(`pdftoppm -r ${DPI} -png '${pdf}' '${out}/page'`, out),
          dir,
        ),
      );
  }
  progress(`rendering a ${LIMIT_PAGES}-page contract, and renders cut off by their deadline…`);
  const limits = await measureLimits(dir);
  await rm(dir, { recursive: true, force: true });

  const find = (tool: string, document: string) =>
    figures.find((f) => f.tool === tool && f.document === document);
  console.log(
    `\n3. Rendering ${PAGES}-page contracts at ${DPI} dpi (A4: 1240 x 1754 px): a text contract, and a ` +
      `scan (one ${SCAN_DPI} dpi JPEG a page); median of ${RUNS} runs after a warm-up\n`,
  );
  console.log(
    '   PdfjsRenderer also makes a 200 px thumbnail and reads the text of each page; its CPU counts every',
  );
  console.log(
    `   thread. It renders in ${defaultThreads()} threads (one per CPU, at most 4), each encoding a page while ` +
      'drawing the next;',
  );
  console.log(
    '   "in one thread": in the calling thread, as the Lambda bundle does. The tools are single-threaded.\n',
  );
  console.log(
    table([
      ['document', 'tool', 'pages/s', 'runs (s)', 'CPU per page', 'image per page', 'vs mutool'],
      ...figures.map((f) => {
        const mutool = find('mutool draw PNG', f.document);
        return [
          f.document,
          f.tool,
          f.pagesPerSecond.toFixed(1),
          f.runs.map((r) => r.seconds.toFixed(2)).join(' '),
          `${f.cpuMsPerPage.toFixed(0)} ms`,
          `${f.kibPerPage.toFixed(0)} KiB`,
          mutool ? ratio(f.pagesPerSecond / mutool.pagesPerSecond) : 'n/a',
        ];
      }),
    ]),
  );
  if (!hasMutool || !hasPdftoppm)
    console.log(
      `\n   ${[!hasMutool && 'mutool', !hasPdftoppm && 'pdftoppm'].filter(Boolean).join(' and ')} not ` +
        `installed: no comparison with it. Install with: ${INSTALL_HINT}`,
    );

  const share = (document: string, tool = 'PdfjsRenderer PNG') => {
    const ours = find(tool, document);
    const mutool = find('mutool draw PNG', document);
    return ours && mutool ? ours.pagesPerSecond / mutool.pagesPerSecond : null;
  };
  for (const document of Object.keys(documents)) {
    const png = share(document);
    if (png !== null)
      console.log(
        `   ${document}: PdfjsRenderer PNG at ${ratio(png)} mutool's pages/s (goal ≥ ${ratio(GOAL_SHARE_OF_MUTOOL)}: ` +
          `${verdict(png >= GOAL_SHARE_OF_MUTOOL)}); JPEG at ${ratio(share(document, 'PdfjsRenderer JPEG') ?? 0)}, ` +
          `WebP at ${ratio(share(document, 'PdfjsRenderer WebP') ?? 0)}`,
      );
  }
  console.log(
    `\n   Limits: a ${LIMIT_PAGES}-page contract at 24 dpi grows the process by ${mib(limits.growthMiB)} from page ` +
      `200 to ${LIMIT_PAGES} (trend ${limits.kibPerPage.toFixed(1)} KiB a page, ${ratio(limits.kibPerPage / PAGE_CANVAS_KIB)} of ` +
      `one page's 24 dpi canvas: a page kept would be 1.00 or more);`,
  );
  console.log(
    `   a render that cannot finish answers timed_out ${limits.lateMs.map(ms).join(', ')} after its deadline ` +
      `(median ${ms(median(limits.lateMs))}).`,
  );
  const summary = {
    rendering: {
      pages: PAGES,
      dpi: DPI,
      scan_dpi: SCAN_DPI,
      figures: figures.map((f) => ({
        document: f.document,
        tool: f.tool,
        pages_per_second: round(f.pagesPerSecond, 1),
        cpu_ms_per_page: round(f.cpuMsPerPage, 0),
        kib_per_page: round(f.kibPerPage, 0),
      })),
      share_of_mutool_png: {
        text: share('text') === null ? null : round(share('text') as number),
        scanned: share('scanned') === null ? null : round(share('scanned') as number),
      },
      limits: {
        growth_mib_pages_200_to_1000: round(limits.growthMiB, 1),
        kib_per_page: round(limits.kibPerPage, 1),
        late_after_deadline_ms: limits.lateMs.map((value) => round(value, 0)),
      },
      mutool_installed: hasMutool,
      pdftoppm_installed: hasPdftoppm,
    },
  };
  console.log(`\n${JSON.stringify(summary)}`);
};
