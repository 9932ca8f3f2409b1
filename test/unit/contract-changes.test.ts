// What changed in a contract's text between two versions, page by page (core/back-office/contract-changes):
// lines rebuilt from the PDF's runs, unchanged pages collapsed, a changed clause marked on its page, pages
// added and removed, and the bounds that keep a huge or rewritten page from costing quadratic work.
import {
  CONTEXT_LINES,
  contractChanges,
  lineChanges,
  MAX_CHANGES_BYTES,
  MAX_LINE_EDITS,
  MAX_PAGE_EDITS,
  MAX_SHOWN_PAGES,
  pageLines,
} from '../../lambdas/core/back-office/contract-changes';
import type { TextRun } from '../../lambdas/core/rendered-contract';

/** A page whose `lines` each sit on their own line, split into runs of a word or two as a PDF gives them. */
const page = (...lines: string[]): { text: TextRun[] } => ({
  text: lines.flatMap((line, row) =>
    line
      .split(/(?<= )/)
      .map((word, n) => ({ text: word, x: n / 20, y: 0.05 + row * 0.02, width: 0.04, height: 0.012 })),
  ),
});

const clauses = (n: number, from = 1) =>
  Array.from({ length: n }, (_, i) => `Clause ${from + i}. The purchaser pays the deposit on signing.`);

test('a page’s runs become its lines: a new line where the text moves down', () => {
  expect(pageLines(page('Clause 1. The vendor sells', 'the land to the purchaser.'))).toEqual([
    'Clause 1. The vendor sells',
    'the land to the purchaser.',
  ]);
  expect(pageLines({ text: [] })).toEqual([]);
});

test('a clause changed on page 2 of 4 is marked there; the unchanged pages around it are collapsed', () => {
  const v1 = [
    page(...clauses(10, 1)),
    page(...clauses(10, 11)),
    page(...clauses(10, 21)),
    page(...clauses(10, 31)),
  ];
  const changedLines = clauses(10, 11);
  changedLines[4] = 'Clause 15. The purchaser pays the deposit within 14 days.';
  const v2 = [v1[0], page(...changedLines), v1[2], v1[3]] as typeof v1;

  const changes = contractChanges(v1, v2).pages;
  expect(changes.map((change) => change.kind)).toEqual(['unchanged', 'changed', 'unchanged']);
  expect(changes[0]).toEqual({ kind: 'unchanged', count: 1, after_first: 1, after_last: 1 });
  expect(changes[2]).toEqual({ kind: 'unchanged', count: 2, after_first: 3, after_last: 4 });
  const changed = changes[1];
  if (changed?.kind !== 'changed') throw new Error('page 2 is not marked changed');
  expect(changed.before).toBe(2);
  expect(changed.after).toBe(2);
  expect(changed.lines.filter((line) => line.change === 'deleted' || line.change === 'inserted')).toEqual([
    { change: 'deleted', text: 'Clause 15. The purchaser pays the deposit on signing.' },
    { change: 'inserted', text: 'Clause 15. The purchaser pays the deposit within 14 days.' },
  ]);
  // Context: two lines either side, the rest of the page collapsed to counts.
  expect(changed.lines[0]).toEqual({ change: 'skipped', count: 4 - CONTEXT_LINES });
  expect(changed.lines.at(-1)).toEqual({ change: 'skipped', count: 5 - CONTEXT_LINES });
});

test('a page inserted in the middle is added, not every later page changed; a page dropped is removed', () => {
  const v1 = [page('One'), page('Two'), page('Three')];
  expect(contractChanges(v1, [page('One'), page('New page'), page('Two'), page('Three')]).pages).toEqual([
    { kind: 'unchanged', count: 1, after_first: 1, after_last: 1 },
    { kind: 'added', after: 2, lines: [{ change: 'inserted', text: 'New page' }] },
    { kind: 'unchanged', count: 2, after_first: 3, after_last: 4 },
  ]);
  expect(contractChanges(v1, [page('One'), page('Three')]).pages).toEqual([
    { kind: 'unchanged', count: 1, after_first: 1, after_last: 1 },
    { kind: 'removed', before: 2, lines: [{ change: 'deleted', text: 'Two' }] },
    { kind: 'unchanged', count: 1, after_first: 2, after_last: 2 },
  ]);
  expect(contractChanges(v1, v1)).toEqual({
    pages: [{ kind: 'unchanged', count: 3, after_first: 1, after_last: 3 }],
    not_shown: null,
  });
});

