// core -> clauses worth a lawyer's attention. Each rule is a pattern for wording that changes the
// client's position, with why it matters; a rule fires once per page. Statutory warnings ("there is
// no cooling off period if …") are conditional: rules that would misfire on them skip conditionals.
import { type ContractDocument, pageAt, sentenceAround } from './document';
import type { AttentionItem, AttentionTopic, Deposit } from './types';

interface Rule {
  topic: AttentionTopic;
  pattern: RegExp;
  why: string | ((excerpt: string) => string);
  /** The rule does not fire when its excerpt also matches this. */
  unless?: RegExp;
}

/** "if", "unless", "where" make a sentence a warning about what could happen, not a term agreed. */
const CONDITIONAL = /\b(?:if|unless|where|whether)\b/i;

export const RULES: readonly Rule[] = [
  {
    topic: 'coolingOff',
    pattern:
      /\b(?:(?:s(?:ection)?\.?\s*)?66W\s+certificate|certificate\s+under\s+s(?:ection)?\.?\s*66W|cooling[- ]?off\s+(?:period\s+)?(?:is\s+|has\s+been\s+|will\s+be\s+|shall\s+be\s+)?(?:waived|excluded|shortened|reduced|does\s+not\s+apply)|waive[sd]?\s+(?:the\s+|their\s+|his\s+|her\s+|any\s+)?(?:right\s+to\s+(?:a\s+)?)?cooling[- ]?off|(?:no|without\s+(?:a|any))\s+cooling[- ]?off|section\s+31\s+(?:of\s+the\s+Sale\s+of\s+Land\s+Act(?:\s+1962)?\s+)?does\s+not\s+apply)/gi,
    why: 'The cooling-off period appears to be waived, excluded or shortened (for example by a s66W certificate or an auction sale): the purchaser is bound from exchange.',
    unless: CONDITIONAL,
  },
  {
    topic: 'deposit',
    pattern:
      /\b(?:release\s+of\s+(?:the\s+)?deposit|deposit\s+(?:may|can|shall|will|must|is\s+to)\s+be\s+released|release\s+(?:of\s+)?(?:the\s+|part\s+of\s+the\s+)?deposit\s+to\s+the\s+(?:vendor|seller)|early\s+release)/gi,
    why: 'The deposit may be released to the vendor before settlement; if the sale fails the purchaser must recover it from the vendor, not from a trust account.',
  },
  {
    topic: 'finance',
    pattern:
      /\b(?:subject\s+to\s+(?:the\s+purchaser\s+(?:obtaining|receiving)\s+)?(?:an?\s+)?(?:finance|loan)|finance\s+(?:approval|clause)|loan\s+approval|approval\s+of\s+(?:a\s+|the\s+)?(?:loan|finance))\b/gi,
    why: 'The contract is subject to finance: check the approval date, the notice the purchaser must give, and what happens to the deposit if approval is refused.',
  },
  {
    topic: 'sunset',
    pattern: /\bsunset\s+(?:date|clause|period)\b/gi,
    why: 'A sunset clause lets a party end the contract if registration or completion runs late; check who may rescind, when, and any statutory limits on the vendor doing so.',
  },
  {
    topic: 'gst',
    pattern:
      /\b(?:margin\s+scheme|going\s+concern|plus\s+GST|(?:exclusive|excluding)\s+of\s+GST|price\s+(?:does\s+not\s+include|excludes)\s+GST|GST\s+(?:is\s+)?(?:payable\s+)?in\s+addition|GST\s+withholding)\b/gi,
    why: 'GST treatment (margin scheme, going concern, GST on top of the price or GST withholding) changes what the purchaser pays or must withhold at settlement.',
  },
  {
    topic: 'vendorFinance',
    pattern:
      /\b(?:vendor\s+finance|terms\s+contract|instalment\s+contract|(?:paid|payable)\s+(?:by|in)\s+instalments|(?:vendor|seller)\s+(?:will|shall|agrees\s+to)\s+(?:lend|provide\s+finance))\b/gi,
    why: 'Vendor finance or a terms contract: the purchaser pays over time and title may not pass until the last payment; special statutory rules apply.',
    unless: /\b(?:not\s+a\s+terms\s+contract|if\s+this\s+is\s+a\s+terms\s+contract)\b/i,
  },
  {
    topic: 'defaultInterest',
    pattern:
      /\b(?:(?:penalty|default)\s+(?:interest|rate)|interest\s+(?:is\s+payable\s+|will\s+be\s+charged\s+|shall\s+be\s+payable\s+)?at\s+(?:the\s+rate\s+of\s+)?\d{1,2}(?:\.\d+)?\s?%|interest\s+(?:at\s+)?(?:a\s+|the\s+)?rate\s+of\s+\d{1,2}(?:\.\d+)?\s?%)/gi,
    why: (excerpt) => {
      const rate = /(\d{1,2}(?:\.\d+)?)\s?%/.exec(excerpt)?.[1];
      return `Interest${rate === undefined ? '' : ` of ${rate}% a year`} is charged on late payment or late completion; check the rate, from when it runs and whether it is a penalty.`;
    },
  },
  {
    topic: 'earlyAccess',
    pattern:
      /\b(?:early\s+(?:access|possession|occupation)|(?:access|possession|occupation)\s+(?:to\s+the\s+(?:property|land)\s+)?(?:before|prior\s+to)\s+(?:completion|settlement))\b/gi,
    why: 'Access or possession before settlement: check the licence terms, insurance and risk, and what happens if settlement does not occur.',
  },
  {
    topic: 'asIs',
    pattern:
      /(?:"as\s+is(?:,?\s+where\s+is)?"|\bas\s+is,?\s+where\s+is\b|\bon\s+an\s+as\s+is\s+basis\b|\bin\s+its\s+present\s+(?:state\s+and\s+)?condition\b|\bno\s+warrant(?:y|ies)\b|\bwithout\s+(?:any\s+)?warrant(?:y|ies)\b|\bmakes?\s+no\s+(?:warranty|representation)|\bnot\s+(?:rely|relied|relying)\s+on\s+any\s+(?:representation|statement))/gi,
    why: 'The property is sold "as is" or without warranty: the purchaser takes it with its defects and has limited claims against the vendor; inspections matter more.',
  },
  {
    topic: 'termination',
    pattern:
      /\b(?:(?:vendor|purchaser|seller|buyer|either\s+party|a\s+party)\s+(?:may|can|is\s+entitled\s+to|has\s+the\s+right\s+to)\s+(?:at\s+any\s+time\s+)?(?:terminate|rescind|end)\b|right\s+to\s+(?:terminate|rescind)|entitled\s+to\s+(?:terminate|rescind))/gi,
    why: 'A party can end the contract here: check what triggers it, the notice required and whether the deposit is refunded.',
    // Rescission during cooling-off (within so many business days) is reported under cooling-off.
    unless: /\bcooling[- ]?off\b|\bbusiness\s+days?\b/i,
  },
  {
    topic: 'tenancy',
    pattern:
      /\b(?:subject\s+to\s+(?:the\s+|an?\s+|any\s+)?(?:existing\s+)?(?:residential\s+)?(?:tenancy|tenancies|lease|leases)\b|existing\s+(?:tenancy|tenancies|lease|leases)\b|(?:residential\s+)?tenancy\s+agreement|tenant\s+in\s+(?:occupation|possession)|vacant\s+possession\s*:?\s*(?:no\b|not\s+(?:given|provided|applicable)))/gi,
    why: 'The property is sold with a tenancy or lease: the purchaser takes it subject to the tenant’s rights and will not get vacant possession; check the lease, the rent and the bond.',
  },
  {
    topic: 'easementsCovenants',
    pattern:
      /\b(?:easements?|restrictive\s+covenants?|positive\s+covenants?|right\s+of\s+(?:way|carriageway)|profit\s+a\s+prendre)\b/gi,
    why: 'Easements or covenants burden the land: check the title search and plan for what they allow or forbid.',
    unless: /\b(?:no|not\s+(?:subject|affected)\s+(?:to|by)\s+any)\s+(?:easements?|covenants?)\b/i,
  },
  {
    topic: 'buildingAndPest',
    pattern:
      /\b(?:building\s+(?:and|&)\s+pest|pest\s+(?:inspection|report)|building\s+(?:inspection|report)|subject\s+to\s+(?:a\s+|an\s+)?(?:satisfactory\s+)?(?:building|pest|structural)\s+(?:inspection|report))\b/gi,
    why: 'A building or pest inspection condition: check the deadline, who decides what is satisfactory, and how the purchaser must end the contract if it is not.',
  },
  {
    topic: 'strata',
    pattern:
      /\b(?:strata\s+(?:scheme|plan|levies|levy|title|lot|committee)|body\s+corporate|owners\s+corporation|special\s+levy|levies)\b/gi,
    why: 'Strata, body corporate or owners corporation: check the levies (including special levies), the records and any planned works.',
  },
  {
    topic: 'adjustments',
    pattern:
      /\b(?:no\s+adjustments?|(?:will|shall)\s+not\s+be\s+adjusted|without\s+adjustment|adjusted\s+as\s+if|purchaser\s+(?:must|shall|will|agrees\s+to)\s+(?:pay|reimburse)\s+(?:to\s+)?the\s+(?:vendor|seller)(?:'s)?\s+(?:legal\s+)?(?:costs|fees|commission|expenses)|(?:pay|reimburse)\s+(?:the\s+)?(?:agent's|vendor's|agents')\s+commission)\b/gi,
    why: 'An unusual adjustment or cost shifted to the purchaser: check the amount it adds at settlement.',
  },
  {
    topic: 'guarantee',
    pattern: /\b(?:guarantee\s+and\s+indemnity|guarantors?|director'?s'?\s+guarantee)\b/gi,
    why: "A guarantee makes the guarantors (often a company purchaser's directors) personally liable; confirm who signs and what they understand.",
  },
];

