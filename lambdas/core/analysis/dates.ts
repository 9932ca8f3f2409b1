// core -> key dates: settlement, cooling-off, contract date, finance and inspection deadlines, sunset.
// An explicit date becomes ISO only when it cannot be misread: Australian day-first numbers
// (21/11/2026) or a month by name. A period counted from an event stays text, with its day count.
import { type ContractDocument, pageAt } from './document';
import { nextLabelAt } from './fields';
import { NUMBER_WORD_PATTERN, numberFromWords } from './money';
import { MATCHES_PER_LABEL, type TextSearch } from './search';
import type { DateKind, KeyDate, RelativePeriod } from './types';

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const MONTH_NAME =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';

const NUMERIC_DATE = /\b(\d{1,2})\s?[/.-]\s?(\d{1,2})\s?[/.-]\s?(\d{4}|\d{2})\b/gi;
const DAY_MONTH_YEAR = new RegExp(
  String.raw`\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:day\s+of\s+)?(${MONTH_NAME})\.?,?\s+(\d{4})\b`,
  'gi',
);
const MONTH_DAY_YEAR = new RegExp(
  String.raw`\b(${MONTH_NAME})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`,
  'gi',
);

const monthNumber = (name: string): number =>
  MONTHS.findIndex((month) => month.startsWith(name.toLowerCase().slice(0, 3))) + 1;

/** YYYY-MM-DD when day, month and year make a real date; two-digit years are this century. */
export const isoDate = (day: number, month: number, year: number): string | null => {
  const fullYear = year < 100 ? 2000 + year : year;
  const date = new Date(Date.UTC(fullYear, month - 1, day));
  if (date.getUTCFullYear() !== fullYear || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return null;
  }
  return date.toISOString().slice(0, 10);
};

export interface FoundDate {
  iso: string;
  text: string;
  index: number;
}

/** The earliest explicit, valid date in `text`. */
export const findExplicitDate = (text: string): FoundDate | null => {
  const found: FoundDate[] = [];
  const collect = (pattern: RegExp, read: (m: RegExpExecArray) => string | null) => {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      const iso = read(m);
      if (iso !== null) found.push({ iso, text: m[0], index: m.index });
    }
  };
  collect(NUMERIC_DATE, (m) => isoDate(Number(m[1]), Number(m[2]), Number(m[3])));
  collect(DAY_MONTH_YEAR, (m) => isoDate(Number(m[1]), monthNumber(m[2] ?? ''), Number(m[3])));
  collect(MONTH_DAY_YEAR, (m) => isoDate(Number(m[2]), monthNumber(m[1] ?? ''), Number(m[3])));
  found.sort((a, b) => a.index - b.index);
  return found[0] ?? null;
};

const COUNT = String.raw`(\d{1,3}|${NUMBER_WORD_PATTERN})(?:\s*\(\s*(\d{1,3})\s*\))?(?:st|nd|rd|th)?`;
const RELATIVE = new RegExp(
  String.raw`\b${COUNT}\s+(?:clear\s+)?(business\s+|working\s+|calendar\s+)?days?\b(?:\s+(?:after|from|following|of)\s+(?:the\s+)?([^.;,()]{3,60}?)(?=\s*[.;,()]|\s+(?:or|and|unless|provided|if|but)\b|$))?`,
  'i',
);

export interface FoundPeriod {
  period: RelativePeriod;
  text: string;
  index: number;
}

/** The first "N (business) days [after …]" in `text`. */
export const findRelativePeriod = (text: string): FoundPeriod | null => {
  const m = RELATIVE.exec(text);
  if (m === null) return null;
  const days = m[2] !== undefined ? Number(m[2]) : numberFromWords(m[1] ?? '');
  if (days === null) return null;
  const kind = m[3]?.trim().toLowerCase();
  return {
    period: {
      days,
      businessDays: kind === 'business' || kind === 'working',
      from: m[4]?.trim() ?? null,
    },
    text: m[0].trim(),
    index: m.index,
  };
};

/** The labels that introduce each kind of date; the first one with a date after it wins. */
const DATE_LABELS: ReadonlyArray<[DateKind, RegExp]> = [
  [
    'settlement',
    /\b(?:settlement\s+date|date\s+for\s+completion|completion\s+date|settlement(?:\s*\([^)]{0,40}\))?\s*(?::|is\s+due|is\s+to|shall|will|must|on\b|date)|complete\s+(?:on|by)\b|completion\s+(?:is\s+due|shall|must|will))/gi,
  ],
  ['coolingOff', /\bcooling[- ]?off(?:\s+period)?/gi],
  ['contract', /\b(?:contract\s+date|date\s+of\s+(?:this\s+)?(?:contract|agreement)|dated)\b/gi],
  [
    'finance',
    /\b(?:(?:finance|loan)\s+(?:approval\s+)?date|approval\s+date|subject\s+to\s+(?:an?\s+)?(?:finance|loan))\b/gi,
  ],
  ['inspection', /\b(?:building\s+(?:and|&)\s+pest|(?:building|pest)\s+(?:inspection|report))\b/gi],
  ['sunset', /\bsunset\s+(?:date|clause)\b/gi],
];

/** A cooling-off clause can state no period at all, only that there is none. */
const NO_COOLING_OFF = /\b(?:does\s+not\s+apply|waived|excluded|not\s+applicable)\b/i;

const WINDOW = 200;

const windowAfter = (search: TextSearch, from: number): string => {
  const end = nextLabelAt(search, from, WINDOW);
  const slice = search.text.slice(from, end);
  const sentenceEnd = slice.search(/[.;](?=\s+["(]?[A-Z]|$)/);
  return sentenceEnd === -1 ? slice : slice.slice(0, sentenceEnd);
};

const dateOfKind = (document: ContractDocument, kind: DateKind, label: RegExp): KeyDate | null => {
  const { search } = document;
  for (const m of search.matches(label, 0, search.text.length, { cap: MATCHES_PER_LABEL })) {
    const from = m.index + m[0].length;
    const window = windowAfter(search, from);
    const explicit = findExplicitDate(window);
    // A contract date is always explicit; "the contract date" as a period's anchor is not one.
    const relative = kind === 'contract' ? null : findRelativePeriod(window);
    const first =
      explicit !== null && (relative === null || explicit.index <= relative.index) ? explicit : relative;
    if (first !== null) {
      const end = first.index + first.text.length;
      return {
        kind,
        text: `${m[0]}${window.slice(0, end)}`.trim(),
        page: pageAt(document, m.index),
        iso: first === explicit ? explicit.iso : null,
        relative: first === relative ? relative.period : null,
      };
    }
    const none = kind === 'coolingOff' ? NO_COOLING_OFF.exec(window) : null;
    if (none !== null) {
      return {
        kind,
        text: `${m[0]}${window.slice(0, none.index + none[0].length)}`.trim(),
        page: pageAt(document, m.index),
        iso: null,
        relative: null,
      };
    }
  }
  return null;
};

/** One date per kind, in the fixed order of `DATE_LABELS`. */
export const extractDates = (document: ContractDocument): KeyDate[] =>
  DATE_LABELS.map(([kind, label]) => dateOfKind(document, kind, label)).filter(
    (date): date is KeyDate => date !== null,
  );