test('a page inserted into a contract with “Page n of N” footers: only the new page shows, not every later page', () => {
  const withFooter = (count: number, texts: string[]) =>
    texts.map((text, n) => page('Contract of Sale', text, 'Initials ____', `Page ${n + 1} of ${count}`));
  const texts = Array.from({ length: 10 }, (_, n) => `Clause ${n + 1}. The vendor sells the land.`);
  const v1 = withFooter(10, texts);
  const v2 = withFooter(11, [...texts.slice(0, 3), 'Clause 3A. A special condition.', ...texts.slice(3)]);
  expect(contractChanges(v1, v2).pages).toEqual([
    { kind: 'unchanged', count: 3, after_first: 1, after_last: 3 },
    {
      kind: 'added',
      after: 4,
      lines: [
        { change: 'inserted', text: 'Contract of Sale' },
        { change: 'inserted', text: 'Clause 3A. A special condition.' },
        { change: 'inserted', text: 'Initials ____' },
        { change: 'inserted', text: 'Page 4 of 11' },
      ],
    },
    { kind: 'unchanged', count: 7, after_first: 5, after_last: 11 },
  ]);

  // A footer on the same line as other words, and a changed page among renumbered ones: only its clause.
  const titled = (count: number, clause: string[]) =>
    clause.map((text, n) =>
      page(text, 'The purchaser pays.', `Contract of Sale – Page ${n + 1} of ${count}`),
    );
  const amended = [...texts.slice(0, 3), 'Clause 3A. A special condition.', ...texts.slice(3)];
  amended[6] = 'Clause 6. The vendor sells the land and the shed.';
  const changes = contractChanges(titled(10, texts), titled(11, amended)).pages;
  expect(changes.map((change) => change.kind)).toEqual([
    'unchanged',
    'added',
    'unchanged',
    'changed',
    'unchanged',
  ]);
  const changed = changes[3];
  if (changed?.kind !== 'changed') throw new Error('page 7 is not changed');
  expect([changed.before, changed.after]).toEqual([6, 7]);
  expect(changed.lines).toEqual([
    { change: 'deleted', text: 'Clause 6. The vendor sells the land.' },
    { change: 'inserted', text: 'Clause 6. The vendor sells the land and the shed.' },
    { change: 'unchanged', text: 'The purchaser pays.' },
    { change: 'unchanged', text: 'Contract of Sale – Page 7 of 11' },
  ]);
});

test('page numbers inside a page (not at its edges) and bare numbers are compared as written', () => {
  const body = (reference: string, figure: string) =>
    page(
      'Contract of Sale',
      'Clause 1.',
      `See the plan on page ${reference}.`,
      'Clause 2.',
      'Clause 3.',
      figure,
    );
  const changes = contractChanges([body('3 of 10', '120')], [body('4 of 10', '150')]).pages;
  const changed = changes[0];
  if (changed?.kind !== 'changed') throw new Error('the page is not changed');
  expect(changed.lines.filter((line) => line.change === 'deleted' || line.change === 'inserted')).toEqual([
    { change: 'deleted', text: 'See the plan on page 3 of 10.' },
    { change: 'inserted', text: 'See the plan on page 4 of 10.' },
    { change: 'deleted', text: '120' },
    { change: 'inserted', text: '150' },
  ]);
});

