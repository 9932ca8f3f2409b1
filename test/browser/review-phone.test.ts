// Browser test of the review and snapshot pages at 390 and 1280 px: every "clause N" and "page N" of
// the lawyer's review links to the contract's page where it is (clause 4 starts on page 2 of the drawn
// contract), a reference to nothing in the contract stays text; the Text view reflows the contract beside
// the review; axe finds nothing. Screenshots go to test-results/ to look at.
import { join } from 'node:path';
import { writeViewer } from '../../lambdas/pages/publication';
import { type ReviewPageInput, renderReviewPage } from '../../lambdas/pages/review';
import { renderSnapshotPage } from '../../lambdas/pages/snapshot';
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

const REVIEW = `# Summary

The special conditions favour the vendor; ask about clause 4 before you sign, and see page 3 for
where you sign. Clause 99 is not in this contract. [Clause 2 explained](https://www.example.com/c2).
`;

const SLUGS = { review: 'pub_reviewPhone3mX8qZt2WvR9', snapshot: 'pub_snapPhone7cL4hYs6TgJ1f' } as const;

let stack: PagesStack;

beforeAll(async () => {
  stack = await startPagesStack();
  const input: ReviewPageInput = {
    contract: stack.contract,
    title: 'Sale 2291',
    sender: 'Harbour Conveyancing',
    publishedAt: '2025-03-12T14:03:09.123456Z',
    pdfKey: stack.pdfKey,
    reviewMarkdown: REVIEW,
    reviewedAt: '2025-03-13T09:20:00Z',
    reviewerName: 'Ana Lee',
  };
  await writeViewer(stack.blobs, SLUGS.review, renderReviewPage(input));
  await writeViewer(
    stack.blobs,
    SLUGS.snapshot,
    renderSnapshotPage({
      ...input,
      recipient: { firstName: 'Priya', lastName: 'Nair', email: 'priya.nair@example.com' },
    }),
  );
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe.each(Object.entries(SLUGS))('the %s page', (kind, slug) => {
  test.each([
    ['390', PHONE_390],
    ['1280', DESKTOP],
  ] as const)(
    'at %s px: the review links its clause and page references to the pages',
    async (width, options) => {
      await withRecordedPage(stack.browser, `${stack.base}/${slug}/`, options, async (page, seen) => {
        const review = page.locator('.review-body');
        const references = await review
          .locator('a.reference')
          .evaluateAll((links) => links.map((link) => `${link.textContent} -> ${link.getAttribute('href')}`));
        expect(references).toEqual(['clause 4 -> #page-2', 'page 3 -> #page-3']);
        // Clause 99 is nowhere in the contract: text. The lawyer's own link stays theirs.
        expect(await review.getByRole('link', { name: 'Clause 99' }).count()).toBe(0);
        expect(await review.getByRole('link', { name: 'Clause 2 explained' }).getAttribute('href')).toBe(
          'https://www.example.com/c2',
        );
        expect(await documentWidths(page)).toMatchObject({ scrollWidth: Number(width) });
        await page.screenshot({ path: join(RESULTS, `${kind}-phone-${width}.png`), fullPage: true });

        // By keyboard: the link takes the reader to the page where clause 4 is.
        await review.getByRole('link', { name: 'clause 4' }).focus();
        await page.keyboard.press('Enter');
        await page.waitForFunction(() => location.hash === '#page-2');
        await page.waitForFunction(() => {
          const top = document.getElementById('page-2')?.getBoundingClientRect().top ?? -1;
          return top >= 0 && top < window.innerHeight / 2;
        });

        // The Text view, beside the review on a desktop, after it on a phone.
        await page.getByRole('link', { name: 'Text', exact: true }).click();
        await page.waitForFunction(() => location.hash === '#text');
        const size = await page
          .locator('#text p')
          .first()
          .evaluate((p) => Number.parseFloat(getComputedStyle(p).fontSize));
        expect(size).toBeGreaterThanOrEqual(16);
        expect(await page.locator('#page-1').isVisible()).toBe(false);
        await page.screenshot({ path: join(RESULTS, `${kind}-text-${width}.png`), fullPage: true });
        await expectOnlyOwnRequests(page, seen, stack.base);
      });
    },
  );

  test('axe finds nothing at 390 and 1280 px, in either view', async () => {
    const url = `${stack.base}/${slug}/`;
    expect(await axeViolations(stack.browser, url, [390, 1280])).toEqual([]);
    expect(await axeViolations(stack.browser, `${url}#text`, [390, 1280])).toEqual([]);
  });
});
