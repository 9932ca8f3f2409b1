// core -> the numbered special conditions. They start after a "Special Conditions" heading and are
// numbered in sequence, from 1 or (as in the NSW form, after the printed clauses) from any number;
// each next number found in sequence is the next condition, so "clause 2 of" in a sentence is not.
import { type ContractDocument, pageAt } from './document';
import { MATCHES_PER_LABEL, type TextSearch } from './search';
import type { SpecialCondition } from './types';

const HEADING = /\bspecial\s+conditions\b/gi;
/** How far after the heading the first condition may start. */
const FIRST_WITHIN = 600;
/** How far one condition may run before the next is no longer looked for. */
const NEXT_WITHIN = 8000;
const TITLE_MAX = 80;

/** "12. Finance", "12) FINANCE", "Special Condition 12 - Finance", "SC12: Finance". */
const itemPattern = (number: string): RegExp =>
  new RegExp(
    String.raw`(?:^|\s)(?:(?:[Ss]pecial\s+[Cc]ondition|SPECIAL\s+CONDITION|[Cc]ondition|CONDITION|[Cc]lause|CLAUSE|SC)\s*)?(${number})(?:[.)]|\s*[-:])(?!\d)\s*(?=["(]?[A-Z])`,
    'g',
  );

const ANY_NUMBER = String.raw`\d{1,3}`;

/** A condition's title: an upper-case heading if it has one, else its first sentence, shortened. */
export const titleOf = (body: string): string => {
  const heading = /^([A-Z][A-Z0-9'&/-]+(?:\s[A-Z0-9][A-Z0-9'&/-]*)*)(?=\s+[A-Z][a-z]|\s*[.:-]|$)/.exec(body);
  const words = heading?.[1]?.trim().split(' ') ?? [];
  // One capital letter ("A purchaser …") is a word, not a heading.
  if (heading !== null && words.join('').length > 1) return heading[1]?.trim() ?? '';
  const sentence = body.split(/(?<=[.:;])\s/)[0] ?? body;
  if (sentence.length <= TITLE_MAX) return sentence.replace(/[.:;]$/, '');
  return `${sentence.slice(0, TITLE_MAX).replace(/\s\S*$/, '')}…`;
};

const findItem = (search: TextSearch, number: string, from: number, within: number) => {
  const m = search.first(itemPattern(number), from, from + within + 1);
  if (m === null) return null;
  return { number: m[1] ?? number, index: m.index, bodyStart: m.index + m[0].length };
};

export const extractSpecialConditions = (document: ContractDocument): SpecialCondition[] => {
  const { text, search } = document;
  for (const heading of search.matches(HEADING, 0, text.length, { cap: MATCHES_PER_LABEL })) {
    const first = findItem(search, ANY_NUMBER, heading.index + heading[0].length, FIRST_WITHIN);
    if (first === null) continue;
    const items = [first];
    for (;;) {
      const last = items.at(-1)!;
      const next = findItem(search, String(Number(last.number) + 1), last.bodyStart, NEXT_WITHIN);
      if (next === null) break;
      items.push(next);
    }
    return items.map((item, i) => {
      const end = items[i + 1]?.index ?? Math.min(text.length, item.bodyStart + 600);
      return {
        number: item.number,
        title: titleOf(text.slice(item.bodyStart, end).trim()),
        page: pageAt(document, item.bodyStart),
      };
    });
  }
  return [];
};
