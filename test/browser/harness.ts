// test support -> what the browser tests of the hosted pages share: a blob store (the local S3 twin)
// served by the pages host, headless Chromium, a page that records every request, failure, console
// error and CSP violation, and the checks run over such a page (find, images, own origin, axe).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import axe from 'axe-core';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Cookie,
  chromium,
  type Page,
} from 'playwright-core';
import woff2 from 'wawoff2';
import { S3BlobStore } from '../../lambdas/adapters/blobs/s3-blob-store';
import { createS3Client, ensureBucket } from '../../lambdas/adapters/blobs/s3-client';
import type { BlobStore } from '../../lambdas/core/ports';
import type { RenderedContract } from '../../lambdas/core/rendered-contract';
import { fontFile, subsetsFor } from '../../lambdas/pages/text-layer-font';
import { type LocalS3, startLocalS3 } from '../../local/emulators/s3-server';
import { pagesListener } from '../../local/pages-host';
import { contractPdf } from '../support/pdfs';
import { storeDrawnContract } from './contract-fixture';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's Chromium, driven by playwright-core (its own browser download cannot work here). */
export const launchChromium = (env?: NodeJS.ProcessEnv): Promise<Browser> =>
  chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, ...(env && { env }) });

/**
 * Chromium that blocks third-party cookies, as Chrome and Safari do: only a partitioned cookie
 * (`Partitioned`, CHIPS) reaches a frame of another site than the page.
 */
export const launchChromiumWithoutThirdPartyCookies = (): Promise<Browser> =>
  chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, '--test-third-party-cookie-phaseout'],
  });

/**
 * Chromium on a system with none of the fonts this machine has (no Liberation, no DejaVu, nothing that
 * draws Latin text): fontconfig reads a configuration whose one font folder holds only the shipped font's
 * Hebrew subset, as TrueType. (Chromium on Linux decodes no web font when fontconfig lists no font at
 * all, which no reader's device is without.) Closing the browser removes the folder.
 */
