// core -> the property: its street address (the one after a property label, not a solicitor's
// office address), and how the title is identified in each state: a NSW folio identifier or a
// Queensland title reference, lot and plan, or a Victorian volume and folio.
import { type ContractDocument, pageAt } from './document';
import { MATCHES_PER_LABEL } from './search';
import type { Located, PropertyDetails } from './types';

const STREET_TYPE =
  '(?:street|st|road|rd|avenue|ave|av|lane|ln|drive|dr|court|ct|place|pl|crescent|cres|parade|pde|highway|hwy|boulevarde?|bvd|blvd|way|terrace|tce|close|cl|circuit|cct|grove|gr|esplanade|esp|square|sq|mews|rise|row|walk|loop|circle|cir|point|pt)';
const STATE = String.raw`(?:NSW|N\.S\.W\.?|Vic|Victoria|QLD|Queensland|SA|WA|Tas|Tasmania|ACT|NT|New\s+South\s+Wales|South\s+Australia|Western\s+Australia|Northern\s+Territory)`;
const WORD = "[A-Za-z'-]+";
const ADDRESS = new RegExp(
  String.raw`(?:(?:unit|apartment|apt|suite|shop|villa|townhouse)\s+\d+[A-Z]?\s*[,/]?\s*)?\b\d+[A-Z]?(?:\s?[/-]\s?\d+[A-Z]?)?\s+(?:${WORD}\s+){1,4}?${STREET_TYPE}\b\.?,?\s+(?:${WORD}\s+){0,3}?${WORD},?\s+(?:${STATE}(?:,?\s+\d{4}\b)?|\d{4}\b)`,
  'gi',
);

const PROPERTY_LABEL =
  /\b(?:property\s+address|address\s+of\s+the\s+(?:property|land)|the\s+address\s+of\s+the\s+land\s+is|property|land|premises|known\s+as|situated\s+at|located\s+at)\b/gi;

/** How far after a property label its address may start. */
const NEAR = 200;
/** How far an address may run (a unit, a street of four words, a suburb of four, the state and postcode). */
const ADDRESS_LENGTH = 240;

const findAddress = (document: ContractDocument): Located | null => {
  const { text, search } = document;
  for (const m of search.matches(PROPERTY_LABEL, 0, text.length, { cap: MATCHES_PER_LABEL })) {
    const from = m.index + m[0].length;
    const address = search.first(ADDRESS, from, from + NEAR + 1, ADDRESS_LENGTH);
    if (address !== null) {
      return { text: address[0].replace(/[\s,]+$/, ''), page: pageAt(document, address.index) };
    }
  }
  return null;
};

const firstMatch = (document: ContractDocument, pattern: RegExp, group = 0): Located | null => {
  const m = document.search.first(pattern);
  const text = m?.[group];
  return m === null || text === undefined ? null : { text: text.trim(), page: pageAt(document, m.index) };
};

const TITLE_REFERENCE =
  /\b(?:folio\s+identifier|title\s+reference|title\s+ref\.?|certificate\s+of\s+title)\s*(?::|is|no\.?)?\s*(\d+\/[A-Z]{0,4}\s?\d+|\d{5,9})\b/gi;
const LOT_AND_PLAN =
  /\bLot\s+\d+[A-Z]?\s*,?\s*(?:(?:in|on|of)\s+)?(?:(?:deposited|strata|registered|survey|lodged|title|community)\s+plan|plan\s+of\s+subdivision|DP|SP|RP|PS|LP|TP|CP|plan)\s*(?:no\.?\s*)?[A-Z]{0,3}\s?\d{3,}[A-Z]?\b/gi;
const VOLUME_FOLIO = /\b(?:volume|vol\.?)\s*\d+\s*,?\s*(?:folio|fol\.?)\s*\d+\b/gi;

export const extractProperty = (document: ContractDocument): PropertyDetails => ({
  address: findAddress(document),
  titleReference: firstMatch(document, TITLE_REFERENCE, 1),
  lotAndPlan: firstMatch(document, LOT_AND_PLAN),
  volumeFolio: firstMatch(document, VOLUME_FOLIO),
});
