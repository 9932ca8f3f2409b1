// bench -> section 10: the contract viewer on a slow phone (issue 30's budgets). A 10-page text contract
// is published on the stack, then its viewer is opened cold in headless Chromium with Lighthouse's mobile
// profile applied through the DevTools protocol: a 390×844 screen at 3×, the CPU slowed 4×, and its
// "Slow 4G" network as DevTools applies it (562.5 ms round trip, 1,474.56 kbit/s down, 675 kbit/s up).
// Measured in the page: first contentful paint, largest contentful paint, when page 1's image had
// arrived, and the bytes transferred by the load event (later pages load lazily: not counted).
// Baseline, in the same run and under the same profile: a bare page of one <img> of the same page-1
// image, served by a plain node:http server: what showing that image costs anyway, so the ratio is what
// the viewer adds (its HTML, CSS, script and fonts).
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium } from 'playwright-core';
import { contractParts, upload } from '../test/support/api-client';
import { contractPdf } from '../test/support/pdfs';
import { isPublished, publication, waitForReview } from '../test/support/pipeline';
import { median, ms, ratio, round, table, verdict } from './report';
import type { BenchStack } from './stack';

const PAGES = 10;
const RUNS = 3;
const PUBLISH_TIMEOUT_MS = 180_000;
/** Lighthouse's mobile profile with DevTools throttling (its `throttling.mobileSlow4G` as applied). */
const PROFILE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  cpuSlowdown: 4,
  latencyMs: 562.5,
  downloadBytesPerSecond: (1_474.56 * 1024) / 8,
  uploadBytesPerSecond: (675 * 1024) / 8,
} as const;
/**
 * The budgets: the largest paint within Core Web Vitals' "good" 2.5 s on that profile (an absolute figure:
 * on a loaded machine even the bare image misses it), the viewer at most 1.5× the bare image's time to it,
 * and at most 500 KiB before the load event.
 */
const BUDGET = { lcpMs: 2_500, lcpRatio: 1.5, loadBytes: 500 * 1024 } as const;

interface Visit {
  fcpMs: number;
  lcpMs: number;
  /** Navigation start to the last byte of page 1's image. */
  imageMs: number;
  loadBytes: number;
  /** What was transferred by the load event: each resource's path (its last two parts) and bytes. */
  transfers: Array<[string, number]>;
}

/** Publishes a PDF as a contract_viewer and answers its viewer's address once it is published. */
const publishedViewer = async (stack: BenchStack, token: string, pdf: Uint8Array): Promise<string> => {
  const request = { external_reference: `bench-phone-${randomUUID()}`, product: 'contract_viewer' };
  const accepted = await upload(
    `${stack.production}/v1/contract-reviews`,
    token,
    contractParts(pdf, request),
  );
  if (accepted.status !== 202) throw new Error(`upload answered ${accepted.status}: ${accepted.text}`);
  const review = await waitForReview(
    stack.production,
    token,
    accepted.body.id as string,
    isPublished('contract_viewer'),
    PUBLISH_TIMEOUT_MS,
  );
  return publication(review, 'contract_viewer')?.url as string;
};

/** Page 1's image as the viewer links it (its address, and its bytes and type for the bare page). */
const firstPageImage = async (browser: Browser, viewerUrl: string) => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(viewerUrl);
    const src = await page.evaluate(
      () => (document.querySelector('#page-1 img') as HTMLImageElement | null)?.currentSrc ?? '',
    );
    if (src === '') throw new Error(`no page 1 image in ${viewerUrl}`);
    const response = await fetch(src);
    return {
      url: src,
      bytes: Buffer.from(await response.arrayBuffer()),
      type: response.headers.get('content-type') ?? 'application/octet-stream',
    };
  } finally {
    await context.close();
  }
};

