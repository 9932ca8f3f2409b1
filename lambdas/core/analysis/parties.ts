// core -> who the parties are: vendors, purchasers, their solicitors or conveyancers, and agents.
// Read from labels ("Vendor:", "VENDOR", "vendor's solicitor", "Seller", "Buyer") and from the
// "John Smith (the Seller)" form of an informal agreement. A label in running prose ("the vendor
// must …") is not a party line: the words after it must look like a name.
import { type ContractDocument, pageAt } from './document';
import { fieldValue, PROSE_BEFORE } from './fields';
import { MATCHES_PER_LABEL } from './search';
import type { Party, PartyRole } from './types';

const SIDE = {
  vendor: '(?:vendor|seller)',
  purchaser: '(?:purchaser|buyer)',
};
const REPRESENTATIVE = String.raw`(?:solicitor|conveyancer|legal\s+practitioner(?:\s+or\s+conveyancer)?|lawyer|representative)`;
const POSSESSIVE = "(?:'s|s'|s)?";

/** Most specific first: "vendor's solicitor" must not be read as the vendor. */
const LABELS: ReadonlyArray<[PartyRole, RegExp]> = [
  ['vendorSolicitor', new RegExp(String.raw`\b${SIDE.vendor}${POSSESSIVE}\s+${REPRESENTATIVE}\b`, 'gi')],
  [
    'purchaserSolicitor',
    new RegExp(String.raw`\b${SIDE.purchaser}${POSSESSIVE}\s+${REPRESENTATIVE}\b`, 'gi'),
  ],
  [
    'agent',
    new RegExp(
      String.raw`\b(?:${SIDE.vendor}${POSSESSIVE}\s+(?:estate\s+)?agent|co-agent|selling\s+agent|estate\s+agent|agent)\b(?!'|s\b)`,
      'gi',
    ),
  ],
  [
    'vendor',
    new RegExp(String.raw`\b${SIDE.vendor}s?\b(?!'|\s+${REPRESENTATIVE}|\s+(?:estate\s+)?agent)`, 'gi'),
  ],
  [
    'purchaser',
    new RegExp(String.raw`\b${SIDE.purchaser}s?\b(?!'|\s+${REPRESENTATIVE}|\s+(?:estate\s+)?agent)`, 'gi'),
  ],
];

