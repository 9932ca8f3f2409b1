// core -> "label then value" reading, for front-page tables and particulars of sale that PDF text
// flattens into one line: "vendor JOHN CITIZEN vendor's solicitor SMITH & CO price $1,250,000.00 …".
// A value runs from its label to the next label anyone would print in such a table.
import type { TextSearch } from './search';

/** Labels that start a field on a contract's front page or particulars; they end the field before. */
export const FIELD_LABEL = new RegExp(
  [
    String.raw`(?:vendor|seller|purchaser|buyer)(?:'s|s'|s)?\s+(?:estate\s+)?(?:agent|solicitor|conveyancer|legal\s+practitioner|lawyer|representative)`,
    String.raw`(?:vendor|seller|purchaser|buyer)s?\s*:`,
    'co-agent',
    String.raw`(?:purchase\s+|contract\s+)?price\b`,
    String.raw`deposit\b`,
    String.raw`balance\b`,
    String.raw`contract\s+date`,
    String.raw`date\s+for\s+completion`,
    String.raw`settlement\s+date`,
    String.raw`land\s*\(`,
    String.raw`property\s+address`,
    String.raw`(?:property|land|premises|address)\s*:`,
    String.raw`title\s+reference`,
    String.raw`folio\s+identifier`,
    String.raw`certificate\s+of\s+title`,
    String.raw`improvements\b`,
    String.raw`attached\s+copies`,
    String.raw`inclusions\b`,
    String.raw`exclusions\b`,
    String.raw`GST\s+amount`,
    String.raw`A\.?B\.?N\.?(?=\s|:)`,
    String.raw`A\.?C\.?N\.?(?=\s|:)`,
    String.raw`(?:phone|ph|tel|telephone|fax|mobile|email|e-mail|ref|reference)\s*[:.]`,
    String.raw`(?:phone|fax|email|ref)\b`,
    String.raw`special\s+conditions\b`,
    'cooling[- ]?off',
    String.raw`vacant\s+possession`,
    String.raw`tenancies\b`,
    String.raw`(?:loan|finance)\s*\(`,
  ].join('|'),
  'gi',
);

/** Upper case party headings are labels wherever they stand; in lower case only with a colon (above). */
const HEADING_LABEL = /\b(?:VENDOR|SELLER|PURCHASER|BUYER)S?\b/g;

/** Words before a label that make it prose ("of the price", "after the contract date"), not a field. */
export const PROSE_BEFORE =
  /\b(?:the|a|an|any|each|every|such|that|this|to|of|by|for|and|or|if|from|with|as|which|your|our)\s*$/i;

const isField = (text: string, match: RegExpExecArray, heading: boolean): boolean => {
  const before = text.slice(Math.max(0, match.index - 16), match.index);
  if (PROSE_BEFORE.test(before)) return false;
  // "JANE ELIZABETH BUYER": a capitals heading straight after a word in capitals is part of a name,
  // unless it is plainly a label ("VENDOR'S …", "BUYER:").
  if (
    heading &&
    /\b[A-Z]{2,}\s+$/.test(before) &&
    !/^(?:'S|S'|S?\s*:)/.test(text.slice(match.index + match[0].length))
  ) {
    return false;
  }
  return true;
};

/** Where the first field label of `pattern` starts in [from, to), or `to`. */
const firstFieldAt = (
  search: TextSearch,
  pattern: RegExp,
  from: number,
  to: number,
  heading: boolean,
): number => {
  for (const m of search.matches(pattern, from, to)) if (isField(search.text, m, heading)) return m.index;
  return to;
};

/**
 * Where the next field label starts at or after `from`, or where the field must end anyway: `limit`
 * characters on, at the page's end (pages are joined by the text's only line breaks, see
 * `buildDocument`: no field runs over one), or at the end of the text. Only that window is searched.
 */
export const nextLabelAt = (search: TextSearch, from: number, limit = 400): number => {
  const { text } = search;
  const end = Math.min(from + limit, text.length);
  const lineBreak = text.slice(from, end).indexOf('\n');
  const to = lineBreak === -1 ? end : from + lineBreak;
  return Math.min(
    firstFieldAt(search, FIELD_LABEL, from, to, false),
    firstFieldAt(search, HEADING_LABEL, from, to, true),
  );
};

/** The text of a field whose label ends at `from`: up to the next label, without a leading colon. */
export const fieldValue = (
  search: TextSearch,
  from: number,
  limit = 400,
): { value: string; start: number } => {
  const { text } = search;
  const lead = /^\s*(?:[:\-–]|is\b|of\b)?\s*/i.exec(text.slice(from, from + 64));
  const start = from + (lead?.[0].length ?? 0);
  return { value: text.slice(start, nextLabelAt(search, start, limit)).trim(), start };
};
