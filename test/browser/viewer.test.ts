// Browser test of the contract viewer: drawn pages stored in the local S3 twin, written as a
// publication, served by the pages host, and opened in headless Chromium.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { withdrawPublication } from '../../lambdas/core/publications';
import type { TextRun } from '../../lambdas/core/rendered-contract';
import { writeViewer } from '../../lambdas/pages/publication';
import { TEXT_LAYER_FAMILY } from '../../lambdas/pages/text-layer-font';
import { renderViewer } from '../../lambdas/pages/viewer';
import {
  axeViolations,
  DESKTOP,
  documentWidths,
  expectOnlyOwnRequests,
  find,
  launchChromiumWithoutCommonFonts,
  loadAllImages,
  type PagesStack,
  PHONE,
  RESULTS,
  startPagesStack,
  withRecordedPage,
} from './harness';

const SLUG = 'pub_browser7Hq2mZx9RkT4vWbN';
const PART_SLUG = 'pub_partShown3Jk8LmQ2wXy5Rt';
const TITLE = `Sale 2291 <script>alert("x")</script> & "O'Brien"`;

/**
 * Each of page 1's runs, once the layer's font has loaded, is invisible and lies where its words are
 * drawn: the same left and top, the same height, and the width the drawing gives it (the run stretched
 * by the shipped font's known widths).
 */
const expectLayerOverDrawnWords = async (page: Page, drawn: TextRun[]): Promise<void> => {
  const placed = await page.evaluate(async (family) => {
    await document.fonts.load(`16px "${family}"`, 'Purchase price');
    const sheet = document.querySelector('#page-1 .sheet');
    if (!sheet) throw new Error('no page 1');
    const p = sheet.getBoundingClientRect();
    return Array.from(sheet.querySelectorAll('.text-layer span')).map((span) => {
      const s = span.getBoundingClientRect();
      return {
        text: span.textContent ?? '',
        color: getComputedStyle(span).color,
        fontLoaded: document.fonts.check(`16px "${family}"`, span.textContent ?? ''),
        left: (s.left - p.left) / p.width,
        top: (s.top - p.top) / p.height,
        width: s.width / p.width,
        height: s.height / p.height,
      };
    });
  }, TEXT_LAYER_FAMILY);
  expect(placed.map((run) => run.text)).toEqual(drawn.map((run) => run.text));
  const off = drawn.map((run, i) => {
    const at = placed[i];
    if (!at) throw new Error(`no span for ${run.text}`);
    return {
      text: run.text,
      color: at.color,
      fontLoaded: at.fontLoaded,
      left: Math.abs(at.left - run.x) < 0.002,
      top: Math.abs(at.top - run.y) < 0.002,
      height: Math.abs(at.height - run.height) < 0.003,
      // Stretched by the shipped font's known widths to the drawn width (small sizes round to pixels).
      width: Math.abs(at.width - run.width) / run.width < 0.03,
    };
  });
  expect(off).toEqual(
    drawn.map((run) => ({
      text: run.text,
      color: 'rgba(0, 0, 0, 0)',
      fontLoaded: true,
      left: true,
      top: true,
      height: true,
      width: true,
    })),
  );
};

