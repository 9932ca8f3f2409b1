// core -> the analysis as a Markdown brief for the lawyer. Everything taken from the contract is
// escaped, so a stray "*", "_" or "[" in contract text cannot change the brief's formatting.
import type { AttentionTopic, ContractAnalysis, DateKind, KeyDate, Located, PartyRole } from './types';

/** Backslash-escapes the characters that mean something inside a line of Markdown (and raw HTML). */
export const escapeMarkdown = (text: string): string =>
  text
    .replace(/\s+/g, ' ')
    .replace(/[\\`*_{}[\]()<>#+!|~]/g, '\\$&')
    // An entity ("&copy;") would render as its character.
    .replace(/&(?=#?\w+;)/g, '\\&')
    // A leading "1." or "-" would start a list.
    .replace(/^(\d+)\.(?=\s)/, '$1\\.')
    .replace(/^[-=](?=\s|$)/, '\\$&');

/** "$1,250,000.00"; other currencies by code. */
export const formatMoney = (cents: number, currency: string): string => {
  const whole = Math.trunc(cents / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const amount = `${whole}.${String(cents % 100).padStart(2, '0')}`;
  return currency === 'AUD' ? `$${amount}` : `${currency} ${amount}`;
};

const page = (number: number): string => `(p. ${number})`;

const ROLE_LABEL: Record<PartyRole, string> = {
  vendor: 'Vendor',
  purchaser: 'Purchaser',
  vendorSolicitor: "Vendor's solicitor or conveyancer",
  purchaserSolicitor: "Purchaser's solicitor or conveyancer",
  agent: 'Agent',
};

const DATE_LABEL: Record<DateKind, string> = {
  contract: 'Contract date',
  settlement: 'Settlement',
  coolingOff: 'Cooling-off',
  finance: 'Finance approval',
  inspection: 'Building and pest',
  sunset: 'Sunset date',
};

const TOPIC_LABEL: Record<AttentionTopic, string> = {
  coolingOff: 'Cooling-off',
  deposit: 'Deposit',
  finance: 'Finance',
  sunset: 'Sunset clause',
  gst: 'GST',
  vendorFinance: 'Vendor finance',
  defaultInterest: 'Default interest',
  earlyAccess: 'Early access',
  asIs: 'As is, no warranty',
  termination: 'Termination rights',
  tenancy: 'Tenancy or lease',
  easementsCovenants: 'Easements and covenants',
  buildingAndPest: 'Building and pest',
  strata: 'Strata or body corporate',
  adjustments: 'Adjustments and costs',
  guarantee: 'Guarantee',
};

const located = (label: string, item: Located | null): string[] =>
  item === null ? [] : [`- **${label}:** ${escapeMarkdown(item.text)} ${page(item.page)}`];

const describeDate = (date: KeyDate): string => {
  const parts = [escapeMarkdown(date.text)];
  if (date.iso !== null) parts.push(`(${date.iso})`);
  if (date.relative !== null) {
    const unit = date.relative.businessDays ? 'business days' : 'days';
    parts.push(`(${date.relative.days} ${unit})`);
  }
  return `- **${DATE_LABEL[date.kind]}:** ${parts.join(' ')} ${page(date.page)}`;
};

const section = (title: string, lines: string[], empty: string): string[] => [
  `## ${title}`,
  '',
  ...(lines.length > 0 ? lines : [`_${empty}_`]),
  '',
];

export const analysisToMarkdown = (analysis: ContractAnalysis): string => {
  const { property, price, deposit } = analysis;
  const money: string[] = [];
  if (price !== null) {
    money.push(`- **Price:** ${formatMoney(price.cents, price.currency)} ${page(price.page)}`);
  }
  if (deposit !== null) {
    const amount = [
      deposit.cents === null ? null : formatMoney(deposit.cents, price?.currency ?? 'AUD'),
      deposit.percentOfPrice === null ? null : `${deposit.percentOfPrice}% of the price`,
    ].filter((part) => part !== null);
    const due = deposit.due === null ? '' : `, due ${escapeMarkdown(deposit.due)}`;
    money.push(`- **Deposit:** ${amount.join(', ')}${due} ${page(deposit.page)}`);
  }
  const lines = [
    '# Contract analysis',
    '',
    `An automated reading of ${analysis.pageCount} page${analysis.pageCount === 1 ? '' : 's'}: check every item against the contract.`,
    '',
    ...section(
      'Parties',
      analysis.parties.map(
        (party) => `- **${ROLE_LABEL[party.role]}:** ${escapeMarkdown(party.name)} ${page(party.page)}`,
      ),
      'No parties found.',
    ),
    ...section(
      'Property',
      [
        ...located('Address', property.address),
        ...located('Title reference', property.titleReference),
        ...located('Lot and plan', property.lotAndPlan),
        ...located('Volume and folio', property.volumeFolio),
      ],
      'No property details found.',
    ),
    ...section('Price and deposit', money, 'No price or deposit found.'),
    ...section('Key dates', analysis.dates.map(describeDate), 'No key dates found.'),
    ...section(
      'Special conditions',
      analysis.specialConditions.map(
        (condition) =>
          `- **${escapeMarkdown(condition.number)}.** ${escapeMarkdown(condition.title)} ${page(condition.page)}`,
      ),
      'No numbered special conditions found.',
    ),
    ...section(
      'Worth your attention',
      analysis.attention.flatMap((item) => [
        `- **${TOPIC_LABEL[item.topic]}** ${page(item.page)}: ${escapeMarkdown(item.why)}`,
        `  > ${escapeMarkdown(item.excerpt)}`,
      ]),
      'Nothing flagged.',
    ),
    ...section(
      'Not found',
      analysis.missing.map((item) => `- ${escapeMarkdown(item.note)}`),
      'Everything expected was found.',
    ),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
};