/** A bare page that shows the image and nothing else, as a phone sizes it. */
const bareServer = async (image: { bytes: Buffer; type: string }): Promise<Server> => {
  const html =
    '<!doctype html><html lang="en"><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Page 1</title>' +
    '<body style="margin:0"><img src="/page-1" alt="Page 1" style="display:block;width:100%;height:auto">';
  const server = createServer((request, response) => {
    if (request.url === '/page-1') {
      response.writeHead(200, { 'content-type': image.type, 'content-length': image.bytes.length });
      response.end(image.bytes);
    } else {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(html);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
};

/** One cold visit under the phone profile: a new context (empty cache), throttled before navigating. */
const visit = async (browser: Browser, url: string, imageUrl: string): Promise<Visit> => {
  const context = await browser.newContext({
    viewport: PROFILE.viewport,
    deviceScaleFactor: PROFILE.deviceScaleFactor,
    isMobile: true,
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: PROFILE.latencyMs,
      downloadThroughput: PROFILE.downloadBytesPerSecond,
      uploadThroughput: PROFILE.uploadBytesPerSecond,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: PROFILE.cpuSlowdown });
    await page.goto(url, { waitUntil: 'load' });
    return await page.evaluate(
      (image) =>
        new Promise<Visit>((resolve) => {
          // Largest contentful paint is reported to an observer (buffered: the entries so far).
          new PerformanceObserver((list) => {
            // The browser's entry types (Node's typings, which this file is checked with, know fewer).
            const entriesOf = performance.getEntriesByType.bind(performance) as unknown as (
              type: 'paint' | 'resource' | 'navigation',
            ) => Array<{
              name: string;
              startTime: number;
              responseEnd: number;
              transferSize: number;
              loadEventStart: number;
            }>;
            const navigation = entriesOf('navigation')[0];
            const loadStart = navigation?.loadEventStart ?? Number.POSITIVE_INFINITY;
            const resources = entriesOf('resource');
            const byLoad = resources.filter((entry) => entry.responseEnd <= loadStart);
            resolve({
              fcpMs:
                entriesOf('paint').find((entry) => entry.name === 'first-contentful-paint')?.startTime ?? -1,
              lcpMs: list.getEntries().at(-1)?.startTime ?? -1,
              imageMs: resources.find((entry) => entry.name === image)?.responseEnd ?? -1,
              loadBytes:
                (navigation?.transferSize ?? 0) + byLoad.reduce((sum, entry) => sum + entry.transferSize, 0),
              transfers: byLoad.map((entry) => [
                new URL(entry.name).pathname.split('/').slice(-2).join('/'),
                entry.transferSize,
              ]),
            });
          }).observe({ type: 'largest-contentful-paint', buffered: true });
        }),
      imageUrl,
    );
  } finally {
    await context.close();
  }
};

const figures = (visits: Visit[]) => ({
  runs: visits.length,
  fcpMs: median(visits.map((v) => v.fcpMs)),
  lcpMs: median(visits.map((v) => v.lcpMs)),
  imageMs: median(visits.map((v) => v.imageMs)),
  loadBytes: median(visits.map((v) => v.loadBytes)),
});

export const phoneSection = async (
  stack: BenchStack,
  token: string,
  progress: (message: string) => void,
): Promise<void> => {
  progress(`phone: publishing a ${PAGES}-page text contract…`);
  const viewerUrl = await publishedViewer(stack, token, await contractPdf(PAGES));
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  let bare: Server | undefined;
  try {
    const image = await firstPageImage(browser, viewerUrl);
    bare = await bareServer(image);
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
    const viewerVisits: Visit[] = [];
    const bareVisits: Visit[] = [];
    // Alternated, so that the machine's load falls on both alike.
    for (let run = 1; run <= RUNS; run++) {
      progress(`phone: run ${run}/${RUNS}…`);
      viewerVisits.push(await visit(browser, viewerUrl, image.url));
      bareVisits.push(await visit(browser, bareUrl, `${bareUrl}page-1`));
    }
    const viewer = figures(viewerVisits);
    const baseline = figures(bareVisits);
    const lcpRatio = viewer.lcpMs / baseline.lcpMs;
    const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
    console.log(
      `\n10. The contract viewer on a slow phone (${PAGES}-page text contract; Lighthouse's mobile profile: ` +
        `390×844 at 3×, CPU ${PROFILE.cpuSlowdown}× slower, ${PROFILE.latencyMs} ms RTT, 1.47 Mbit/s down), ` +
        `cold cache, median of ${RUNS}; page 1's image is ${kib(image.bytes.length)} (${image.type})\n`,
    );
    console.log(
      table([
        ['page', 'first paint', 'largest paint', "page 1's image", 'bytes by load'],
        ['viewer', ms(viewer.fcpMs), ms(viewer.lcpMs), ms(viewer.imageMs), kib(viewer.loadBytes)],
        [
          'bare <img> (baseline)',
          ms(baseline.fcpMs),
          ms(baseline.lcpMs),
          ms(baseline.imageMs),
          kib(baseline.loadBytes),
        ],
      ]),
    );
    console.log(
      `\n   largest paint ${ms(viewer.lcpMs)} (budget ${ms(BUDGET.lcpMs)}): ${verdict(viewer.lcpMs <= BUDGET.lcpMs)}; ` +
        `${ratio(lcpRatio)} the bare image's (budget ${ratio(BUDGET.lcpRatio)}): ${verdict(lcpRatio <= BUDGET.lcpRatio)}; ` +
        `${kib(viewer.loadBytes)} by load (budget ${kib(BUDGET.loadBytes)}): ${verdict(viewer.loadBytes <= BUDGET.loadBytes)}`,
    );
    const largest = [...(viewerVisits[0]?.transfers ?? [])].sort((a, b) => b[1] - a[1]).slice(0, 8);
    console.log(
      `   the viewer's largest transfers by load (first run): ${largest.map(([name, bytes]) => `${name} ${kib(bytes)}`).join(', ')}`,
    );
    console.log(
      JSON.stringify({
        phone: {
          viewer: { ...viewer, lcpMs: round(viewer.lcpMs, 0) },
          baseline: { ...baseline, lcpMs: round(baseline.lcpMs, 0) },
          lcpRatio: round(lcpRatio),
          imageBytes: image.bytes.length,
          budgets: BUDGET,
        },
      }),
    );
  } finally {
    await browser.close();
    if (bare) await new Promise((resolve) => bare?.close(resolve));
  }
};