export const launchChromiumWithoutCommonFonts = async (): Promise<Browser> => {
  const directory = await mkdtemp(join(tmpdir(), 'no-common-fonts-'));
  const fonts = join(directory, 'fonts');
  await mkdir(fonts);
  const hebrew = subsetsFor(['ש'])[0];
  if (!hebrew) throw new Error('the text layer font has no Hebrew subset');
  await writeFile(join(fonts, 'hebrew-only.ttf'), await woff2.decompress(fontFile(hebrew).bytes));
  const config = join(directory, 'fonts.conf');
  await writeFile(
    config,
    [
      '<?xml version="1.0"?>',
      '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
      // The system's rendering rules (hinting, antialiasing) without its fonts.
      `<fontconfig><dir>${fonts}</dir><cachedir>${join(directory, 'cache')}</cachedir>`,
      '<include ignore_missing="yes">/etc/fonts/conf.d</include></fontconfig>',
      '',
    ].join('\n'),
  );
  try {
    const browser = await launchChromium({ ...process.env, FONTCONFIG_FILE: config });
    browser.on('disconnected', () => void rm(directory, { recursive: true, force: true }));
    return browser;
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
};

/** Where screenshots go, to look at after a run. */
export const RESULTS = join(process.cwd(), 'test-results');

/**
 * The pages host over a blob store of its own, holding a drawn three-page contract and a PDF to offer
 * for download, and a browser to open its pages in.
 */
export interface PagesStack {
  blobs: BlobStore;
  /** The drawn contract, as processing leaves it (see contract-fixture.ts). */
  contract: RenderedContract;
  /** Blob key of its PDF. */
  pdfKey: string;
  /** The pages host's origin, as `http://127.0.0.1:{port}`. */
  base: string;
  browser: Browser;
  stop(): Promise<void>;
}

/** Starts the S3 twin in a temporary folder with the contract stored, the pages host over it, and Chromium. */
export const startPagesStack = async (): Promise<PagesStack> => {
  const directory = await mkdtemp(join(tmpdir(), 'pages-'));
  await mkdir(RESULTS, { recursive: true });
  let s3: LocalS3 | undefined;
  let browser: Browser | undefined;
  let client: S3Client | undefined;
  let server: Server | undefined;
  const stop = async (): Promise<void> => {
    await browser?.close();
    if (server) await new Promise((resolve) => server?.close(resolve));
    client?.destroy();
    await s3?.stop();
    await rm(directory, { recursive: true, force: true });
  };
  try {
    [s3, browser] = await Promise.all([startLocalS3(directory, 0), launchChromium()]);
    client = createS3Client({ region: 'us-east-1', endpoint: s3.endpoint });
    await ensureBucket(client, 'blobs');
    const blobs = new S3BlobStore({ client, bucket: 'blobs' });
    const contract = await storeDrawnContract(blobs, 'renders/crv_browser/v1/');
    const pdfKey = 'uploads/crv_browser/v1.pdf';
    await storeContractPdf(blobs, pdfKey);
    const listening = createServer(pagesListener(blobs));
    server = listening;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
    return { blobs, contract, pdfKey, base, browser, stop };
  } catch (error) {
    await stop();
    throw error;
  }
};

/** Stores a real three-page contract PDF at `key`, as an upload would leave it. */
const storeContractPdf = async (blobs: BlobStore, key: string): Promise<void> => {
  await blobs.put(
    key,
    (async function* () {
      yield await contractPdf(3);
    })(),
    'application/pdf',
  );
};

export interface Recorder {
  requests: string[];
  consoleErrors: string[];
  failed: string[];
}

/** A page whose every request, console error, failed load and CSP violation is recorded. */
export const openRecorded = async (
  context: BrowserContext,
  url: string,
): Promise<{ page: Page; seen: Recorder }> => {
  const page = await context.newPage();
  const seen: Recorder = { requests: [], consoleErrors: [], failed: [] };
  page.on('request', (request) => seen.requests.push(request.url()));
  page.on('requestfailed', (request) => seen.failed.push(request.url()));
  page.on('response', (response) => {
    if (response.status() >= 400) seen.failed.push(`${response.status()} ${response.url()}`);
  });
  page.on('console', (message) => {
    // The browser asks for /favicon.ico on its own; the pages declare no icon, so that 404 is expected.
    if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico'))
      seen.consoleErrors.push(`${message.text()} ${message.location().url}`);
  });
  page.on('dialog', (dialog) => {
    seen.consoleErrors.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  // Init scripts come from the browser's debugging protocol, so the page's CSP does not stop them.
  await page.addInitScript(() => {
    const store = window as unknown as { violations: string[] };
    store.violations = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      store.violations.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, seen };
};

/** A desktop screen and a small phone's, the widths every page is tried at. */
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };
export const PHONE: BrowserContextOptions = { viewport: { width: 320, height: 640 }, deviceScaleFactor: 2 };
/** A current phone (390 px), where the buyer's pages and the portal are checked beside the 320 px one. */
export const PHONE_390: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
};

/** Opens `url` recorded (see `openRecorded`) in a new context made with `options`, runs `use`, closes it. */
export const withRecordedPage = async (
  browser: Browser,
  url: string,
  options: BrowserContextOptions,
  use: (page: Page, seen: Recorder) => Promise<void>,
): Promise<void> => {
  const context = await browser.newContext(options);
  try {
    const { page, seen } = await openRecorded(context, url);
    await use(page, seen);
  } finally {
    await context.close();
  }
};

/** The browser's own find (Ctrl-F), which also selects what it finds. */
export const find = (page: Page, text: string): Promise<boolean> =>
  page.evaluate((t) => (window as unknown as { find(text: string): boolean }).find(t), text);

/**
 * Scrolls each lazy image into view and waits until every image has loaded; images the page does not
 * show (in a view it hides, such as the viewer's pages while its Text view is shown) are left alone.
 */
export const loadAllImages = async (page: Page): Promise<Array<{ alt: string; naturalWidth: number }>> => {
  for (const image of await page.locator('img:visible').all()) await image.scrollIntoViewIfNeeded();
  await page.waitForFunction(
    () => Array.from(document.images).every((image) => image.complete || image.getClientRects().length === 0),
    undefined,
    { timeout: 10_000 },
  );
  await page.evaluate(() => window.scrollTo(0, 0));
  return page.evaluate(() =>
    Array.from(document.images).map((image) => ({ alt: image.alt, naturalWidth: image.naturalWidth })),
  );
};

/** Every request went to `base`'s origin and succeeded; no console error, no CSP violation. */
export const expectOnlyOwnRequests = async (page: Page, seen: Recorder, base: string): Promise<void> => {
  const origin = new URL(base).origin;
  expect(seen.requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
  expect(seen.failed).toEqual([]);
  expect(seen.consoleErrors).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
};

/** The document's width against the viewport's: more means the page scrolls sideways. */
export const documentWidths = (page: Page): Promise<{ scrollWidth: number; clientWidth: number }> =>
  page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));

/**
 * What axe finds wrong with `url` at each width (WCAG 2.1 A and AA, and best practice), once every
 * image has loaded. Axe's source goes in as a script, which the page's own CSP rightly refuses, so the
 * page is opened in a context that bypasses it, with `cookies` (a signed-in person's) when given, and
 * checked once `ready` says it shows what is to be checked. The page is opened once, at the first width,
 * and resized to each next one: no page lays itself out by script (only CSS reads the width), and axe
 * reads styles as they are at the moment it runs, so a second load would only repeat the first.
 */
export const axeViolations = async (
  browser: Browser,
  url: string,
  widths: number[],
  cookies: Cookie[] = [],
  /** Waits until the page shows what is to be checked (a page that loads its content by script). */
  ready: (page: Page) => Promise<void> = async () => {},
): Promise<Array<{ width: number; id: string; nodes: string[] }>> => {
  const context = await browser.newContext({ bypassCSP: true });
  try {
    await context.addCookies(cookies);
    const page = await context.newPage();
    const found: Array<{ width: number; id: string; nodes: string[] }> = [];
    for (const [i, width] of widths.entries()) {
      await page.setViewportSize({ width, height: 800 });
      if (i === 0) {
        await page.goto(url, { waitUntil: 'load' });
        await ready(page);
        await page.evaluate(axe.source);
      }
      // Resized: the layout at this width is in place before images are awaited and axe runs.
      await page.waitForFunction((w) => window.innerWidth === w, width);
      await loadAllImages(page);
      const results = await page.evaluate(() =>
        (window as unknown as { axe: typeof axe }).axe.run(document, {
          runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
        }),
      );
      for (const v of results.violations)
        found.push({ width, id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 3) });
    }
    return found;
  } finally {
    await context.close();
  }
};
