// Browser test of the withdrawn page (410) and the pages' icon, at 390 and 1280 px: the page is in the
// pages' own look (its one inline style allowed by the CSP's hash, nothing refused), says what happened
// and whom to ask, and axe finds nothing; every page has an icon the host answers (no 404 for
// /favicon.ico). Screenshots go to test-results/ to look at.
import { join } from 'node:path';
import { withdrawPublication } from '../../lambdas/core/publications';
import { writeViewer } from '../../lambdas/pages/publication';
import { renderViewer } from '../../lambdas/pages/viewer';
import {
  axeViolations,
  DESKTOP,
  documentWidths,
  type PagesStack,
  PHONE_390,
  RESULTS,
  startPagesStack,
  withRecordedPage,
} from './harness';

const SLUG = 'pub_withdrawnPhone8Jk2LmQ2w';
const LIVE = 'pub_iconLive5Rt7Yu2Io9PaSd';

let stack: PagesStack;

beforeAll(async () => {
  stack = await startPagesStack();
  const output = renderViewer({
    contract: stack.contract,
    title: 'Sale 2291',
    sender: 'Harbour Conveyancing',
    publishedAt: '2025-03-12T14:03:09Z',
    pdfKey: stack.pdfKey,
  });
  await writeViewer(stack.blobs, SLUG, output);
  await writeViewer(stack.blobs, LIVE, output);
  await withdrawPublication(stack.blobs, SLUG);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

test.each([
  ['390', PHONE_390],
  ['1280', DESKTOP],
] as const)(
  'at %s px the withdrawn page says what happened and whom to ask, in the pages’ look',
  async (width, options) => {
    await withRecordedPage(stack.browser, `${stack.base}/${SLUG}/`, options, async (page, seen) => {
      expect(await page.locator('h1').textContent()).toBe('This page was withdrawn');
      const text = (await page.locator('main').textContent()) ?? '';
      expect(text).toContain('has taken it down');
      expect(text).toContain('ask whoever sent you this link');
      // Styled: the page's own inline style applied, the CSP refused nothing.
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
        'rgb(233, 236, 239)',
      );
      expect(
        await page.evaluate(
          () => getComputedStyle(document.querySelector('main') as Element).backgroundColor,
        ),
      ).toBe('rgb(255, 255, 255)');
      expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual(
        [],
      );
      // The console reports the page's own 410; nothing else.
      expect(seen.consoleErrors.filter((error) => !error.includes('status of 410 (Gone)'))).toEqual([]);
      // Only the page itself answered an error status (410): its icon did not.
      expect(seen.failed).toEqual([`410 ${stack.base}/${SLUG}/`]);
      expect(await documentWidths(page)).toMatchObject({ scrollWidth: Number(width) });
      await page.screenshot({ path: join(RESULTS, `withdrawn-${width}.png`), fullPage: true });
    });
  },
);

test('axe finds nothing on the withdrawn page at 390 and 1280 px', async () => {
  expect(await axeViolations(stack.browser, `${stack.base}/${SLUG}/`, [390, 1280])).toEqual([]);
});

test('every page names an icon that answers, and so does /favicon.ico', async () => {
  await withRecordedPage(stack.browser, `${stack.base}/${LIVE}/`, DESKTOP, async (page) => {
    const icon = await page.locator('link[rel="icon"]').evaluate((link) => (link as HTMLLinkElement).href);
    const answered = await fetch(icon);
    expect(answered.status).toBe(200);
    expect(answered.headers.get('content-type')).toBe('image/svg+xml');
  });
  const root = await fetch(`${stack.base}/favicon.ico`);
  expect(root.status).toBe(200);
  expect(await root.text()).toMatch(/^<svg /);
});
