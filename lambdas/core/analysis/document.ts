// core -> the contract text the extractors search: every page cleaned up and joined into one string,
// with a map back from a position to its page, so a clause that runs over a page break is still found.
import { type AnalysisBudget, TextSearch, UNBOUNDED } from './search';
import type { PageTextInput } from './types';

/**
 * Words the extractors look for, glued back together when PDF text runs split them ("Pur chaser").
 * Only words of five letters or more: a short word split by a space too often is two real words.
 */
const SPLIT_KEYWORDS = [
  'vendor',
  'purchaser',
  'purchase',
  'seller',
  'buyer',
  'settlement',
  'completion',
  'deposit',
  'price',
  'balance',
  'cooling',
  'special',
  'condition',
  'conditions',
  'solicitor',
  'conveyancer',
  'practitioner',
  'property',
  'address',
  'contract',
  'finance',
  'approval',
  'easement',
  'covenant',
  'tenancy',
  'margin',
  'sunset',
  'warranty',
  'terminate',
  'rescind',
  'interest',
  'possession',
  'strata',
  'corporate',
  'adjustment',
  'guarantee',
  'reference',
  'folio',
  'volume',
  'business',
  'million',
];

const SPLIT_PATTERNS = SPLIT_KEYWORDS.map(
  (word) => new RegExp(`(?<!\\p{L})${[...word].join('\\s?')}(?=s?(?!\\p{L}))`, 'giu'),
);

/** One page's text made regular: one space between words, plain quotes and dashes, split words rejoined. */
export const normaliseText = (raw: string): string => {
  let text = raw
    .normalize('NFKC')
    .replace(/\u00ad/g, '')
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    // A word hyphenated over a line break is one word.
    .replace(/(\p{L})-[ \t]*\r?\n\s*(\p{Ll})/gu, '$1$2')
    .replace(/\s+/g, ' ')
    .trim();
  for (const pattern of SPLIT_PATTERNS) {
    text = text.replace(pattern, (match) => (match.includes(' ') ? match.replace(/ /g, '') : match));
  }
  return text;
};

/** All pages' text in page order, searchable as one string. */
export interface ContractDocument {
  text: string;
  pageCount: number;
  /** Page number and where its text starts in `text`, in order. */
  pages: ReadonlyArray<{ number: number; start: number; end: number }>;
  /** Searches of `text`, each charged to the analysis's budget. */
  search: TextSearch;
}

export const buildDocument = (
  input: readonly PageTextInput[],
  budget: AnalysisBudget = UNBOUNDED,
): ContractDocument => {
  const ordered = [...input].sort((a, b) => a.number - b.number);
  let text = '';
  const pages: Array<{ number: number; start: number; end: number }> = [];
  for (const page of ordered) {
    budget.spend(page.text.length);
    const clean = normaliseText(page.text);
    // Pages are joined by a line break, the only one left in the text: a field's value stops there.
    if (text.length > 0) text += '\n';
    pages.push({ number: page.number, start: text.length, end: text.length + clean.length });
    text += clean;
  }
  return { text, pageCount: ordered.length, pages, search: new TextSearch(text, budget) };
};

/** The page a position in `document.text` falls on (a gap between pages counts as the earlier page). */
export const pageAt = (document: ContractDocument, index: number): number => {
  const { pages } = document;
  // Binary search for the last page starting at or before `index`: called for every match.
  let low = 0;
  let high = pages.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((pages[middle]?.start ?? 0) <= index) low = middle;
    else high = middle - 1;
  }
  return pages[low]?.number ?? 1;
};

const SENTENCE_END = /[.!?;](?=\s+["(]?[A-Z0-9])/g;
const MAX_BEFORE = 160;
const MAX_AFTER = 240;
const MIN_SENTENCE = 40;

/**
 * The sentence around a match, cut to a readable length on word boundaries, for an attention excerpt.
 * Sentences end at . ! ? or ; followed by a capital or digit, which keeps "Pty. ltd." together only loosely.
 */
export const sentenceAround = (document: ContractDocument, start: number, end: number): string => {
  const { text, search } = document;
  const windowStart = Math.max(0, start - MAX_BEFORE);
  let from = windowStart;
  for (const m of search.matches(SENTENCE_END, windowStart, start)) from = m.index + 1;
  // An end past `end + MAX_AFTER` cuts the excerpt there, as none at all does: only that window is searched.
  const after = end + MAX_AFTER;
  let next = search.first(SENTENCE_END, end, after);
  // A heading on its own ("Early access.") says little: take the sentence after it too.
  if (next !== null && next.index + 1 - from < MIN_SENTENCE)
    next = search.first(SENTENCE_END, next.index + 1, after);
  let to = next === null ? text.length : next.index + 1;
  let excerpt = text.slice(from, Math.min(to, end + MAX_AFTER)).trim();
  if (from === windowStart && windowStart > 0) excerpt = `…${excerpt.replace(/^\S*\s/, '')}`;
  if (to > end + MAX_AFTER) {
    to = end + MAX_AFTER;
    excerpt = `${excerpt.replace(/\s\S*$/, '')}…`;
  }
  return excerpt;
};
