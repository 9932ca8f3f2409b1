// Browser test of the contract viewer on a phone (390 px) and a desktop (1280 px): pages fit the width
// by default, with zoom radios a keyboard reaches; the `Text` view reflows the contract's own text
// (headings kept, page by page) at a size read without zooming; axe finds nothing in either view.
// Screenshots go to test-results/ to look at.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { writeViewer } from '../../lambdas/pages/publication';
import { renderViewer } from '../../lambdas/pages/viewer';
import {
  axeViolations,
  DESKTOP,
  documentWidths,
  expectOnlyOwnRequests,
  type PagesStack,
  PHONE_390,
  RESULTS,
  startPagesStack,
  withRecordedPage,
} from './harness';

const SLUG = 'pub_phoneView4Hq2mZx9RkT4vW';
/** An organisation's name as long as a name may be (100 characters), with a word wider than a phone. */
const SENDER =
  'HarbourBaysideConveyancingAndSettlementsProprietary Limited of Melbourne, Geelong and Bendigo';

let stack: PagesStack;
let url: string;

beforeAll(async () => {
  stack = await startPagesStack();
  await writeViewer(
    stack.blobs,
    SLUG,
    renderViewer({
      contract: stack.contract,
      title: 'Sale 2291',
      sender: SENDER,
      publishedAt: '2025-03-12T14:03:09.123456Z',
      pdfKey: stack.pdfKey,
    }),
  );
  url = `${stack.base}/${SLUG}/`;
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

const sheetWidth = (page: Page) =>
  page.evaluate(() => document.querySelector('#page-1 .sheet')?.getBoundingClientRect().width ?? 0);

/** The Text view's paragraphs and headings, with their computed font sizes in px. */
const textBlocks = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll('#text p, #text h4')).map((element) => ({
      tag: element.tagName.toLowerCase(),
      text: element.textContent ?? '',
      size: Number.parseFloat(getComputedStyle(element).fontSize),
      visible: element.getBoundingClientRect().height > 0,
    })),
  );

test.each([
  ['390', PHONE_390],
  ['1280', DESKTOP],
] as const)(
  'at %s px: pages fit the width, zoom by keyboard, and a Text view read without zooming',
  async (width, options) => {
    await withRecordedPage(stack.browser, url, options, async (page, seen) => {
      const viewport = Number(width);
      // Fit width by default: the page fills the column (up to its 60rem on a desktop).
      const fitted = await sheetWidth(page);
      expect(fitted).toBeGreaterThan(Math.min(viewport - 40, 900));
      expect(await documentWidths(page)).toMatchObject({ scrollWidth: viewport });
      await page.screenshot({ path: join(RESULTS, `viewer-pages-${width}.png`) });

      // The header names who sent the contract, all of it within the screen: a long name wraps.
      const sender = page.locator('header .sender');
      expect(await sender.textContent()).toBe(`From ${SENDER}`);
      const box = await sender.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= viewport).toBe(true);
      expect(await sender.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);

      // Zoom with the keyboard: to the radios, then the arrow key picks the next size (150%).
      await page.getByRole('radio', { name: 'Fit width' }).focus();
      await page.keyboard.press('ArrowRight');
      expect(await page.getByRole('radio', { name: '150%' }).isChecked()).toBe(true);
      expect((await sheetWidth(page)) / fitted).toBeCloseTo(1.5, 1);
      await page.getByRole('radio', { name: '300%' }).check();
      expect((await sheetWidth(page)) / fitted).toBeCloseTo(3, 1);
      // The pages scroll sideways within their own column; the page itself does not.
      expect(await documentWidths(page)).toMatchObject({ scrollWidth: viewport });
      await page.screenshot({ path: join(RESULTS, `viewer-zoom-300-${width}.png`) });

      // Not shown until asked for.
      expect((await textBlocks(page)).every((block) => !block.visible)).toBe(true);
      await page.getByRole('link', { name: 'Text', exact: true }).focus();
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => location.hash === '#text');
      const blocks = await textBlocks(page);
      expect(blocks.every((block) => block.visible && block.size >= 16)).toBe(true);
      // The contract's headings stay headings; lines of a clause are one paragraph, each clause its own.
      expect(blocks.filter((block) => block.tag === 'h4').map((block) => block.text)).toEqual([
        'CONTRACT OF SALE OF LAND',
        'General conditions',
        'Signatures',
      ]);
      const paragraphs = blocks.filter((block) => block.tag === 'p').map((block) => block.text);
      expect(paragraphs).toContain('Purchase price $1,250,000');
      expect(paragraphs.filter((text) => /^[1-4]\. /.test(text))).toHaveLength(4);
      // The drawn pages are out of the way, and nothing scrolls sideways.
      expect(await page.locator('#page-1').isVisible()).toBe(false);
      expect(await documentWidths(page)).toMatchObject({ scrollWidth: viewport });
      await page.screenshot({ path: join(RESULTS, `viewer-text-${width}.png`), fullPage: true });

      // Back to the pages.
      await page.getByRole('link', { name: 'Pages', exact: true }).click();
      await page.locator('#page-1').waitFor();
      await expectOnlyOwnRequests(page, seen, stack.base);
    });
  },
);

test('axe finds nothing in the Pages or the Text view, at 390 and 1280 px', async () => {
  expect(await axeViolations(stack.browser, url, [390, 1280])).toEqual([]);
  expect(await axeViolations(stack.browser, `${url}#text`, [390, 1280])).toEqual([]);
});

test('times are in the reader’s own time zone, and in UTC where script does not run', async () => {
  const melbourne = { ...PHONE_390, timezoneId: 'Australia/Melbourne' };
  await withRecordedPage(stack.browser, url, melbourne, async (page, seen) => {
    await page.waitForFunction(() => !document.querySelector('.meta time')?.textContent?.includes('UTC'));
    expect(await page.locator('.meta time').textContent()).toBe(
      '13 March 2025 at 01:03 (Australia/Melbourne time)',
    );
    await expectOnlyOwnRequests(page, seen, stack.base);
  });
  await withRecordedPage(stack.browser, url, { ...melbourne, javaScriptEnabled: false }, async (page) => {
    expect(await page.locator('.meta time').textContent()).toBe('12 March 2025 at 14:03 UTC');
  });
});
