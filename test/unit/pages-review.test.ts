import type { RenderedContract, TextRun } from '../../lambdas/core/rendered-contract';
import { escapeHtml } from '../../lambdas/pages/html';
import { isAllowedLink, markdownToHtml } from '../../lambdas/pages/markdown';
import { type ReviewPageInput, renderReviewPage } from '../../lambdas/pages/review';
import { renderSnapshotPage, type SnapshotPageInput } from '../../lambdas/pages/snapshot';
import { INDEX_FILE, renderViewer, type ViewerOutput } from '../../lambdas/pages/viewer';

const HOSTILE = `</title><script>alert("x")</script><img src=x onerror='alert(1)'> & "Smith's"`;

/** A contract of version 4 whose page n has the runs `texts[n - 1]`, stacked down the page. */
const contractOf = (texts: string[][]): RenderedContract => ({
  contractReviewId: 'crv_9',
  version: 4,
  pageCount: texts.length,
  pages: texts.map((runs, i) => {
    const key = (kind: string) => `renders/crv_9/v4/${kind}-${i + 1}.png`;
    return {
      number: i + 1,
      widthPoints: 612,
      heightPoints: 792,
      image: { key: key('page'), contentType: 'image/png', width: 1275, height: 1650 },
      thumbnail: { key: key('thumb'), contentType: 'image/png', width: 150, height: 194 },
      text: runs.map((text, j): TextRun => ({ text, x: 0.1, y: 0.1 + j * 0.05, width: 0.4, height: 0.015 })),
    };
  }),
});

const REVIEW = [
  '# Summary',
  '',
  'The deposit is **10%**. <script>alert("review")</script> <b>raw</b>',
  '',
  '## Special conditions',
  '',
  '- [the act](https://legislation.example/act) and [ask us](mailto:help@example.com)',
  '- [click](javascript:alert(1)) [again](JAVASCRIPT:alert(2)) [data](data:text/html,x)',
].join('\n');

const reviewInput = (overrides: Partial<ReviewPageInput> = {}): ReviewPageInput => ({
  contract: contractOf([['Purchase price', '$1,250,000 & <more>'], [], ['Signed by the Vendor']]),
  title: 'sale-2291',
  sender: 'Harbour Conveyancing',
  publishedAt: '2025-03-12T14:03:09Z',
  pdfKey: 'uploads/crv_9/v4.pdf',
  reviewMarkdown: REVIEW,
  reviewedAt: '2025-03-14T09:30:00Z',
  reviewerName: 'Ana Lee',
  ...overrides,
});

const snapshotInput = (overrides: Partial<SnapshotPageInput> = {}): SnapshotPageInput => ({
  ...reviewInput(),
  recipient: { firstName: 'Daniel', lastName: 'O’Brien', email: 'daniel@example.com' },
  ...overrides,
});

/** A text file of the output, found by its path. */
const textOf = (output: ViewerOutput, matches: (path: string) => boolean): string => {
  const found = output.files.find((f) => matches(f.path));
  if (typeof found?.body !== 'string') throw new Error('no such text file');
  return found.body;
};

const indexOf = (output: ViewerOutput): string => textOf(output, (path) => path === INDEX_FILE);
/** The page without its one script, the pages' own file (local-time.js): any other is a fault. */
const withoutOwnScript = (html: string): string => {
  const own = /<script src="v\d+\/local-time\.js" defer><\/script>\n?/g;
  expect(html.match(own)).toHaveLength(1);
  return html.replace(own, '');
};

const headings = (html: string): string[] => [...html.matchAll(/<h([1-6])\b/g)].map((m) => `h${m[1]}`);

