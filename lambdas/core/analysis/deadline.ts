// core -> the analysis's time limit: a budget that looks at the clock as the searches are charged and
// stops the analysis once its deadline has passed, so a text the analysis cannot finish in time ends
// in a recorded failure (`timed_out`, decisions.md §8) rather than a worker held until its host gives up.
import type { AnalysisBudget } from './search';

/** Milliseconds an analysis may take: a 700-page contract takes a few seconds, within a 5-minute task. */
export const ANALYSIS_TIME_LIMIT_MS = 60_000;

/** The analysis ran past its deadline; the run's failure reason is `timed_out`. */
export class AnalysisTimedOut extends Error {
  constructor(message = 'timed_out: the analysis did not finish before its deadline') {
    super(message);
    this.name = 'AnalysisTimedOut';
  }
}

/** Characters searched between two looks at the clock: each window is short, a look is cheap enough. */
const CHARACTERS_PER_LOOK = 100_000;

/** A budget that throws `AnalysisTimedOut` once `nowMs()` passes `deadlineMs`. */
export const deadlineBudget = (deadlineMs: number, nowMs: () => number): AnalysisBudget => {
  let sinceLook = CHARACTERS_PER_LOOK;
  return {
    spend(characters) {
      sinceLook += characters;
      if (sinceLook < CHARACTERS_PER_LOOK) return;
      sinceLook = 0;
      if (nowMs() > deadlineMs) throw new AnalysisTimedOut();
    },
  };
};
