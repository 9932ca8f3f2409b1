// bench -> section 8: the contract analysis of a text contract of 100, 350 and 700 pages (the fixture
// contracts' pages in turn, with pages of prose that names labels in sentences, which made the analysis
// quadratic before issue 26), median of 3, in this process. The baseline is the 100-page contract's
// time per page in the same run: a linear analysis takes the same time per page at 700 pages.
import { readFileSync } from 'node:fs';
import { analyseContract } from '../lambdas/core/analysis';
import type { PageTextInput } from '../lambdas/core/analysis/types';
import { fromRoot } from '../lib/paths';
import { median, ms, ratio, round, table, verdict } from './report';

const SIZES = [100, 350, 700] as const;
const RUNS = 3;
const GOALS = { ms700: 10_000, perPageRatio: 1.5 } as const;

const fixturePages = (name: string): string[] =>
  readFileSync(fromRoot(`test/unit/fixtures/${name}`), 'utf8')
    .split(/^=== page \d+ ===\n/m)
    .slice(1);

const PROSE =
  'The purchaser must pay the deposit and the balance of the price on the contract date or after the contract date. The vendor may keep the deposit if the purchaser defaults; the price is payable at settlement. ';

/** A contract of `count` pages: the fixtures' pages in turn, every other page prose of about 4 KB. */
const contractOf = (count: number): PageTextInput[] => {
  const pages = [
    'analysis-nsw-contract.txt',
    'analysis-vic-contract.txt',
    'analysis-informal-contract.txt',
  ].flatMap(fixturePages);
  return Array.from({ length: count }, (_, index) => ({
    number: index + 1,
    text: index % 2 === 0 ? (pages[(index / 2) % pages.length] ?? '') : PROSE.repeat(20),
  }));
};

export interface AnalysisFigures {
  pages: number;
  characters: number;
  ms: number;
}

export const analysisSection = (progress: (message: string) => void): AnalysisFigures[] => {
  const figures = SIZES.map((pages): AnalysisFigures => {
    progress(`analysis: ${pages} pages…`);
    const contract = contractOf(pages);
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const start = performance.now();
      analyseContract(contract);
      times.push(performance.now() - start);
    }
    const characters = contract.reduce((sum, page) => sum + page.text.length, 0);
    return { pages, characters, ms: median(times) };
  });
  const base = figures[0] as AnalysisFigures;
  const perPage = (figure: AnalysisFigures) => figure.ms / figure.pages / (base.ms / base.pages);
  const last = figures.at(-1) as AnalysisFigures;
  console.log('\nThe contract analysis of a text contract (median of 3)');
  console.log(
    table([
      ['pages', 'characters', 'time', 'time per page vs 100 pages'],
      ...figures.map((figure) => [
        String(figure.pages),
        String(figure.characters),
        ms(figure.ms),
        ratio(perPage(figure)),
      ]),
    ]),
  );
  console.log(
    `700 pages: ${ms(last.ms)} (goal under ${ms(GOALS.ms700)}: ${verdict(last.ms < GOALS.ms700)}); ` +
      `time per page at 700 vs 100 pages ${ratio(perPage(last))} (goal at most ${GOALS.perPageRatio}x, linear: ${verdict(perPage(last) <= GOALS.perPageRatio)}); ` +
      `700/100-page time ${round(last.ms / base.ms)}x`,
  );
  return figures;
};