/** Every rule's hits, at most one per topic per page, in page order then rule order. */
export const findAttention = (document: ContractDocument): AttentionItem[] => {
  const found: Array<AttentionItem & { index: number; rule: number }> = [];
  RULES.forEach((rule, ruleIndex) => {
    const pagesHit = new Set<number>();
    for (const m of document.search.matches(rule.pattern)) {
      const page = pageAt(document, m.index);
      if (pagesHit.has(page)) continue;
      const excerpt = sentenceAround(document, m.index, m.index + m[0].length);
      if (rule.unless?.test(excerpt)) continue;
      pagesHit.add(page);
      const why = typeof rule.why === 'string' ? rule.why : rule.why(excerpt);
      found.push({ topic: rule.topic, excerpt, page, why, index: m.index, rule: ruleIndex });
    }
  });
  return found
    .sort((a, b) => a.page - b.page || a.rule - b.rule || a.index - b.index)
    .map(({ topic, excerpt, page, why }) => ({ topic, excerpt, page, why }));
};

/** The usual deposit is 10%: more ties up more of the purchaser's money and may be a penalty. */
const USUAL_DEPOSIT_PERCENT = 10;

/** Attention that comes from the figures rather than the wording. */
export const depositAttention = (deposit: Deposit | null): AttentionItem[] => {
  if (
    deposit === null ||
    deposit.percentOfPrice === null ||
    deposit.percentOfPrice <= USUAL_DEPOSIT_PERCENT
  ) {
    return [];
  }
  return [
    {
      topic: 'deposit',
      excerpt: deposit.text,
      page: deposit.page,
      why: `The deposit is ${deposit.percentOfPrice}% of the price, more than the usual ${USUAL_DEPOSIT_PERCENT}%; a deposit above 10% may be unrecoverable as a penalty and ties up more of the purchaser's money.`,
    },
  ];
};
