// The contract analysis over three styles of contract text (NSW, Victorian, informal), in process.
import { readFileSync } from 'node:fs';
import { analyseContract } from '../../lambdas/core/analysis';
import type { ContractAnalysis, PageTextInput } from '../../lambdas/core/analysis/types';
import type { RenderedContract, TextRun } from '../../lambdas/core/rendered-contract';

/** A fixture's pages, each introduced by a line "=== page N ===". */
const loadPages = (name: string): PageTextInput[] => {
  const raw = readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
  const parts = raw.split(/^=== page (\d+) ===\n/m).slice(1);
  const pages: PageTextInput[] = [];
  for (let i = 0; i < parts.length; i += 2)
    pages.push({ number: Number(parts[i]), text: parts[i + 1] ?? '' });
  return pages;
};

const namesOf = (analysis: ContractAnalysis, role: string) =>
  analysis.parties.filter((party) => party.role === role).map(({ name, page }) => ({ name, page }));

const topicsOf = (analysis: ContractAnalysis) =>
  analysis.attention.map(({ topic, page }) => ({ topic, page }));

describe('NSW contract for the sale and purchase of land', () => {
  const analysis = analyseContract(loadPages('analysis-nsw-contract.txt'));

  test('parties from the front page, split words rejoined, joint vendors apart', () => {
    expect(namesOf(analysis, 'vendor')).toEqual([
      { name: 'JOHN CITIZEN', page: 1 },
      { name: 'MARY CITIZEN', page: 1 },
    ]);
    expect(namesOf(analysis, 'purchaser')).toEqual([{ name: 'JANE ELIZABETH BUYER', page: 1 }]);
    expect(namesOf(analysis, 'vendorSolicitor')).toEqual([{ name: 'SMITH & CO LAWYERS', page: 1 }]);
    expect(namesOf(analysis, 'purchaserSolicitor')).toEqual([{ name: 'Lee Conveyancing Pty Ltd', page: 1 }]);
    expect(namesOf(analysis, 'agent')).toEqual([{ name: 'Harbour Realty Pty Ltd', page: 1 }]);
  });

  test('property: address, lot and plan, folio identifier', () => {
    expect(analysis.property).toEqual({
      address: { text: '12 Harbour Street, Balmain NSW 2041', page: 1 },
      titleReference: { text: '5/123456', page: 1 },
      lotAndPlan: { text: 'Lot 5 in Deposited Plan 123456', page: 1 },
      volumeFolio: null,
    });
  });

  test('price and deposit in cents, with the stated percentage', () => {
    expect(analysis.price).toEqual({ cents: 125_000_000, currency: 'AUD', text: '$1,250,000.00', page: 1 });
    expect(analysis.deposit).toMatchObject({
      cents: 12_500_000,
      percent: 10,
      percentOfPrice: 10,
      due: null,
      page: 1,
    });
  });

  test('completion as a period after the contract date; the contract date as ISO', () => {
    const settlement = analysis.dates.find((date) => date.kind === 'settlement');
    expect(settlement).toMatchObject({
      page: 1,
      iso: null,
      relative: { days: 42, businessDays: false, from: 'contract date' },
    });
    expect(settlement?.text).toContain('42nd day after the contract date');
    expect(analysis.dates.find((date) => date.kind === 'contract')).toMatchObject({
      iso: '2026-11-21',
      page: 1,
    });
    expect(analysis.dates.find((date) => date.kind === 'coolingOff')).toMatchObject({
      text: 'cooling off period does not apply',
      page: 3,
    });
  });

  test('special conditions numbered on from the printed clauses, over a page break', () => {
    expect(analysis.specialConditions).toEqual([
      { number: '33', title: 'DEFINITIONS', page: 3 },
      { number: '34', title: 'NOTICE TO COMPLETE', page: 3 },
      { number: '35', title: 'SECTION 66W CERTIFICATE', page: 3 },
      { number: '36', title: 'LATE COMPLETION', page: 3 },
      { number: '37', title: 'RELEASE OF DEPOSIT', page: 4 },
      { number: '38', title: 'EXISTING TENANCY', page: 4 },
      { number: '39', title: 'NO REQUISITIONS', page: 4 },
    ]);
  });

  test('attention: the s66W certificate, default interest, early release, tenancy; not the statutory warnings', () => {
    expect(topicsOf(analysis)).toEqual([
      { topic: 'coolingOff', page: 3 },
      { topic: 'defaultInterest', page: 3 },
      { topic: 'deposit', page: 4 },
      { topic: 'tenancy', page: 4 },
    ]);
    expect(analysis.attention[0]?.excerpt).toContain('certificate under section 66W');
    expect(analysis.attention[1]?.why).toContain('10% a year');
  });

  test('missing: only the finance clause', () => {
    expect(analysis.missing.map((item) => item.item)).toEqual(['financeClause']);
  });
});

