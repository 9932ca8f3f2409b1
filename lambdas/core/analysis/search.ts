// core -> every search of the contract's text goes through here: a whole pass, or a window of bounded
// length after where a label was found, each charged to the analysis's budget. A search for "the next
// label" that ran to the end of the text for each of thousands of labels in prose made the analysis
// quadratic (issue 26); within windows it costs a bounded amount per character of text.

/** What the analysis may spend, in characters searched; `spend` throws to stop the analysis. */
export interface AnalysisBudget {
  /** Called before each search with the number of characters it may read. */
  spend(characters: number): void;
}

export const UNBOUNDED: AnalysisBudget = { spend: () => {} };

/**
 * How far past a window's end a match that starts inside it may read: the longest label or number
 * heading, and a lookahead after it (the text's spaces are single, see `normaliseText`).
 */
const OVERRUN = 96;

/** Label matches looked at per label: prose that repeats a label thousands of times adds no more work. */
export const MATCHES_PER_LABEL = 1_000;

export class TextSearch {
  constructor(
    readonly text: string,
    private readonly budget: AnalysisBudget = UNBOUNDED,
  ) {}

  /**
   * The matches of `pattern` (a global RegExp) that start in [from, to), in order, at most `cap` of
   * them. Indices are the text's. A match may run `overrun` characters past `to`.
   */
  *matches(
    pattern: RegExp,
    from = 0,
    to = this.text.length,
    { cap = Number.POSITIVE_INFINITY, overrun = OVERRUN } = {},
  ): Generator<RegExpExecArray> {
    // One character before `from`, so `\b` at `from` sees what the whole text has there.
    const start = Math.max(0, from - 1);
    const end = Math.min(this.text.length, to + overrun);
    if (start >= end) return;
    const window = start === 0 && end === this.text.length ? this.text : this.text.slice(start, end);
    this.budget.spend(end - start);
    pattern.lastIndex = from - start;
    let found = 0;
    for (let m = pattern.exec(window); m !== null && found < cap; m = pattern.exec(window)) {
      if (m.index + start >= to) return;
      if (m[0] === '') pattern.lastIndex += 1;
      const lastIndex = pattern.lastIndex;
      m.index += start;
      found += 1;
      yield m;
      // A caller may have searched with the same pattern meanwhile.
      pattern.lastIndex = lastIndex;
    }
  }

  /** The first match of `pattern` (global) that starts in [from, to), or null. */
  first(pattern: RegExp, from = 0, to = this.text.length, overrun = OVERRUN): RegExpExecArray | null {
    for (const m of this.matches(pattern, from, to, { overrun })) return m;
    return null;
  }
}