test('a page rewritten beyond the bound is shown as replaced: all old lines deleted, all new inserted', () => {
  const before = Array.from({ length: MAX_LINE_EDITS }, (_, n) => `old line ${n}`);
  const after = Array.from({ length: MAX_LINE_EDITS }, (_, n) => `new line ${n}`);
  const lines = lineChanges(before, after);
  expect(lines).toHaveLength(2 * MAX_LINE_EDITS);
  expect(lines.slice(0, MAX_LINE_EDITS).every((line) => line.change === 'deleted')).toBe(true);
  expect(lines.slice(MAX_LINE_EDITS).every((line) => line.change === 'inserted')).toBe(true);
  // Under the bound, the same lines with one changed are diffed.
  const one = [...before];
  one[7] = 'changed';
  expect(
    lineChanges(before, one).filter((line) => line.change !== 'unchanged' && line.change !== 'skipped'),
  ).toEqual([
    { change: 'deleted', text: 'old line 7' },
    { change: 'inserted', text: 'changed' },
  ]);
});

test('two contracts with more pages different than the bound allows are paired by position, each page diffed', () => {
  // Every page differs (its heading): 2 × PAGES edits, beyond MAX_PAGE_EDITS, so no page alignment is tried.
  const PAGES = MAX_PAGE_EDITS;
  const v1 = Array.from({ length: PAGES }, (_, n) => page(`Draft 1, sheet ${n + 1}`, ...clauses(40, n * 40)));
  const v2 = Array.from({ length: PAGES }, (_, n) => page(`Draft 2, sheet ${n + 1}`, ...clauses(40, n * 40)));
  const { pages: changes, not_shown } = contractChanges(v1, v2, { pages: PAGES, bytes: 10_000_000 });
  expect(not_shown).toBeNull();
  expect(changes).toHaveLength(PAGES);
  expect(changes.every((change) => change.kind === 'changed')).toBe(true);
  const last = changes[PAGES - 1];
  if (last?.kind !== 'changed') throw new Error('the last page is not changed');
  expect(last.before).toBe(PAGES);
  expect(last.lines.slice(0, 2)).toEqual([
    { change: 'deleted', text: `Draft 1, sheet ${PAGES}` },
    { change: 'inserted', text: `Draft 2, sheet ${PAGES}` },
  ]);
});

describe('a 700-page contract changed throughout', () => {
  const PAGES = 700;
  const v1 = Array.from({ length: PAGES }, (_, n) => page(...clauses(60, n * 60)));
  const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

  test('one clause amended on every page: the first MAX_SHOWN_PAGES pages shown, the rest counted', () => {
    const v2 = v1.map((_, n) => {
      const lines = clauses(60, n * 60);
      lines[30] = `${lines[30]} Amended.`;
      return page(...lines);
    });
    const changes = contractChanges(v1, v2);
    expect(changes.pages).toHaveLength(MAX_SHOWN_PAGES);
    expect(changes.pages.every((change) => change.kind === 'changed')).toBe(true);
    expect(changes.not_shown).toEqual({ pages: PAGES - MAX_SHOWN_PAGES, from_page: MAX_SHOWN_PAGES + 1 });
    expect(bytesOf(changes.pages)).toBeLessThanOrEqual(MAX_CHANGES_BYTES);
  });

  test('every line of every page rewritten: the answer stops at MAX_CHANGES_BYTES, the rest counted', () => {
    const v2 = v1.map((_, n) => page(...clauses(60, n * 60).map((line) => `${line} (as amended)`)));
    const changes = contractChanges(v1, v2);
    const shown = changes.pages.length;
    // The bytes bind before the page count does: each page is 120 lines deleted and inserted.
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(MAX_SHOWN_PAGES);
    expect(bytesOf(changes.pages)).toBeLessThanOrEqual(MAX_CHANGES_BYTES);
    // One page more would have passed the bound.
    expect(bytesOf(contractChanges(v1, v2, { pages: shown + 1, bytes: 10_000_000 }).pages)).toBeGreaterThan(
      MAX_CHANGES_BYTES,
    );
    expect(changes.not_shown).toEqual({ pages: PAGES - shown, from_page: shown + 1 });
  });
});
