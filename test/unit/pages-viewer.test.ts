import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import type { RenderedPage } from '../../lambdas/core/rendered-contract';
import { escapeHtml } from '../../lambdas/pages/html';
import { renderNotFound, renderWithdrawn } from '../../lambdas/pages/plain';
import { PAGE_CSP, PAGE_CSP_META } from '../../lambdas/pages/security';
import {
  type FontSubset,
  fontFile,
  subsetsFor,
  TEXT_LAYER_FAMILY,
  textWidthEm,
} from '../../lambdas/pages/text-layer-font';
import { TEXT_LAYER_FONT_DATA } from '../../lambdas/pages/text-layer-font-data';
import { readTextLayerFontData } from '../../lambdas/pages/text-layer-font-source';
import { INDEX_FILE, renderViewer, type ViewerInput } from '../../lambdas/pages/viewer';

const page = (number: number, text: RenderedPage['text']): RenderedPage => ({
  number,
  widthPoints: 595,
  heightPoints: 842,
  image: {
    key: `renders/crv_1/v2/page-000${number}.jpg`,
    contentType: 'image/jpeg',
    width: 1240,
    height: 1754,
  },
  thumbnail: {
    key: `renders/crv_1/v2/thumb-000${number}.webp`,
    contentType: 'image/webp',
    width: 160,
    height: 226,
  },
  text,
});

const HOSTILE = `</title><script>alert("x")</script><img src=x onerror='alert(1)'> & "Smith's"`;

const input = (overrides: Partial<ViewerInput> = {}): ViewerInput => ({
  contract: {
    contractReviewId: 'crv_1',
    version: 2,
    pageCount: 2,
    pages: [
      page(1, [
        { text: 'Purchase price', x: 0.1, y: 0.2, width: 0.25, height: 0.02 },
        { text: '   ', x: 0.4, y: 0.2, width: 0.01, height: 0.02 },
        { text: '<b>$1,000,000</b> & "more"', x: 0.5, y: 0.2, width: 0.3, height: 0.02 },
      ]),
      page(2, []),
    ],
  },
  title: 'sale-2291',
  sender: 'Harbour Conveyancing',
  publishedAt: '2025-03-12T14:03:09.123456Z',
  pdfKey: 'uploads/crv_1/v2.pdf',
  ...overrides,
});

/** A text file of the output: `index.html`, or `css` for the stylesheet. */
const file = (output: ReturnType<typeof renderViewer>, path: string): { path: string; body: string } => {
  const found = output.files.find((f) => f.path === path || (path === 'css' && f.path.endsWith('.css')));
  if (!found) throw new Error(`no ${path}`);
  if (typeof found.body !== 'string') throw new Error(`${path} is not text`);
  return { path: found.path, body: found.body };
};

