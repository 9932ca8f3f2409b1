// core -> the contract analysis: pure and deterministic, no I/O. It finds what a lawyer looks for
// first and says on which page; it does not judge the contract, it points at what to read.
import { pageText, type RenderedContract } from '../rendered-contract';
import { depositAttention, findAttention } from './attention';
import { extractDates } from './dates';
import { buildDocument } from './document';
import { extractParties } from './parties';
import { extractDeposit, extractPrice } from './price-and-deposit';
import { extractProperty } from './property';
import { type AnalysisBudget, UNBOUNDED } from './search';
import { extractSpecialConditions } from './special-conditions';
import type { AttentionItem, ContractAnalysis, Missing, PageTextInput } from './types';

const isRendered = (input: RenderedContract | readonly PageTextInput[]): input is RenderedContract =>
  !Array.isArray(input);

/** The pages of a rendered contract as the analysis reads them. */
export const pagesOf = (contract: RenderedContract): PageTextInput[] =>
  contract.pages.map((page) => ({ number: page.number, text: pageText(page) }));

/**
 * Analyses a contract's text, given page by page (1-based numbers) or as a rendered contract. Every
 * search is charged to `budget`, which may stop the analysis by throwing; the cost is bounded per
 * character of text.
 *
 * @example
 * const analysis = analyseContract([{ number: 1, text: 'Vendor: JOHN CITIZEN Price: $850,000' }]);
 * analysis.price?.cents; // 85_000_000
 */
export function analyseContract(pages: readonly PageTextInput[], budget?: AnalysisBudget): ContractAnalysis;
export function analyseContract(contract: RenderedContract, budget?: AnalysisBudget): ContractAnalysis;
export function analyseContract(
  input: RenderedContract | readonly PageTextInput[],
  budget: AnalysisBudget = UNBOUNDED,
): ContractAnalysis {
  const document = buildDocument(isRendered(input) ? pagesOf(input) : input, budget);
  const parties = extractParties(document);
  const property = extractProperty(document);
  const price = extractPrice(document);
  const deposit = extractDeposit(document, price);
  const dates = extractDates(document);
  const attention = [...findAttention(document), ...depositAttention(deposit)].sort(byPage);

  const missing: Missing[] = [];
  const expect = (found: boolean, item: Missing['item'], note: string) => {
    if (!found) missing.push({ item, note });
  };
  expect(
    parties.some((p) => p.role === 'vendor'),
    'vendor',
    'No vendor named.',
  );
  expect(
    parties.some((p) => p.role === 'purchaser'),
    'purchaser',
    'No purchaser named.',
  );
  expect(property.address !== null, 'propertyAddress', 'No property address found.');
  expect(price !== null, 'price', 'No price found.');
  expect(deposit !== null, 'deposit', 'No deposit found.');
  expect(
    dates.some((d) => d.kind === 'settlement'),
    'settlementDate',
    'No settlement date or period found.',
  );
  expect(
    dates.some((d) => d.kind === 'coolingOff') || attention.some((a) => a.topic === 'coolingOff'),
    'coolingOff',
    'No cooling-off period found.',
  );
  expect(
    attention.some((a) => a.topic === 'finance'),
    'financeClause',
    'No finance clause found: the purchaser may be bound whether or not a loan is approved.',
  );

  return {
    pageCount: document.pageCount,
    parties,
    property,
    price,
    deposit,
    dates,
    specialConditions: extractSpecialConditions(document),
    attention,
    missing,
  };
}

/** Stable: Array.prototype.sort keeps equal pages in the order the rules found them. */
const byPage = (a: AttentionItem, b: AttentionItem): number => a.page - b.page;
