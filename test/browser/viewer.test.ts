// Browser test of the contract viewer: drawn pages stored in the local S3 twin, written as a
// publication, served by the pages host, and opened in headless Chromium.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import axe from 'axe-core';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { withdrawPublication, writeViewer } from '../../frontend/pages/publication';
import { renderViewer } from '../../frontend/pages/viewer';
import { type LocalS3, startLocalS3 } from '../../lambdas/adapters/blobs/local-s3-server';
import { S3BlobStore } from '../../lambdas/adapters/blobs/s3-blob-store';
import { createS3Client, ensureBucket } from '../../lambdas/adapters/blobs/s3-client';
import type { RenderedContract } from '../../lambdas/core/rendered-contract';
import { pagesListener } from '../../lambdas/hosts/pages-host';
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
const SLUG = 'pub_browser7Hq2mZx9RkT4vWbN';
const TITLE = `Sale 2291 <script>alert("x")</script> & "O'Brien"`;
const RESULTS = join(process.cwd(), 'test-results');

interface Recorder {
  requests: string[];
  consoleErrors: string[];
  failed: string[];
}

describe('the contract viewer in Chromium', () => {
  let directory: string;
  let s3: LocalS3;
  let client: S3Client;
  let server: Server;
  let base: string;
  let browser: Browser;
  let contract: RenderedContract;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'viewer-'));
    await mkdir(RESULTS, { recursive: true });
    const [twin, launched] = await Promise.all([
      startLocalS3(directory, 0),
      chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS }),
    ]);
    s3 = twin;
    browser = launched;
    client = createS3Client({ region: 'us-east-1', endpoint: s3.endpoint });
    await ensureBucket(client, 'blobs');
    const blobs = new S3BlobStore({ client, bucket: 'blobs' });
    contract = await storeDrawnContract(blobs, 'renders/crv_browser/v1/');
    await blobs.put(
      'uploads/crv_browser/v1.pdf',
      (async function* () {
        yield await contractPdf(3);
      })(),
      'application/pdf',
    );
    const output = renderViewer({
      contract,
      title: TITLE,
      publishedAt: '2025-03-12T14:03:09.123456Z',
      pdfKey: 'uploads/crv_browser/v1.pdf',
    });
    await writeViewer(blobs, SLUG, output);
    await writeViewer(blobs, 'pub_withdrawn', output);
    await withdrawPublication(blobs, 'pub_withdrawn');
    server = createServer(pagesListener(blobs));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    client?.destroy();
    await s3?.stop();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  /** A page whose every request, console error, failed load and CSP violation is recorded. */
  const open = async (context: BrowserContext, path: string): Promise<{ page: Page; seen: Recorder }> => {
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
    await page.goto(`${base}/${path}`, { waitUntil: 'load' });
    return { page, seen };
  };

  /** The browser's own find (Ctrl-F), which also selects what it finds. */
  const find = (page: Page, text: string): Promise<boolean> =>
    page.evaluate((t) => (window as unknown as { find(text: string): boolean }).find(t), text);

  /** Scrolls each lazy image into view and waits until every image has loaded. */
  const loadAllImages = async (page: Page): Promise<Array<{ alt: string; naturalWidth: number }>> => {
    for (const image of await page.locator('img').all()) await image.scrollIntoViewIfNeeded();
    await page.waitForFunction(
      () => Array.from(document.images).every((image) => image.complete),
      undefined,
      {
        timeout: 10_000,
      },
    );
    await page.evaluate(() => window.scrollTo(0, 0));
    return page.evaluate(() =>
      Array.from(document.images).map((image) => ({ alt: image.alt, naturalWidth: image.naturalWidth })),
    );
  };

  const expectOnlyOwnRequests = async (page: Page, seen: Recorder) => {
    const origin = new URL(base).origin;
    expect(seen.requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect(seen.failed).toEqual([]);
    expect(seen.consoleErrors).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
  };

  test('at 1280 px: images load, text is found and selectable over the images, nothing else is fetched', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const { page, seen } = await open(context, `${SLUG}/`);
      expect(await page.locator('h1').textContent()).toBe(TITLE);

      const images = await loadAllImages(page);
      expect(images).toHaveLength(6);
      for (const image of images) expect(image.naturalWidth).toBeGreaterThan(0);
      expect(images.filter((image) => image.alt !== '').map((image) => image.alt)).toEqual([
        'Page 1 of 3',
        'Page 2 of 3',
        'Page 3 of 3',
      ]);

      // The browser's find reaches the text layer, on the first page and on the last.
      expect(await find(page, 'Purchase price')).toBe(true);
      expect(await page.evaluate(() => window.getSelection()?.toString())).toBe('Purchase price');
      expect(await find(page, 'Signed by the Purchaser')).toBe(true);

      // A drag across a line selects its words, as a reader's mouse would.
      await page.evaluate(() => window.getSelection()?.removeAllRanges());
      const run = page.locator('.text-layer span', { hasText: /^Settlement date:/ });
      await run.scrollIntoViewIfNeeded();
      const box = await run.boundingBox();
      if (!box) throw new Error('no box for the run');
      await page.mouse.move(box.x + 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
      const selected = await page.evaluate(() => window.getSelection()?.toString() ?? '');
      expect(selected).toContain('Settlement date: 60 days after the day');

      // The layer is invisible, and lies where the words are drawn.
      const placement = await page.evaluate(() => {
        const span = Array.from(document.querySelectorAll('.text-layer span')).find(
          (s) => s.textContent === 'Purchase price',
        );
        const sheet = span?.closest('.sheet');
        if (!span || !sheet) throw new Error('no run');
        const s = span.getBoundingClientRect();
        const p = sheet.getBoundingClientRect();
        return {
          color: getComputedStyle(span).color,
          left: (s.left - p.left) / p.width,
          top: (s.top - p.top) / p.height,
          width: s.width / p.width,
          height: s.height / p.height,
        };
      });
      const drawn = contract.pages[0]?.text.find((t) => t.text === 'Purchase price');
      if (!drawn) throw new Error('no drawn run');
      expect(placement.color).toBe('rgba(0, 0, 0, 0)');
      expect(Math.abs(placement.left - drawn.x)).toBeLessThan(0.002);
      expect(Math.abs(placement.top - drawn.y)).toBeLessThan(0.002);
      expect(Math.abs(placement.height - drawn.height)).toBeLessThan(0.003);
      // Stretched by the layer font's known widths to the drawn width.
      expect(Math.abs(placement.width - drawn.width) / drawn.width).toBeLessThan(0.03);

      // A thumbnail link takes the reader to its page.
      await page.getByRole('link', { name: 'Page 3' }).click();
      await page.waitForFunction(() => location.hash === '#page-3');
      expect(
        await page.evaluate(() =>
          Math.round(document.getElementById('page-3')?.getBoundingClientRect().top ?? -1),
        ),
      ).toBeLessThan(20);
      await page.evaluate(() => window.scrollTo(0, 0));

      await expectOnlyOwnRequests(page, seen);
      await page.screenshot({ path: join(RESULTS, 'viewer-1280.png'), fullPage: true });

      // The selection highlight over page 1's words, to look at.
      await page.evaluate(() => {
        const layer = document.querySelector('#page-1 .text-layer');
        const range = document.createRange();
        if (layer) range.selectNodeContents(layer);
        window.getSelection()?.removeAllRanges();
        window.getSelection()?.addRange(range);
      });
      await page.locator('#page-1 .sheet').screenshot({ path: join(RESULTS, 'viewer-selection.png') });
    } finally {
      await context.close();
    }
  });

  test('at 320 px: no sideways scrolling, pages fit the screen, nothing else is fetched', async () => {
    const context = await browser.newContext({ viewport: { width: 320, height: 640 }, deviceScaleFactor: 2 });
    try {
      const { page, seen } = await open(context, `${SLUG}/`);
      await loadAllImages(page);
      const sizes = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
        sheet: document.querySelector('.sheet')?.getBoundingClientRect().width ?? 0,
      }));
      expect(sizes.scrollWidth).toBeLessThanOrEqual(sizes.clientWidth);
      expect(sizes.sheet).toBeGreaterThan(280);
      expect(await find(page, 'Purchase price')).toBe(true);
      await expectOnlyOwnRequests(page, seen);
      await page.screenshot({ path: join(RESULTS, 'viewer-320.png'), fullPage: true });

      // The recorder does see a violation when there is one: an inline style, which the CSP refuses.
      await page.evaluate(() => document.body.setAttribute('style', 'color: red'));
      await page.waitForFunction(() => (window as unknown as { violations: string[] }).violations.length > 0);
      expect(await page.evaluate(() => getComputedStyle(document.body).color)).not.toBe('rgb(255, 0, 0)');
    } finally {
      await context.close();
    }
  });

  test('axe finds no accessibility violations at either width', async () => {
    // Only for axe: its source goes in as a script, which the page's own CSP rightly refuses.
    const context = await browser.newContext({ bypassCSP: true });
    try {
      const page = await context.newPage();
      for (const width of [1280, 320]) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(`${base}/${SLUG}/`, { waitUntil: 'load' });
        await loadAllImages(page);
        await page.evaluate(axe.source);
        const results = await page.evaluate(() =>
          (window as unknown as { axe: typeof axe }).axe.run(document, {
            runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
          }),
        );
        const violations = results.violations.map((v) => ({
          width,
          id: v.id,
          nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 3),
        }));
        expect(violations).toEqual([]);
      }
    } finally {
      await context.close();
    }
  });

  test('a withdrawn publication shows its plain page with status 410', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const response = await page.goto(`${base}/pub_withdrawn/`);
      expect(response?.status()).toBe(410);
      expect(await page.locator('h1').textContent()).toBe('This page was withdrawn');
    } finally {
      await context.close();
    }
  });
});
