// Browser test of the review and snapshot pages: the drawn contract stored in the local S3 twin, each
// page written as a publication, served by the pages host, and opened in headless Chromium.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { writeViewer } from '../../lambdas/pages/publication';
import { type ReviewPageInput, renderReviewPage } from '../../lambdas/pages/review';
import { renderSnapshotPage } from '../../lambdas/pages/snapshot';
import {
  axeViolations,
  DESKTOP,
  documentWidths,
  expectOnlyOwnRequests,
  find,
  loadAllImages,
  type PagesStack,
  PHONE,
  RESULTS,
  startPagesStack,
  withRecordedPage,
} from './harness';

const TITLE = `Sale 2291 <script>alert("x")</script> & "O'Brien"`;
const REVIEW = `# Summary

The cooling-off period is **three business days** from the day of sale. <script>alert("review")</script>

## Points to check

1. The deposit of $125,000 is due on the day of sale.
2. See [Consumer Affairs](https://www.consumer.vic.gov.au/housing) or [write to us](mailto:help@example.com).
3. A link that must stay text: [click](javascript:alert(1)).

> Ask for the Section32StatementWithAllItsAnnexuresAndTheOwnersCorporationCertificate before signing.

| Item | Amount |
|:--|--:|
| Deposit | $125,000 |
| Balance | $1,125,000 |

Where to read more: https://www.example.com/a/very/long/path/that/would/otherwise/push/the/page/sideways
`;

const PAGES = [
  { kind: 'review', slug: 'pub_reviewK3mX8qZt2WvR9nBd', heading: 'Lawyer’s review', prepared: null },
  {
    kind: 'snapshot',
    slug: 'pub_snapshotP7cL4hYs6TgJ1fQe',
    heading: 'Lawyer’s advice',
    prepared: 'Prepared for Daniel O’Brien <jr> (daniel@example.com)',
  },
] as const;

/** The browser's find selected text in the contract's text layer, not in the review. */
const selectionInTextLayer = (page: Page): Promise<boolean> =>
  page.evaluate(() => Boolean(window.getSelection()?.anchorNode?.parentElement?.closest('.text-layer')));

/** The review's and the first page's boxes, where they are on the page. */
const boxes = (page: Page) =>
  page.evaluate(() => {
    const box = (selector: string) => {
      const r = document.querySelector(selector)?.getBoundingClientRect();
      if (!r) throw new Error(`no ${selector}`);
      return { left: r.left, right: r.right, top: r.top + window.scrollY, bottom: r.bottom + window.scrollY };
    };
    return { review: box('#review'), page: box('#page-1 .sheet') };
  });

// One pages host and one Chromium for both pages: each is written at its own slug.
let stack: PagesStack;

beforeAll(async () => {
  stack = await startPagesStack();
});

afterAll(async () => {
  await stack?.stop();
});

describe.each(PAGES)('the $kind page in Chromium', ({ kind, slug, heading, prepared }) => {
  let url: string;

  beforeAll(async () => {
    const { blobs, contract, pdfKey } = stack;
    const input: ReviewPageInput = {
      contract,
      title: TITLE,
      sender: 'Harbour Conveyancing',
      publishedAt: '2025-03-12T14:03:09Z',
      pdfKey,
      reviewMarkdown: REVIEW,
      reviewedAt: '2025-03-14T09:30:00Z',
      reviewerName: 'Ana Lee',
    };
    const output =
      kind === 'review'
        ? renderReviewPage(input)
        : renderSnapshotPage({
            ...input,
            recipient: { firstName: 'Daniel', lastName: 'O’Brien <jr>', email: 'daniel@example.com' },
          });
    await writeViewer(blobs, slug, output);
    url = `${stack.base}/${slug}/`;
  });

  test('at 1280 px: the review beside the pages, both found by the browser, nothing else fetched', async () => {
    await withRecordedPage(stack.browser, url, DESKTOP, async (page, seen) => {
      expect(await page.locator('h1').textContent()).toBe(TITLE);
      expect(await page.locator('h1').count()).toBe(1);
      expect(await page.locator('#review-title').textContent()).toBe(heading);
      // The snapshot names its one recipient; the review page, read by anyone with its link, names nobody.
      expect(await page.locator('.prepared').allTextContents()).toEqual(prepared === null ? [] : [prepared]);
      expect((await page.locator('body').textContent())?.includes('Prepared for')).toBe(prepared !== null);

      const images = await loadAllImages(page);
      expect(images).toHaveLength(6);
      for (const image of images) expect(image.naturalWidth).toBeGreaterThan(0);

      // The review's words, then the contract's, on the first page and on the last.
      expect(await find(page, 'three business days')).toBe(true);
      expect(await selectionInTextLayer(page)).toBe(false);
      expect(await find(page, 'Purchase price')).toBe(true);
      expect(await selectionInTextLayer(page)).toBe(true);
      expect(await find(page, 'Signed by the Purchaser')).toBe(true);
      expect(await selectionInTextLayer(page)).toBe(true);

      // The review's markup is text; its one unsafe link is not a link.
      expect(await page.locator('.review-body').textContent()).toContain('<script>alert("review")</script>');
      expect(
        await page.locator('.review-body a').evaluateAll((links) => links.map((a) => a.outerHTML)),
      ).toEqual([
        '<a href="https://www.consumer.vic.gov.au/housing" rel="noopener noreferrer nofollow">Consumer Affairs</a>',
        '<a href="mailto:help@example.com" rel="noopener noreferrer nofollow">write to us</a>',
      ]);

      // Beside: the review is a column right of the pages, level with the first page.
      await page.evaluate(() => window.scrollTo(0, 0));
      const at = await boxes(page);
      expect(at.review.left).toBeGreaterThanOrEqual(at.page.right);
      expect(at.review.top).toBeLessThan(at.page.bottom);
      // And stays in view while the reader goes down the pages.
      await page.locator('#page-3').scrollIntoViewIfNeeded();
      const top = await page.evaluate(() => document.getElementById('review')?.getBoundingClientRect().top);
      expect(top).toBe(0);

      await expectOnlyOwnRequests(page, seen, stack.base);
      await page.screenshot({ path: join(RESULTS, `${kind}-1280.png`) });
    });
  });

  test('at 320 px: the review first, then the pages, no sideways scrolling, nothing else fetched', async () => {
    await withRecordedPage(stack.browser, url, PHONE, async (page, seen) => {
      await loadAllImages(page);
      const sizes = await documentWidths(page);
      expect(sizes.scrollWidth).toBeLessThanOrEqual(sizes.clientWidth);
      const at = await boxes(page);
      expect(at.review.bottom).toBeLessThanOrEqual(at.page.top);
      expect(at.page.right - at.page.left).toBeGreaterThan(280);
      expect(await find(page, 'three business days')).toBe(true);
      expect(await find(page, 'Purchase price')).toBe(true);
      expect(await selectionInTextLayer(page)).toBe(true);
      await expectOnlyOwnRequests(page, seen, stack.base);
      await page.screenshot({ path: join(RESULTS, `${kind}-320.png`), fullPage: true });
    });
  });

  test('axe finds no accessibility violations at any width', async () => {
    expect(await axeViolations(stack.browser, url, [1280, 960, 320])).toEqual([]);
  });
});
