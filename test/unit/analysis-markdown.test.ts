// The lawyer's Markdown brief, and the money and date readers it relies on.
import {
  analyseContract,
  analysisToMarkdown,
  escapeMarkdown,
  formatMoney,
} from '../../lambdas/core/analysis';
import { findExplicitDate, findRelativePeriod } from '../../lambdas/core/analysis/dates';
import { findAmounts, findPercent } from '../../lambdas/core/analysis/money';

describe('escapeMarkdown', () => {
  test.each([
    ['*bold* _it_', '\\*bold\\* \\_it\\_'],
    ['[link](http://x)', '\\[link\\]\\(http://x\\)'],
    ['<script>alert(1)</script>', '\\<script\\>alert\\(1\\)\\</script\\>'],
    ['a `code` | pipe # hash', 'a \\`code\\` \\| pipe \\# hash'],
    ['back\\slash', 'back\\\\slash'],
    ['&copy; but not & alone', '\\&copy; but not & alone'],
    ['1. starts a list', '1\\. starts a list'],
    ['- starts a list', '\\- starts a list'],
    ['line\nbreak', 'line break'],
    ['$1,250,000.00', '$1,250,000.00'],
  ])('%j', (raw, escaped) => {
    expect(escapeMarkdown(raw)).toBe(escaped);
  });
});

test('formatMoney', () => {
  expect(formatMoney(125_000_000, 'AUD')).toBe('$1,250,000.00');
  expect(formatMoney(5, 'AUD')).toBe('$0.05');
  expect(formatMoney(99_950, 'NZD')).toBe('NZD 999.50');
});

describe('analysisToMarkdown', () => {
  const analysis = analyseContract([
    {
      number: 1,
      text: 'Vendor: Evil_Corp Pty Ltd\nPurchaser: Ann_Lee\nProperty: 4 Oak Street, Hobart TAS 7000\nPrice: $640,000 Deposit: $64,000 payable on signing',
    },
    {
      number: 2,
      text: 'Settlement date: 1 March 2027. The vendor may terminate this contract if the purchaser is *late* [see](http://x).',
    },
  ]);
  const markdown = analysisToMarkdown(analysis);

  test('a heading per section, in order', () => {
    const headings = markdown.split('\n').filter((line) => line.startsWith('#'));
    expect(headings).toEqual([
      '# Contract analysis',
      '## Parties',
      '## Property',
      '## Price and deposit',
      '## Key dates',
      '## Special conditions',
      '## Worth your attention',
      '## Not found',
    ]);
  });

  test('values with page references; contract text escaped', () => {
    expect(markdown).toContain('- **Vendor:** Evil\\_Corp Pty Ltd (p. 1)');
    expect(markdown).toContain('- **Purchaser:** Ann\\_Lee (p. 1)');
    expect(markdown).toContain('- **Address:** 4 Oak Street, Hobart TAS 7000 (p. 1)');
    expect(markdown).toContain('- **Price:** $640,000.00 (p. 1)');
    expect(markdown).toContain('- **Deposit:** $64,000.00, 10% of the price, due on signing (p. 1)');
    expect(markdown).toContain('- **Settlement:** Settlement date: 1 March 2027 (2027-03-01) (p. 2)');
    expect(markdown).toContain('- **Termination rights** (p. 2)');
    expect(markdown).toContain(
      '  > The vendor may terminate this contract if the purchaser is \\*late\\* \\[see\\]\\(http://x\\).',
    );
    expect(markdown).not.toContain('[see](');
  });

  test('empty sections say so; missing items are listed', () => {
    expect(markdown).toContain('## Special conditions\n\n_No numbered special conditions found._');
    expect(markdown).toContain('- No finance clause found');
    expect(markdown.endsWith('\n')).toBe(true);
  });
});

describe('money', () => {
  test.each([
    ['$1,250,000.00', 125_000_000],
    ['$ 1, 250,000', 125_000_000],
    ['$1.25 million', 125_000_000],
    ['$850k', 85_000_000],
    ['AUD 640,000', 64_000_000],
    ['AUD $99.5', 9_950],
    ['720,000 dollars', 72_000_000],
  ])('%s', (text, cents) => {
    expect(findAmounts(`the price is ${text} today`)[0]?.cents).toBe(cents);
  });

  test('a bare number is not money', () => {
    expect(findAmounts('within 14 days of lot 25')).toEqual([]);
  });

  test.each([
    ['10%', 10],
    ['7.5 per cent', 7.5],
    ['ten percent (10%)', 10],
    ['five per cent', 5],
  ])('percent %s', (text, percent) => {
    expect(findPercent(`a deposit of ${text} of the price`)?.percent).toBe(percent);
  });
});

describe('dates', () => {
  test.each([
    ['21/11/2026', '2026-11-21'],
    ['1.3.2027', '2027-03-01'],
    ['21 November 2026', '2026-11-21'],
    ['3rd March 2026', '2026-03-03'],
    ['21st day of Nov 2026', '2026-11-21'],
    ['November 21, 2026', '2026-11-21'],
    ['21/11/26', '2026-11-21'],
  ])('%s', (text, iso) => {
    expect(findExplicitDate(`on ${text} at noon`)?.iso).toBe(iso);
  });

  test('impossible dates are not dates', () => {
    expect(findExplicitDate('on 31/02/2026 or 12/13/2026')).toBeNull();
  });

  test('relative periods keep their day count and what they count from', () => {
    expect(findRelativePeriod('on the forty-two (42) days after the date of this contract.')?.period).toEqual(
      {
        days: 42,
        businessDays: false,
        from: 'date of this contract',
      },
    );
    expect(findRelativePeriod('within 5 business days')?.period).toEqual({
      days: 5,
      businessDays: true,
      from: null,
    });
  });
});
