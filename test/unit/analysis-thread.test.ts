// Where the analysis runs (issue 26 item 3): the local stack's analyser searches in a thread of its own,
// so its one process keeps answering requests meanwhile, and either analyser stops at its deadline.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { inlineAnalyser } from '../../lambdas/adapters/analysis/inline-analyser';
import { AnalysisTimedOut, analyseContract } from '../../lambdas/core/analysis';
import type { RenderedContract } from '../../lambdas/core/rendered-contract';
import { threadAnalyser } from '../../local/thread-analyser';

const contract: RenderedContract = {
  pageCount: 40,
  pages: Array.from({ length: 40 }, (_, index) => ({
    number: index + 1,
    width: 595,
    height: 842,
    image: null,
    text: [
      {
        text: `Vendor: JOHN CITIZEN Price: $850,000 Deposit: 10% on signing. The purchaser must pay the deposit and the balance of the price on the contract date. Page ${index + 1}. `.repeat(
          10,
        ),
        x: 0,
        y: 0,
        width: 100,
        height: 10,
      },
    ],
  })),
} as unknown as RenderedContract;

/** Characters read by regular expressions in this thread (String's methods go through exec once it is replaced). */
let readHere = 0;
const exec = RegExp.prototype.exec;
beforeAll(() => {
  RegExp.prototype.exec = function (this: RegExp, input: string) {
    const from = this.global || this.sticky ? this.lastIndex : 0;
    const m = exec.call(this, input);
    readHere += (m === null ? String(input).length : m.index + m[0].length) - from;
    return m;
  };
});
afterAll(() => {
  RegExp.prototype.exec = exec;
});

const HOUR = 3_600_000;

describe('the thread analyser', () => {
  test('answers what the analysis answers, having searched nothing in this thread', async () => {
    const expected = analyseContract(contract);
    readHere = 0;
    const analysis = await threadAnalyser().analyse(contract, Date.now() + HOUR);
    const searchedHere = readHere;
    expect(analysis).toEqual(expected);
    expect(analysis.price?.cents).toBe(85_000_000);
    // In this thread the same analysis reads tens of times its text; in another, nothing here.
    const textLength = JSON.stringify(contract).length;
    expect(searchedHere).toBeLessThan(textLength);
    readHere = 0;
    await inlineAnalyser().analyse(contract, Date.now() + HOUR);
    expect(readHere).toBeGreaterThan(textLength);
  });

  test('stops at its deadline with AnalysisTimedOut', async () => {
    // A deadline long past (the epoch): no machine is fast enough to finish before it.
    const past = 0;
    await expect(threadAnalyser().analyse(contract, past)).rejects.toThrow(AnalysisTimedOut);
    await expect(inlineAnalyser().analyse(contract, past)).rejects.toThrow(AnalysisTimedOut);
  });
});