describe('Victorian contract of sale with particulars of sale', () => {
  const analysis = analyseContract(loadPages('analysis-vic-contract.txt'));

  test('parties under upper case headings', () => {
    expect(namesOf(analysis, 'vendor')).toEqual([{ name: 'Robert James Smith', page: 1 }]);
    expect(namesOf(analysis, 'purchaser')).toEqual([
      { name: 'Amelia Chen', page: 1 },
      { name: 'Daniel Chen', page: 1 },
    ]);
    expect(namesOf(analysis, 'vendorSolicitor')).toEqual([{ name: 'Hill & Partners Lawyers', page: 1 }]);
    expect(namesOf(analysis, 'purchaserSolicitor')).toEqual([{ name: 'Yarra Conveyancing', page: 1 }]);
    expect(namesOf(analysis, 'agent')).toEqual([{ name: 'Nelson Alexander Real Estate', page: 1 }]);
  });

  test('the property address, not the agent’s or the lawyer’s office', () => {
    expect(analysis.property).toEqual({
      address: { text: '7 Rose Lane, Fitzroy North VIC 3068', page: 2 },
      titleReference: null,
      lotAndPlan: { text: 'Lot 2 on Plan of Subdivision 123456A', page: 2 },
      volumeFolio: { text: 'Volume 10234 Folio 567', page: 2 },
    });
  });

  test('price without cents; deposit due date; its share of the price worked out', () => {
    expect(analysis.price).toEqual({ cents: 85_000_000, currency: 'AUD', text: '$850,000', page: 2 });
    expect(analysis.deposit).toMatchObject({
      cents: 8_500_000,
      percent: null,
      percentOfPrice: 10,
      due: 'by 21/11/2026',
      page: 2,
    });
  });

  test('dates: settlement by month name, cooling-off in clear business days, finance and inspection', () => {
    const byKind = Object.fromEntries(analysis.dates.map((date) => [date.kind, date]));
    expect(byKind.settlement).toMatchObject({ iso: '2027-01-15', page: 2 });
    expect(byKind.coolingOff).toMatchObject({
      iso: null,
      relative: { days: 3, businessDays: true },
      page: 1,
    });
    expect(byKind.finance).toMatchObject({ iso: '2026-12-10', page: 2 });
    expect(byKind.inspection).toMatchObject({ iso: '2026-12-05', page: 3 });
    expect(byKind.contract).toBeUndefined();
  });

  test('special conditions from 1 with mixed-case titles', () => {
    expect(analysis.specialConditions.map(({ number, title, page }) => [number, title, page])).toEqual([
      ['1', 'Building and pest inspection', 3],
      ['2', 'Early access', 3],
      ['3', 'GST', 3],
      ['4', 'Owners corporation', 3],
    ]);
  });

  test('attention: finance, margin scheme, early access, inspection, owners corporation; not "price includes GST"', () => {
    expect(topicsOf(analysis)).toEqual([
      { topic: 'finance', page: 2 },
      { topic: 'gst', page: 3 },
      { topic: 'earlyAccess', page: 3 },
      { topic: 'buildingAndPest', page: 3 },
      { topic: 'strata', page: 3 },
    ]);
    expect(analysis.attention.find((item) => item.topic === 'gst')?.excerpt).toContain('margin scheme');
  });

  test('nothing missing', () => {
    expect(analysis.missing).toEqual([]);
  });
});