describe('the contract viewer in Chromium', () => {
  let stack: PagesStack;

  beforeAll(async () => {
    stack = await startPagesStack();
    const { blobs, contract, pdfKey } = stack;
    const output = renderViewer({
      contract,
      title: TITLE,
      sender: 'Harbour Conveyancing',
      publishedAt: '2025-03-12T14:03:09.123456Z',
      pdfKey,
    });
    await writeViewer(blobs, SLUG, output);
    // The same contract with page 1 drawn without a picture, page 2 not drawn and page 3's text
    // unreadable, as processing may leave it.
    const [first, second, third] = contract.pages;
    if (!(first && second && third)) throw new Error('the drawn contract has three pages');
    const shownInPart = {
      ...contract,
      pages: [
        { ...first, problems: ['image_incomplete' as const] },
        { ...second, problems: ['image_unavailable' as const] },
        { ...third, text: [], problems: ['text_unavailable' as const] },
      ],
    };
    await writeViewer(
      blobs,
      PART_SLUG,
      renderViewer({
        contract: shownInPart,
        title: TITLE,
        sender: 'Harbour Conveyancing',
        publishedAt: '2025-03-12T14:03:09.123456Z',
        pdfKey,
      }),
    );
    await writeViewer(blobs, 'pub_withdrawn', output);
    await withdrawPublication(blobs, 'pub_withdrawn');
  });

  afterAll(async () => {
    await stack?.stop();
  });

  test('at 1280 px: images load, text is found and selectable over the images, nothing else is fetched', async () => {
    await withRecordedPage(stack.browser, `${stack.base}/${SLUG}/`, DESKTOP, async (page, seen) => {
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
      await expectLayerOverDrawnWords(page, stack.contract.pages[0]?.text ?? []);

      // A thumbnail link takes the reader to its page.
      await page.getByRole('link', { name: 'Page 3' }).click();
      await page.waitForFunction(() => location.hash === '#page-3');
      expect(
        await page.evaluate(() =>
          Math.round(document.getElementById('page-3')?.getBoundingClientRect().top ?? -1),
        ),
      ).toBeLessThan(20);
      await page.evaluate(() => window.scrollTo(0, 0));

      await expectOnlyOwnRequests(page, seen, stack.base);
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
    });
  });

  test('at 320 px: no sideways scrolling, pages fit the screen, nothing else is fetched', async () => {
    await withRecordedPage(stack.browser, `${stack.base}/${SLUG}/`, PHONE, async (page, seen) => {
      await loadAllImages(page);
      const sizes = await documentWidths(page);
      expect(sizes.scrollWidth).toBeLessThanOrEqual(sizes.clientWidth);
      const sheet = await page.evaluate(
        () => document.querySelector('.sheet')?.getBoundingClientRect().width ?? 0,
      );
      expect(sheet).toBeGreaterThan(280);
      expect(await find(page, 'Purchase price')).toBe(true);
      await expectOnlyOwnRequests(page, seen, stack.base);
      await page.screenshot({ path: join(RESULTS, 'viewer-320.png'), fullPage: true });

      // The recorder does see a violation when there is one: an inline style, which the CSP refuses.
      await page.evaluate(() => document.body.setAttribute('style', 'color: red'));
      await page.waitForFunction(() => (window as unknown as { violations: string[] }).violations.length > 0);
      expect(await page.evaluate(() => getComputedStyle(document.body).color)).not.toBe('rgb(255, 0, 0)');
    });
  });

  test('with none of the common fonts on the system, at 320 and 1280 px the layer still lies over the words', async () => {
    const bare = await launchChromiumWithoutCommonFonts();
    try {
      for (const [options, width] of [
        [PHONE, 320],
        [DESKTOP, 1280],
      ] as const) {
        await withRecordedPage(bare, `${stack.base}/${SLUG}/`, options, async (page, seen) => {
          await expectLayerOverDrawnWords(page, stack.contract.pages[0]?.text ?? []);
          expect(await find(page, 'Settlement date: 60 days')).toBe(true);
          // The font came from the page's own address, and only the subset the text needs.
          const fonts = seen.requests.filter((url) => url.endsWith('.woff2'));
          expect(fonts).toEqual([expect.stringMatching(/\/v1\/arimo-latin-400-normal-[0-9a-f]{12}\.woff2$/)]);
          await expectOnlyOwnRequests(page, seen, stack.base);
          await page
            .locator('#page-1 .sheet')
            .screenshot({ path: join(RESULTS, `viewer-no-fonts-${width}.png`) });
        });
      }
    } finally {
      await bare.close();
    }
  });

  test('pages shown in part: the banner and each page say so, visibly, at 320 and 1280 px, and the PDF link works', async () => {
    for (const options of [PHONE, DESKTOP]) {
      await withRecordedPage(stack.browser, `${stack.base}/${PART_SLUG}/`, options, async (page, seen) => {
        const banner = page.locator('header .notice');
        await expect(banner.isVisible()).resolves.toBe(true);
        expect(await banner.textContent()).toContain('Page 2 could not be displayed');
        expect(await banner.textContent()).toContain('Page 3 has no text to search or select');
        expect(await banner.textContent()).toContain('Page 1 is shown without some of its pictures');
        // Page 1 is drawn, so its notice does not cover it, and its text is there.
        await expect(page.locator('#page-1 .page-notice').isVisible()).resolves.toBe(true);
        expect(await page.locator('#page-1 .text-layer').count()).toBe(1);
        // Page 2's notice lies over page 2's sheet, within it.
        const over = await page.evaluate(() => {
          const sheet = document.querySelector('#page-2 .sheet')?.getBoundingClientRect();
          const notice = document.querySelector('#page-2 .page-notice')?.getBoundingClientRect();
          if (!sheet || !notice) return null;
          return {
            inside:
              notice.left >= sheet.left &&
              notice.right <= sheet.right &&
              notice.top >= sheet.top &&
              notice.bottom <= sheet.bottom,
            seen: notice.width > 0 && notice.height > 0,
          };
        });
        expect(over).toEqual({ inside: true, seen: true });
        await expect(page.locator('#page-3 .page-notice').isVisible()).resolves.toBe(true);
        expect(await page.locator('#page-3 .text-layer').count()).toBe(0);
        // The banner's link goes to the page; the notice's link is the version's PDF.
        await page.locator('header .notice a[href="#page-2"]').click();
        expect(new URL(page.url()).hash).toBe('#page-2');
        const pdf = await page.locator('#page-2 .page-notice a').getAttribute('href');
        expect((await fetch(new URL(pdf ?? '', page.url()))).headers.get('content-type')).toBe(
          'application/pdf',
        );
        await expectOnlyOwnRequests(page, seen, stack.base);
      });
    }
    expect(await axeViolations(stack.browser, `${stack.base}/${PART_SLUG}/`, [1280, 320])).toEqual([]);
  });

  test('axe finds no accessibility violations at either width', async () => {
    expect(await axeViolations(stack.browser, `${stack.base}/${SLUG}/`, [1280, 320])).toEqual([]);
  });

  test('a withdrawn publication shows its plain page with status 410', async () => {
    const context = await stack.browser.newContext();
    try {
      const page = await context.newPage();
      const response = await page.goto(`${stack.base}/pub_withdrawn/`);
      expect(response?.status()).toBe(410);
      expect(await page.locator('h1').textContent()).toBe('This page was withdrawn');
    } finally {
      await context.close();
    }
  });
});