describe('renderViewer', () => {
  test('a title with markup and quotes stays text, in the heading, the title and the file name', () => {
    const output = renderViewer(input({ title: HOSTILE }));
    const html = file(output, INDEX_FILE).body;
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toMatch(/onerror='/);
    expect(html).toContain(`<h1>${escapeHtml(HOSTILE)}</h1>`);
    expect(html).toContain(`<title>${escapeHtml(HOSTILE)} – contract</title>`);
    // The download name keeps safe characters only.
    expect(html).toMatch(/download="[A-Za-z0-9._-]+-v2\.pdf"/);
    expect(escapeHtml(HOSTILE)).not.toMatch(/[<>"']/);
  });

  test('the header names the organisation that sent the contract, escaped; no line when it has no name', () => {
    const banner = (sender: string | null) => {
      const html = file(renderViewer(input({ sender })), INDEX_FILE).body;
      return html.slice(html.indexOf('<header'), html.indexOf('</header>'));
    };
    expect(banner('Harbour Conveyancing')).toContain('<p class="sender">From Harbour Conveyancing</p>');
    const hostile = banner(HOSTILE);
    expect(hostile).toContain(`<p class="sender">From ${escapeHtml(HOSTILE)}</p>`);
    expect(hostile).not.toContain('<script>');
    expect(banner(null)).not.toContain('class="sender"');
  });

  test('text runs are escaped: markup in a PDF is text on the page', () => {
    const html = file(renderViewer(input()), INDEX_FILE).body;
    expect(html).toContain('&lt;b&gt;$1,000,000&lt;/b&gt; &amp; &quot;more&quot;');
    expect(html).not.toContain('<b>');
  });

  test('every text run with text becomes a positioned span, in reading order, placed by the stylesheet', () => {
    const output = renderViewer(input());
    const html = file(output, INDEX_FILE).body;
    const css = file(output, 'css').body;
    const spans = [...html.matchAll(/<span class="(t\d+-\d+)">([^<]*)<\/span>/g)];
    expect(spans.map((m) => m[2])).toEqual([
      'Purchase price',
      '&lt;b&gt;$1,000,000&lt;/b&gt; &amp; &quot;more&quot;',
    ]);
    // Run 2 is whitespace only and has no span; each span's class has its own rule.
    expect(spans.map((m) => m[1])).toEqual(['t1-1', 't1-3']);
    expect(css).toContain('.t1-1{left:10%;top:20%;font-size:2.8303cqw;');
    expect(css).toMatch(/\.t1-3\{left:50%;top:20%;font-size:2\.8303cqw;transform:scaleX\([\d.]+\)\}/);
    expect(html).not.toMatch(/style=/);
  });

  test('each page image says which page it is; a page without text says so to a screen reader', () => {
    const html = file(renderViewer(input()), INDEX_FILE).body;
    expect(html).toContain('alt="Page 1 of 2"');
    expect(html).toContain('alt="Page 2 of 2"');
    expect(html).toContain('No text could be read from this page.');
    expect(html).toMatch(/<img class="scan" src="v2\/page-2\.jpg"[^>]*loading="lazy"/);
    expect(html).toContain('<a href="#page-2">');
  });

  test('a whole contract has no notice', () => {
    const html = file(renderViewer(input()), INDEX_FILE).body;
    expect(html).not.toContain('class="notice"');
    expect(html).not.toContain('page-notice');
  });

  test('pages shown in part: the banner names them, linked, and each page says what is missing, with the PDF', () => {
    const base = input();
    const [first, second] = base.contract.pages as [RenderedPage, RenderedPage];
    const contract = {
      ...base.contract,
      pageCount: 3,
      pages: [
        { ...first, problems: ['text_unavailable' as const], text: [], problemDetail: 'Invalid number' },
        { ...second, problems: ['image_unavailable' as const], problemDetail: 'canvas too large' },
        page(3, []),
      ],
    };
    const html = file(renderViewer(input({ contract })), INDEX_FILE).body;
    const banner = html.slice(html.indexOf('<header'), html.indexOf('</header>'));
    expect(banner).toContain('<p class="notice" role="status">');
    expect(banner).toContain('Page <a href="#page-2">2</a> could not be displayed; it is in the PDF.');
    expect(banner).toContain('Page <a href="#page-1">1</a> has no text to search or select.');
    const section = (n: number) =>
      html.slice(html.indexOf(`id="page-${n}"`), html.indexOf('</section>', html.indexOf(`id="page-${n}"`)));
    // The placeholder image is not described as the page; the notice over it says what happened.
    expect(section(2)).toContain('alt=""');
    expect(section(2)).toMatch(
      /<p class="page-notice over" role="note">Page 2 could not be displayed\. <a href="v2\/contract\.pdf">Download the PDF<\/a>/,
    );
    expect(section(1)).toContain(
      '<p class="page-notice" role="note">Page 1 has no text to search or select: it could not be read.',
    );
    expect(section(1)).not.toContain('No text could be read from this page.');
    // A page without text and without a problem (a scan) is as before; the operator's detail is never shown.
    expect(section(3)).not.toContain('page-notice');
    expect(html).not.toContain('Invalid number');
    expect(html).not.toContain('canvas too large');
  });

  test('pages drawn without some of their pictures: named in the banner and on the page, which is still described as the page', () => {
    const base = input();
    const [first, second] = base.contract.pages as [RenderedPage, RenderedPage];
    const incomplete = (p: RenderedPage): RenderedPage => ({ ...p, problems: ['image_incomplete'] });
    const contract = {
      ...base.contract,
      pageCount: 3,
      pages: [incomplete(first), second, incomplete(page(3, []))],
    };
    const html = file(renderViewer(input({ contract })), INDEX_FILE).body;
    expect(html).toContain(
      'Pages <a href="#page-1">1</a> and <a href="#page-3">3</a> are shown without some of their pictures.',
    );
    const section = html.slice(
      html.indexOf('id="page-1"'),
      html.indexOf('</section>', html.indexOf('id="page-1"')),
    );
    expect(section).toContain(
      '<p class="page-notice" role="note">Page 1 is shown without some of its pictures: they could not be displayed.',
    );
    expect(section).toContain('alt="Page 1 of 3"');
    const one = { ...base.contract, pages: [incomplete(first), second] };
    expect(file(renderViewer(input({ contract: one })), INDEX_FILE).body).toContain(
      'Page <a href="#page-1">1</a> is shown without some of its pictures.',
    );
  });

  test('several pages in the banner are listed in words', () => {
    const base = input();
    const broken = (n: number): RenderedPage => ({ ...page(n, []), problems: ['image_unavailable'] });
    const contract = { ...base.contract, pageCount: 3, pages: [broken(1), page(2, []), broken(3)] };
    const html = file(renderViewer(input({ contract })), INDEX_FILE).body;
    expect(html).toContain(
      'Pages <a href="#page-1">1</a> and <a href="#page-3">3</a> could not be displayed; they are in the PDF.',
    );
  });

  test('paths are relative to the base and versioned; the blobs to copy are listed; index.html comes last', () => {
    const output = renderViewer(input());
    expect(output.files.map((f) => f.path)).toEqual([
      expect.stringMatching(/^v2\/arimo-latin-400-normal-[0-9a-f]{12}\.woff2$/),
      'v2/icon.svg',
      'v2/local-time.js',
      expect.stringMatching(/^v2\/viewer-[0-9a-f]{16}\.css$/),
      INDEX_FILE,
    ]);
    expect(output.copies).toEqual([
      { path: 'v2/contract.pdf', contentType: 'application/pdf', fromKey: 'uploads/crv_1/v2.pdf' },
      { path: 'v2/page-1.jpg', contentType: 'image/jpeg', fromKey: 'renders/crv_1/v2/page-0001.jpg' },
      { path: 'v2/thumb-1.webp', contentType: 'image/webp', fromKey: 'renders/crv_1/v2/thumb-0001.webp' },
      { path: 'v2/page-2.jpg', contentType: 'image/jpeg', fromKey: 'renders/crv_1/v2/page-0002.jpg' },
      { path: 'v2/thumb-2.webp', contentType: 'image/webp', fromKey: 'renders/crv_1/v2/thumb-0002.webp' },
    ]);
    const html = file(output, INDEX_FILE).body;
    expect(html).not.toMatch(/(src|href)="(\/|https?:)/);
  });

  test('the same input gives the same files (a retried publish rewrites the same bytes)', () => {
    expect(renderViewer(input())).toEqual(renderViewer(input()));
  });

  test('refuses a contract whose pages do not match its page count', () => {
    const bad = input();
    bad.contract.pageCount = 3;
    expect(() => renderViewer(bad)).toThrow(/pageCount/);
  });

  test('an unreadable publication time is refused rather than shown', () => {
    expect(() => renderViewer(input({ publishedAt: 'yesterday' }))).toThrow(/publishedAt/);
  });
});

describe('the content security policy', () => {
  test('allows no inline code or style and nothing from another origin', () => {
    for (const policy of [PAGE_CSP, PAGE_CSP_META]) {
      expect(policy).not.toContain('unsafe-inline');
      expect(policy).not.toContain('unsafe-eval');
      expect(policy).not.toMatch(/https?:|\*/);
      expect(policy).toContain("default-src 'none'");
    }
    expect(PAGE_CSP).toContain("frame-ancestors 'none'");
  });

  test('every page carries it in a meta tag too', () => {
    const meta = `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(PAGE_CSP_META)}">`;
    expect(file(renderViewer(input()), INDEX_FILE).body).toContain(meta);
    expect(renderWithdrawn()).toContain(meta);
    expect(renderNotFound()).toContain(meta);
  });
});

describe('the text layer font', () => {
  const subset = (file: string): FontSubset => {
    const found = TEXT_LAYER_FONT_DATA.subsets.find((s) => s.file === file);
    if (!found) throw new Error(`no subset ${file}`);
    return found;
  };

  test('ships beside the stylesheet the subsets its text needs, declared for the layer alone', () => {
    const mixed = input();
    mixed.contract.pages[1]?.text.push(
      { text: 'Łódź', x: 0.1, y: 0.1, width: 0.1, height: 0.02 },
      { text: 'Αθήνα', x: 0.1, y: 0.2, width: 0.1, height: 0.02 },
    );
    const output = renderViewer(mixed);
    const fonts = output.files.filter((f) => f.path.endsWith('.woff2'));
    expect(fonts.map((f) => f.path)).toEqual([
      expect.stringMatching(/^v2\/arimo-greek-400-normal-[0-9a-f]{12}\.woff2$/),
      expect.stringMatching(/^v2\/arimo-latin-ext-400-normal-[0-9a-f]{12}\.woff2$/),
      expect.stringMatching(/^v2\/arimo-latin-400-normal-[0-9a-f]{12}\.woff2$/),
    ]);
    const css = file(output, 'css').body;
    for (const font of fonts) {
      expect(font.contentType).toBe('font/woff2');
      expect(Buffer.from(font.body).subarray(0, 4).toString('latin1')).toBe('wOF2');
      const name = font.path.slice('v2/'.length);
      const rule = css.match(new RegExp(`@font-face\\{[^}]*url\\(${name}\\)[^}]*\\}`))?.[0] ?? '';
      expect(rule).toContain(`font-family:"${TEXT_LAYER_FAMILY}"`);
      expect(rule).toContain('font-display:block');
      expect(rule).toMatch(/unicode-range:U\+[0-9A-F]/);
    }
    // Only the layer is set in it, with nothing that would change its widths.
    expect(css.match(new RegExp(`font-family:"${TEXT_LAYER_FAMILY}"`, 'g'))).toHaveLength(fonts.length + 1);
    expect(css).toMatch(
      new RegExp(`\\.text-layer\\{[^}]*font-family:"${TEXT_LAYER_FAMILY}",sans-serif;[^}]*font-kerning:none`),
    );
  });

  test('a contract without text ships no font', () => {
    const blank = input();
    for (const page of blank.contract.pages) page.text = [];
    const output = renderViewer(blank);
    expect(output.files.filter((f) => f.path.endsWith('.woff2'))).toEqual([]);
    expect(file(output, 'css').body).not.toContain('@font-face');
  });

  test('subsetsFor picks each subset whose range holds a character of the text', () => {
    expect(subsetsFor(['Purchase price']).map((s) => s.file)).toEqual(['arimo-latin-400-normal.woff2']);
    expect(subsetsFor(['Договор', 'חוזה']).map((s) => s.file)).toEqual([
      'arimo-cyrillic-400-normal.woff2',
      'arimo-hebrew-400-normal.woff2',
    ]);
    expect(subsetsFor([])).toEqual([]);
  });

  test('its widths are those of the font the page ships, as a canvas draws it (no system font)', () => {
    const samples: Array<[string, string]> = [
      ['arimo-latin-400-normal.woff2', 'Purchase price'],
      ['arimo-latin-400-normal.woff2', 'CONTRACT OF SALE OF LAND'],
      ['arimo-latin-400-normal.woff2', '$1,250,000 (ten per cent)'],
      ['arimo-latin-400-normal.woff2', 'il1|.,;: “quoted” – 5 € … O’Brien'],
      ['arimo-latin-ext-400-normal.woff2', 'ŁĄĆĘŃŚŹŻ łąćęńśźż ŠšŽž'],
      ['arimo-greek-400-normal.woff2', 'Αθήνα Ελλάδα'],
      ['arimo-cyrillic-400-normal.woff2', 'Договор купли-продажи'],
      ['arimo-hebrew-400-normal.woff2', 'חוזה מכר'],
    ];
    for (const [name, text] of samples) {
      // Each subset under a family of its own, from the very bytes the page ships.
      const family = `Shipped ${name}`;
      GlobalFonts.register(Buffer.from(fontFile(subset(name)).bytes), family);
      const context = createCanvas(10, 10).getContext('2d');
      context.font = `1000px "${family}"`;
      // Every character the subset draws, alone; then the whole text where the subset draws all of it,
      // so that kerning, which the layer turns off, would show.
      const drawn = [...new Set(text)].filter((char) => subsetsFor([char])[0]?.file === name);
      expect(drawn.length).toBeGreaterThan(3);
      for (const char of drawn) {
        const measured = context.measureText(char).width / 1000;
        expect([char, measured]).toEqual([char, expect.closeTo(textWidthEm(char), 4)]);
      }
      if (drawn.length === new Set(text).size) {
        const measured = context.measureText(text).width / 1000;
        expect(Math.abs(textWidthEm(text) - measured) / measured).toBeLessThan(0.005);
      }
    }
  });

  test('the widths table is the installed package read again (run `npm run fonts` after an upgrade)', () => {
    expect(TEXT_LAYER_FONT_DATA).toEqual(readTextLayerFontData());
  });

  test('a character the font lacks counts as an average letter, a CJK full-width one as one em', () => {
    expect(textWidthEm('ᚠ')).toBeCloseTo(0.556, 3);
    expect(textWidthEm('漢字かなカナ한글，')).toBe(9);
    expect(textWidthEm('')).toBe(0);
  });
});