describe('informal agreement with odd formatting', () => {
  const analysis = analyseContract(loadPages('analysis-informal-contract.txt'));

  test('parties named before "(the Seller)" and "(the Buyer)", extra spaces collapsed', () => {
    expect(namesOf(analysis, 'vendor')).toEqual([{ name: 'Bob Alan TAYLOR', page: 1 }]);
    expect(namesOf(analysis, 'purchaser')).toEqual([{ name: 'Priya Sharma', page: 1 }]);
    expect(analysis.parties).toHaveLength(2);
  });

  test('"$1.25 million", a deposit in words and brackets, a split "Settle ment"', () => {
    expect(analysis.property.address).toEqual({ text: '15 Wattle Ave, Kelmscott WA 6111', page: 1 });
    expect(analysis.price).toMatchObject({ cents: 125_000_000, text: '$1.25 million', page: 1 });
    expect(analysis.deposit).toMatchObject({
      cents: null,
      percent: 15,
      percentOfPrice: 15,
      due: 'on signing this agreement',
      page: 1,
    });
    expect(analysis.dates.find((date) => date.kind === 'settlement')).toMatchObject({
      iso: '2026-06-30',
      page: 1,
    });
  });

  test('special conditions numbered "1)"', () => {
    expect(analysis.specialConditions).toEqual([
      { number: '1', title: 'Removal of shed', page: 2 },
      { number: '2', title: 'Pool fence', page: 2 },
    ]);
  });

  test('attention: as is, a 15% deposit, no cooling-off, default interest, termination', () => {
    expect(topicsOf(analysis)).toEqual([
      { topic: 'asIs', page: 1 },
      { topic: 'deposit', page: 1 },
      { topic: 'coolingOff', page: 2 },
      { topic: 'defaultInterest', page: 2 },
      { topic: 'termination', page: 2 },
    ]);
    expect(analysis.attention.find((item) => item.topic === 'deposit')?.why).toContain('15%');
  });

  test('missing: the finance clause', () => {
    expect(analysis.missing.map((item) => item.item)).toEqual(['financeClause']);
  });
});

describe('what is missing', () => {
  test('no price, no deposit, no settlement date in a contract that states none', () => {
    const analysis = analyseContract([
      {
        number: 1,
        text: 'Vendor: Alice Brown\nPurchaser: Carl Diaz\nProperty: 4 Oak Street, Hobart TAS 7000',
      },
      { number: 2, text: 'The price will be agreed later. This contract is subject to finance.' },
    ]);
    expect(analysis.price).toBeNull();
    expect(analysis.deposit).toBeNull();
    expect(analysis.missing.map((item) => item.item)).toEqual([
      'price',
      'deposit',
      'settlementDate',
      'coolingOff',
    ]);
    expect(analysis.missing.find((item) => item.item === 'price')?.note).toBe('No price found.');
  });

  test('an empty contract misses everything and finds nothing', () => {
    const analysis = analyseContract([]);
    expect(analysis.pageCount).toBe(0);
    expect(analysis.parties).toEqual([]);
    expect(analysis.attention).toEqual([]);
    expect(analysis.missing).toHaveLength(8);
  });
});

describe('input', () => {
  const run = (text: string, x = 0.1): TextRun => ({ text, x, y: 0.1, width: 0.1, height: 0.01 });
  const rendered = (pages: TextRun[][]): RenderedContract => ({
    contractReviewId: 'crv_1',
    version: 1,
    pageCount: pages.length,
    pages: pages.map((text, i) => ({
      number: i + 1,
      widthPoints: 595,
      heightPoints: 842,
      image: { key: `p${i}`, contentType: 'image/webp', width: 1, height: 1 },
      thumbnail: { key: `t${i}`, contentType: 'image/webp', width: 1, height: 1 },
      text,
    })),
  });

  test('a rendered contract reads through pageText, words split across runs rejoined', () => {
    const analysis = analyseContract(
      rendered([
        [run('Ven'), run('dor:'), run('Alice Brown')],
        [run('Pur'), run('chase'), run('price:'), run('$'), run('640,000'), run('Deposit: 5%')],
      ]),
    );
    expect(analysis.parties).toEqual([{ role: 'vendor', name: 'Alice Brown', page: 1 }]);
    expect(analysis.price).toMatchObject({ cents: 64_000_000, page: 2 });
    expect(analysis.deposit).toMatchObject({ percent: 5, page: 2 });
  });

  test('pages given out of order are read in page order', () => {
    const pages = loadPages('analysis-nsw-contract.txt');
    expect(analyseContract([...pages].reverse())).toEqual(analyseContract(pages));
  });

  test('deterministic: the same input gives a deep-equal, JSON-stable answer', () => {
    for (const name of [
      'analysis-nsw-contract.txt',
      'analysis-vic-contract.txt',
      'analysis-informal-contract.txt',
    ]) {
      const first = analyseContract(loadPages(name));
      const second = analyseContract(loadPages(name));
      expect(second).toEqual(first);
      expect(JSON.stringify(second)).toBe(JSON.stringify(first));
      expect(JSON.parse(JSON.stringify(first))).toEqual(first);
    }
  });
});
