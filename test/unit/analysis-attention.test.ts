// Each attention rule fires on wording that should trigger it and stays quiet on a neutral clause.
import { analyseContract } from '../../lambdas/core/analysis';
import type { AttentionTopic } from '../../lambdas/core/analysis/types';

const topicsIn = (text: string, page = 1): AttentionTopic[] =>
  analyseContract([{ number: page, text }]).attention.map((item) => item.topic);

const CASES: ReadonlyArray<[AttentionTopic, string, string]> = [
  [
    'coolingOff',
    'The purchaser has given the vendor a certificate under section 66W of the Conveyancing Act 1919.',
    'The purchaser may rescind this contract within the cooling off period of 10 business days.',
  ],
  [
    'coolingOff',
    'The cooling-off period is waived by the purchaser.',
    'There is no cooling off period if you buy at a public auction.',
  ],
  [
    'deposit',
    'The purchaser authorises the release of the deposit to the vendor for use as a deposit on another purchase.',
    'The deposit is to be held in the trust account of the vendor’s agent until completion.',
  ],
  [
    'finance',
    'This contract is subject to the purchaser obtaining finance approval by 1 December 2026.',
    'The purchaser warrants they have sufficient funds to complete.',
  ],
  [
    'sunset',
    'If the plan is not registered by the sunset date either party may rescind.',
    'The plan has been registered and the lot exists.',
  ],
  [
    'gst',
    'The vendor and purchaser agree that the margin scheme will apply to the supply of the property.',
    'The price includes GST (if any).',
  ],
  ['gst', 'The price is $800,000 plus GST.', 'No GST is payable on this sale of residential premises.'],
  [
    'vendorFinance',
    'The balance is payable by instalments over five years under vendor finance.',
    'This is not a terms contract.',
  ],
  [
    'defaultInterest',
    'The purchaser must pay interest at the rate of 12% per annum on any amount not paid when due.',
    'Interest on the deposit investment is to be shared equally.',
  ],
  [
    'earlyAccess',
    'The vendor will allow the purchaser early access to the property to carry out renovations.',
    'The purchaser is entitled to vacant possession on completion.',
  ],
  [
    'asIs',
    'The purchaser accepts the property in its present condition and state of repair and the vendor makes no warranty as to its condition.',
    'The vendor must maintain the property until completion as it is at the contract date and as is required by clause 14.',
  ],
  [
    'termination',
    'The vendor may terminate this contract by notice if the purchaser does not pay the deposit on time.',
    'The parties must complete this contract on the date for completion.',
  ],
  [
    'tenancy',
    'The property is sold subject to the existing lease to Bright Cafe Pty Ltd.',
    'The property is sold with vacant possession.',
  ],
  [
    'easementsCovenants',
    'The land is burdened by a right of carriageway and a restrictive covenant as to fencing.',
    'The land is not affected by any easements.',
  ],
  [
    'buildingAndPest',
    'This contract is subject to a satisfactory building and pest inspection report.',
    'The purchaser has inspected the property.',
  ],
  [
    'strata',
    'The purchaser must pay the special levy of $15,000 struck by the owners corporation.',
    'The property is a freestanding house on a Torrens title lot.',
  ],
  [
    'adjustments',
    "On completion the purchaser must pay the vendor's legal costs of $1,500.",
    'Rates and taxes will be adjusted at completion.',
  ],
  [
    'adjustments',
    'There will be no adjustment of council rates or water charges.',
    'Land tax is adjusted on the basis that the land is the only land the vendor owns.',
  ],
  [
    'guarantee',
    'The directors of the purchaser must sign the guarantee and indemnity annexed to this contract.',
    'The purchaser is a natural person buying in their own name.',
  ],
];

describe.each(CASES)('%s', (topic, firing, neutral) => {
  test(`fires: ${firing}`, () => {
    expect(topicsIn(firing)).toContain(topic);
  });

  test(`quiet: ${neutral}`, () => {
    expect(topicsIn(neutral)).not.toContain(topic);
  });
});

describe('attention items', () => {
  test('carry the page, the sentence as excerpt, and why it matters', () => {
    const analysis = analyseContract([
      { number: 1, text: 'Vendor: Alice Brown. Purchaser: Carl Diaz.' },
      {
        number: 2,
        text: 'The price is $500,000. The vendor may terminate this contract by notice if the purchaser is late. Other terms follow.',
      },
    ]);
    expect(analysis.attention).toEqual([
      {
        topic: 'termination',
        excerpt: 'The vendor may terminate this contract by notice if the purchaser is late.',
        page: 2,
        why: expect.stringContaining('end the contract'),
      },
    ]);
  });

  test('a rule fires once per page, again on another page, in page order', () => {
    const easement = 'The land is subject to an easement for drainage. A second easement benefits lot 3.';
    const analysis = analyseContract([
      { number: 2, text: easement },
      { number: 1, text: easement },
    ]);
    expect(analysis.attention.map(({ topic, page }) => [topic, page])).toEqual([
      ['easementsCovenants', 1],
      ['easementsCovenants', 2],
    ]);
  });

  test('a deposit over 10% of the price fires; exactly 10% does not', () => {
    const over = analyseContract([{ number: 1, text: 'Price: $500,000 Deposit: $75,000 on signing.' }]);
    expect(over.deposit?.percentOfPrice).toBe(15);
    expect(over.attention).toEqual([expect.objectContaining({ topic: 'deposit', page: 1 })]);
    const usual = analyseContract([{ number: 1, text: 'Price: $500,000 Deposit: $50,000 on signing.' }]);
    expect(usual.deposit?.percentOfPrice).toBe(10);
    expect(usual.attention).toEqual([]);
  });

  test('a finance clause present is flagged; absent, it is listed as missing', () => {
    const withFinance = analyseContract([{ number: 1, text: 'This contract is subject to finance.' }]);
    expect(withFinance.attention.map((item) => item.topic)).toEqual(['finance']);
    expect(withFinance.missing.map((item) => item.item)).not.toContain('financeClause');
    const without = analyseContract([{ number: 1, text: 'The purchaser will pay cash.' }]);
    expect(without.missing.map((item) => item.item)).toContain('financeClause');
  });
});
