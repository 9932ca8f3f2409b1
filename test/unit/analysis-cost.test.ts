// The contract analysis's cost is linear in the text (issue 26 item 3): measured as work, never time.
// Every search the analysis makes is charged to its budget (the characters it may read), which counts the
// work and can stop it. (The quadratic search this replaced was found by counting every regular
// expression's reads through a patched RegExp.prototype.exec: 511 characters read per character of text at
// 3 pages, 1,787 at 12. Patching a global in a shared test worker is no way to keep a test, so the check
// that stays counts through the analysis's own budget.)
import { describe, expect, test } from '@jest/globals';
import { type AnalysisBudget, analyseContract } from '../../lambdas/core/analysis';
import type { PageTextInput } from '../../lambdas/core/analysis/types';

/** Prose that names labels ("the deposit", "the price", "the contract date") in sentences, never as fields. */
const prosePage = (number: number): PageTextInput => ({
  number,
  text: `The purchaser must pay the deposit and the balance of the price on the contract date or after the contract date. The vendor may keep the deposit of the price. Page ${number} says the property and the land are sold. `.repeat(
    20,
  ),
});

const contract = (pages: number): PageTextInput[] =>
  Array.from({ length: pages }, (_, index) => prosePage(index + 1));

const textLength = (pages: PageTextInput[]): number => pages.reduce((sum, page) => sum + page.text.length, 0);

/** Characters charged to the analysis's budget per character of text, for a contract of `pages` pages. */
const chargedPerCharacter = (pages: number): number => {
  const input = contract(pages);
  let charged = 0;
  analyseContract(input, { spend: (characters) => (charged += characters) });
  return charged / textLength(input);
};

describe('the cost of the analysis', () => {
  test('reads no more per character of text as pages are added', () => {
    const small = chargedPerCharacter(3);
    const large = chargedPerCharacter(12);
    // Quadratic search (a scan to the end of the text for every label) reads about four times as much
    // per character at four times the pages; linear search reads the same or less (labels are capped).
    expect(large).toBeLessThanOrEqual(small * 1.1);
  });

  test('charges its budget for every search, a bounded amount per character', () => {
    const input = contract(6);
    let charged = 0;
    analyseContract(input, { spend: (characters) => (charged += characters) });
    expect(charged).toBeGreaterThanOrEqual(textLength(input));
    expect(charged).toBeLessThanOrEqual(textLength(input) * 200);
  });

  test('stops when its budget says so, with the budget’s error', () => {
    class Spent extends Error {}
    let left = 50_000;
    const budget: AnalysisBudget = {
      spend: (characters) => {
        left -= characters;
        if (left < 0) throw new Spent('over budget');
      },
    };
    expect(() => analyseContract(contract(6), budget)).toThrow(Spent);
  });
});