describe('markdownToHtml', () => {
  test('raw HTML is shown as text, never as markup', () => {
    const html = markdownToHtml('<script>alert(1)</script>\n\nHi <img src=x onerror="alert(2)"> <b>b</b>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(2)&quot;&gt;');
  });

  test('links go to http, https and mailto only, each with rel; any other target stays text', () => {
    const html = markdownToHtml(
      [
        '[a](https://example.com/x?y=1&z=2) [b](http://example.org) [c](mailto:me@example.com)',
        '[js](javascript:alert(1)) [js2](JaVaScRiPt:alert(1)) [ent](&#106;avascript:alert(1))',
        '[vb](vbscript:msgbox) [data](data:text/html;base64,PHNjcmlwdD4=) [file](file:///etc/passwd)',
        '[rel](/admin) [proto](//evil.example) [bare](http:evil) [ref][r] <javascript:alert(3)>',
        '',
        '[r]: javascript:alert(4)',
      ].join('\n'),
    );
    const hrefs = [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual([
      'https://example.com/x?y=1&amp;z=2',
      'http://example.org',
      'mailto:me@example.com',
    ]);
    expect(html.match(/<a /g)).toHaveLength(3);
    expect(html.match(/rel="noopener noreferrer nofollow"/g)).toHaveLength(3);
    expect(html).not.toMatch(/href="(javascript|vbscript|data|file):/i);
    // The refused links are still there to read, as the text the lawyer wrote.
    expect(html).toContain('[js](javascript:alert(1))');
    expect(html).toContain('[rel](/admin)');
  });

  test('the allowed-link check itself refuses what markdown-it would let through', () => {
    expect(isAllowedLink('https://example.com')).toBe(true);
    expect(isAllowedLink('mailto:a@example.com')).toBe(true);
    for (const href of [
      '/relative',
      '#top',
      '//host.example',
      'http:host',
      'ftp://x.example',
      'tel:123',
      'https://',
    ])
      expect(isAllowedLink(href)).toBe(false);
  });

  test('no bare address becomes a link, no image is made, no table cell gets a style', () => {
    const html = markdownToHtml(
      'See www.example.com and https://example.com\n\n![plan](https://evil.example/p.png)\n\n| a | b |\n|:-:|--:|\n| 1 | 2 |',
    );
    expect(html).toContain('See www.example.com and https://example.com</p>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('style=');
    expect(html).toContain('<th class="align-center">a</th>');
    expect(html).toContain('<td class="align-right">2</td>');
  });

  test('headings are shifted below the page heading and never skip a level', () => {
    expect(headings(markdownToHtml('# A\n## B\n### C\n###### F'))).toEqual(['h2', 'h3', 'h4', 'h5']);
    expect(headings(markdownToHtml('### Starts deep\n# Top\n#### Skips'))).toEqual(['h2', 'h2', 'h3']);
    expect(headings(markdownToHtml('# A\n## B\n### C\n#### D', { topLevel: 3 }))).toEqual([
      'h3',
      'h4',
      'h5',
      'h6',
    ]);
    expect(headings(markdownToHtml('# A\n## B\n### C\n#### D\n##### E', { topLevel: 3 })).at(-1)).toBe('h6');
    // Opening and closing tags agree.
    expect(markdownToHtml('### Starts deep')).toBe('<h2>Starts deep</h2>\n');
    expect(() => markdownToHtml('# A', { topLevel: 1 })).toThrow(/topLevel/);
  });
});

describe('renderReviewPage', () => {
  test('the title stays text, in the heading, the document title and the download name', () => {
    const html = indexOf(renderReviewPage(reviewInput({ title: HOSTILE })));
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain(`<h1>${escapeHtml(HOSTILE)}</h1>`);
    expect(html).toContain(`<title>${escapeHtml(HOSTILE)} – lawyer’s review</title>`);
    expect(html).toMatch(/download="[A-Za-z0-9._-]+-v4\.pdf"/);
  });

  test('the review is on the page, its markup inert and its headings below the page’s only h1', () => {
    const html = indexOf(renderReviewPage(reviewInput()));
    expect(html).toContain('<strong>10%</strong>');
    expect(html).toContain('&lt;script&gt;alert(&quot;review&quot;)&lt;/script&gt; &lt;b&gt;raw&lt;/b&gt;');
    expect(withoutOwnScript(html)).not.toMatch(/<script|<b>|href="(javascript|data):/i);
    expect(html).toContain('<a href="https://legislation.example/act" rel="noopener noreferrer nofollow">');
    expect(html).toContain('<time datetime="2025-03-14T09:30:00.000Z">14 March 2025 at 09:30 UTC</time>');
    // h1 the title; h2 the review, its headings h3 and h4; then h2 a page (three); then the Text view: h2
    // the contract's text, h3 each of its pages.
    expect(headings(html)).toEqual(['h1', 'h2', 'h3', 'h4', 'h2', 'h2', 'h2', 'h2', 'h3', 'h3', 'h3']);
    expect(html).toContain('<h3>Summary</h3>');
    expect(html).toContain('<h4>Special conditions</h4>');
  });

  test('names the lawyer who reviewed it, escaped, and a lawyer in general when none is on record', () => {
    const meta = (reviewerName: string | null) =>
      (indexOf(renderReviewPage(reviewInput({ reviewerName }))).match(/<p class="review-meta">.*<\/p>/) ??
        [])[0];
    expect(meta('Ana Lee')).toBe(
      '<p class="review-meta">Reviewed by Ana Lee on <time datetime="2025-03-14T09:30:00.000Z">14 March 2025 at 09:30 UTC</time></p>',
    );
    expect(meta(HOSTILE)).toContain(`Reviewed by ${escapeHtml(HOSTILE)} on <time`);
    expect(meta(null)).toContain('Reviewed by a lawyer on <time');
    // The snapshot page says the same.
    const snapshot = indexOf(renderSnapshotPage(snapshotInput()));
    expect(snapshot).toContain('<p class="review-meta">Reviewed by Ana Lee on <time');
  });

  test('the contract’s pages are the viewer’s own: images, text runs and thumbnails', () => {
    const input = reviewInput();
    const html = indexOf(renderReviewPage(input));
    const viewer = indexOf(renderViewer(input));
    const pages = viewer.slice(viewer.indexOf('<section class="page"'), viewer.lastIndexOf('</section>'));
    const thumbs = viewer.slice(viewer.indexOf('<nav class="thumbs"'), viewer.indexOf('</nav>'));
    expect(pages).toContain('<span class="t1-1">Purchase price</span>');
    expect(html).toContain(pages);
    expect(html).toContain(thumbs);
    expect(html).toContain('<span class="t1-2">$1,250,000 &amp; &lt;more&gt;</span>');
    expect(html).toContain('<span class="t3-1">Signed by the Vendor</span>');
    expect(html).toContain('No text could be read from this page.');
    // The review comes before the pages, so a phone shows it first.
    expect(html.indexOf('id="review"')).toBeLessThan(html.indexOf('id="pages"'));
  });

  test('every file is under the version folder but index.html, which comes last; no inline style', () => {
    const output = renderReviewPage(reviewInput());
    expect(output.files.map((f) => f.path)).toEqual([
      expect.stringMatching(/^v4\/arimo-latin-400-normal-[0-9a-f]{12}\.woff2$/),
      'v4/icon.svg',
      'v4/local-time.js',
      expect.stringMatching(/^v4\/review-[0-9a-f]{16}\.css$/),
      INDEX_FILE,
    ]);
    expect(output.copies.map((c) => c.path)).toEqual([
      'v4/contract.pdf',
      'v4/page-1.png',
      'v4/thumb-1.png',
      'v4/page-2.png',
      'v4/thumb-2.png',
      'v4/page-3.png',
      'v4/thumb-3.png',
    ]);
    expect(output.copies[0]).toEqual({
      path: 'v4/contract.pdf',
      contentType: 'application/pdf',
      fromKey: 'uploads/crv_9/v4.pdf',
    });
    const html = indexOf(output);
    expect(html).toContain(`<link rel="stylesheet" href="${output.files[3]?.path}">`);
    expect(withoutOwnScript(html)).not.toMatch(/style=|<style|<script/);
    expect(html).not.toMatch(/src="(\/|https?:)/);
    const css = textOf(output, (path) => path.endsWith('.css'));
    expect(css).toContain('@font-face{');
    expect(css).toMatch(/\.t1-1\{left:10%;top:10%;font-size:[\d.]+cqw;transform:scaleX\([\d.]+\)\}/);
    expect(css).toContain('.reviewed{');
    expect(css).toContain('.text-layer{');
  });

  test('the same input gives the same files', () => {
    expect(renderReviewPage(reviewInput())).toEqual(renderReviewPage(reviewInput()));
  });

  test('refuses an unreadable review time, an empty review and a contract that does not add up', () => {
    expect(() => renderReviewPage(reviewInput({ reviewedAt: 'last week' }))).toThrow(/reviewedAt/);
    expect(() => renderReviewPage(reviewInput({ publishedAt: '' }))).toThrow(/publishedAt/);
    expect(() => renderReviewPage(reviewInput({ reviewMarkdown: ' \n ' }))).toThrow(/reviewMarkdown/);
    const bad = reviewInput();
    bad.contract.pageCount = 2;
    expect(() => renderReviewPage(bad)).toThrow(/pageCount/);
  });
});

describe('renderSnapshotPage', () => {
  test('says whom it was prepared for, the names and email escaped', () => {
    const html = indexOf(
      renderSnapshotPage(
        snapshotInput({
          recipient: { firstName: HOSTILE, lastName: '<i>Lee</i>', email: '"x"@example.com<script>' },
        }),
      ),
    );
    expect(html).toContain(
      `<p class="prepared">Prepared for ${escapeHtml(`${HOSTILE} <i>Lee</i>`)} (&quot;x&quot;@example.com&lt;script&gt;)</p>`,
    );
    expect(withoutOwnScript(html)).not.toMatch(/<script|<i>|<img src=x/);
    expect(indexOf(renderSnapshotPage(snapshotInput()))).toContain(
      'Prepared for Daniel O’Brien (daniel@example.com)',
    );
  });

  test('holds the review and the contract, every file under the version folder, index.html last', () => {
    const output = renderSnapshotPage(snapshotInput());
    const html = indexOf(output);
    expect(output.files.at(-1)?.path).toBe(INDEX_FILE);
    for (const path of [...output.files.slice(0, -1), ...output.copies].map((f) => f.path))
      expect(path).toMatch(/^v4\/[a-z0-9.-]+$/);
    expect(output.copies).toHaveLength(7);
    expect(html).toContain('<h2 class="review-title" id="review-title">Lawyer’s advice</h2>');
    expect(html).toContain('<h3>Summary</h3>');
    expect(html).toContain('<span class="t1-1">Purchase price</span>');
    expect(html.match(/<h1\b/g)).toHaveLength(1);
    expect(renderSnapshotPage(snapshotInput())).toEqual(output);
  });

  test('refuses a recipient without a name or an email', () => {
    const recipient = { firstName: 'Daniel', lastName: 'O’Brien', email: 'daniel@example.com' };
    expect(() => renderSnapshotPage(snapshotInput({ recipient: { ...recipient, lastName: ' ' } }))).toThrow(
      /lastName/,
    );
    expect(() => renderSnapshotPage(snapshotInput({ recipient: { ...recipient, email: '' } }))).toThrow(
      /email/,
    );
  });
});
