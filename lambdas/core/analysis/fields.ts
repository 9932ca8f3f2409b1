// core -> "label then value" reading, for front-page tables and particulars of sale that PDF text
// flattens into one line: "vendor JOHN CITIZEN vendor's solicitor SMITH & CO price $1,250,000.00 …".
// A value runs from its label to the next label anyone would print in such a table.

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

const firstAt = (pattern: RegExp, text: string, from: number, heading: boolean): number => {
  pattern.lastIndex = from;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    if (isField(text, m, heading)) return m.index;
  }
  return text.length;
};

/** Pages are joined by the text's only line breaks (see `buildDocument`): no field runs over one. */
const pageBreakAt = (text: string, from: number): number => {
  const index = text.indexOf('\n', from);
  return index === -1 ? text.length : index;
};

/** Where the next field label starts at or after `from`, or the end of the text. */
export const nextLabelAt = (text: string, from: number, limit = 400): number =>
  Math.min(
    firstAt(FIELD_LABEL, text, from, false),
    firstAt(HEADING_LABEL, text, from, true),
    pageBreakAt(text, from),
    from + limit,
    text.length,
  );

/** The text of a field whose label ends at `from`: up to the next label, without a leading colon. */
export const fieldValue = (text: string, from: number, limit = 400): { value: string; start: number } => {
  const lead = /^\s*(?:[:\-–]|is\b|of\b)?\s*/i.exec(text.slice(from));
  const start = from + (lead?.[0].length ?? 0);
  return { value: text.slice(start, nextLabelAt(text, start, limit)).trim(), start };
};