/** Where a name stops: contact details, an address, a role in brackets, or the end of a clause. */
const NAME_END =
  /\s*(?:\b(?:A\.?B\.?N|A\.?C\.?N|phone|ph|tel|telephone|fax|mobile|email|e-mail|ref|address|of\s+\d|c\/-|care\s+of|licence|lic\.?\s+no)\b|[(;:]|\s-\s|,\s*(?:\d|(?:level|suite|unit|shop|floor|po\s+box|gpo\s+box|p\.o\.)\b)|\d{2,}|\.\s(?!\s*(?:Ltd|Limited|Inc)\b)|$)/i;

const CONNECTORS = new Set([
  'and',
  '&',
  'of',
  'de',
  'van',
  'der',
  'von',
  'la',
  'le',
  'du',
  'the',
  'as',
  'for',
  'pty',
  'ltd',
]);
/** Joining words a name does not end with. */
const TRAILING = new Set(['and', '&', 'of', 'the', 'as', 'for', 'de', 'van', 'von']);
/** Capitalised words that start prose, not a name, after a label. */
const NOT_NAMES = new Set([
  'must',
  'may',
  'shall',
  'will',
  'agrees',
  'warrants',
  'acknowledges',
  'statement',
  'disclosure',
  'name',
  'names',
  'details',
  'is',
  'and',
  'or',
  'the',
  'to',
  'has',
  'details:',
]);

/** The name at the start of `value`, if it reads as one: capitalised words, up to twelve of them. */
export const readName = (value: string): string | null => {
  const cut = NAME_END.exec(value);
  const candidate = (cut === null ? value : value.slice(0, cut.index)).replace(/[\s,.&-]+$/, '').trim();
  const words = candidate.split(' ').filter((word) => word.length > 0);
  if (words.length === 0 || words.length > 12) return null;
  const first = words[0] ?? '';
  if (!/^[A-Z]/.test(first) || NOT_NAMES.has(first.toLowerCase())) return null;
  // Stop at the first lower-case word that is not a connector: "JANE BUYER purchaser's solicitor".
  const kept: string[] = [];
  for (const word of words) {
    if (!/^[A-Z0-9"'(]/.test(word) && !CONNECTORS.has(word.toLowerCase())) break;
    kept.push(word);
  }
  while (kept.length > 0 && TRAILING.has(kept.at(-1) ?? '')) kept.pop();
  const name = kept.join(' ').replace(/[\s,.&-]+$/, '');
  return name.length >= 2 ? name : null;
};

const COMPANY = /\b(?:pty|ltd|limited|inc|lawyers|legal|conveyancing|partners|realty|real\s+estate|co)\b/i;

/** "JOHN CITIZEN and MARY CITIZEN" is two vendors; "SMITH & JONES LAWYERS" is one firm. */
const splitJointNames = (name: string, role: PartyRole): string[] => {
  if ((role !== 'vendor' && role !== 'purchaser') || COMPANY.test(name)) return [name];
  const parts = name.split(/\s+(?:and|&)\s+/i);
  return parts.length > 1 && parts.every((part) => part.split(' ').length >= 2) ? parts : [name];
};

const ROLE_ORDER: readonly PartyRole[] = [
  'vendor',
  'purchaser',
  'vendorSolicitor',
  'purchaserSolicitor',
  'agent',
];

/** `Robert James Smith (the "Seller")`: the name before a bracketed role. */
const BRACKETED_ROLE =
  /((?:[A-Z][\w.'&-]*,?\s+(?:(?:and|&)\s+)?){0,8}[A-Z][\w.'&-]*)\s*\(\s*(?:[Tt]he\s+|as\s+)?"?([Vv]endor|VENDOR|[Ss]eller|SELLER|[Pp]urchaser|PURCHASER|[Bb]uyer|BUYER)[sS]?"?\s*\)/g;

const LEADING_PROSE =
  /^(?:(?:This|THIS|Agreement|AGREEMENT|Contract|CONTRACT|Between|BETWEEN|And|AND|Is|Made|MADE)\s+)+/;

export const extractParties = (document: ContractDocument): Party[] => {
  const { text, search } = document;
  const found: Array<Party & { index: number }> = [];
  const named = new Set<string>();
  const add = (role: PartyRole, name: string, index: number) => {
    for (const one of splitJointNames(name, role)) {
      const key = `${role} ${one.toLowerCase()}`;
      if (named.has(key)) continue;
      named.add(key);
      found.push({ role, name: one, page: pageAt(document, index), index });
    }
  };
  // Characters a more specific label took ("vendor's solicitor" is not also the vendor).
  const claimed = new Uint8Array(text.length);
  const isClaimed = (from: number, to: number) => claimed.subarray(from, to).includes(1);
  for (const [role, label] of LABELS) {
    for (const m of search.matches(label, 0, text.length, { cap: MATCHES_PER_LABEL })) {
      const start = m.index;
      const end = start + m[0].length;
      if (isClaimed(start, end)) continue;
      const colon = /^\s*:/.test(text.slice(end, end + 16));
      if (!colon && PROSE_BEFORE.test(text.slice(Math.max(0, start - 12), start))) continue;
      const { value, start: valueStart } = fieldValue(search, end, 200);
      const name = readName(value);
      claimed.fill(1, start, end);
      if (name !== null) add(role, name, valueStart);
    }
  }
  for (const m of search.matches(BRACKETED_ROLE)) {
    const name = (m[1] ?? '').replace(LEADING_PROSE, '').replace(/[\s,]+$/, '');
    const side = (m[2] ?? '').toLowerCase();
    if (name.length >= 2) add(side === 'vendor' || side === 'seller' ? 'vendor' : 'purchaser', name, m.index);
  }
  return found
    .sort((a, b) => ROLE_ORDER.indexOf(a.role) - ROLE_ORDER.indexOf(b.role) || a.index - b.index)
    .map(({ role, name, page }) => ({ role, name, page }));
};
