// core -> the price and the deposit: the first label ("price", "purchase price", "deposit") with an
// amount close after it, so a front-page table wins over the clauses that mention the price later.
import { type ContractDocument, pageAt } from './document';
import { fieldValue } from './fields';
import { findAmounts, findPercent } from './money';
import { MATCHES_PER_LABEL } from './search';
import type { Deposit, Price } from './types';

/** How far after its label an amount may start and still be that label's value. */
const NEAR = 60;

const PRICE_LABEL =
  /\b(?:(?:purchase|contract|sale|total)\s+price|price|purchase\s+money|consideration)\b(?!\s+(?:of|for)\s+the\s+(?:goods|chattels))/gi;

export const extractPrice = (document: ContractDocument): Price | null => {
  const { text, search } = document;
  for (const m of search.matches(PRICE_LABEL, 0, text.length, { cap: MATCHES_PER_LABEL })) {
    // "the balance of the price" and "x% of the price" talk about the price; they do not state it.
    if (/\b(?:of|to)\s+the\s+$/i.test(text.slice(Math.max(0, m.index - 10), m.index))) continue;
    const end = m.index + m[0].length;
    const { value, start } = fieldValue(search, end, NEAR + 40);
    const amount = findAmounts(value)[0];
    if (amount === undefined || start + amount.index - end > NEAR) continue;
    if (/[.;]\s/.test(value.slice(0, amount.index))) continue;
    return {
      cents: amount.cents,
      currency: amount.currency,
      text: amount.text,
      page: pageAt(document, start + amount.index),
    };
  }
  return null;
};

const DEPOSIT_LABEL = /\bdeposit\b(?!\s+(?:bond|guarantee|holder))/gi;
const DUE =
  /\b(?:(?:payable|due|paid|to\s+be\s+paid)\s+)?(?:on|by|within|upon|before|at)\s+(?!the\s+rate\b)[^.;()]{2,80}/i;

export const extractDeposit = (document: ContractDocument, price: Price | null): Deposit | null => {
  const { text, search } = document;
  for (const m of search.matches(DEPOSIT_LABEL, 0, text.length, { cap: MATCHES_PER_LABEL })) {
    const end = m.index + m[0].length;
    const { value, start } = fieldValue(search, end, 220);
    const amount = findAmounts(value)[0];
    const percent = findPercent(value);
    const amountNear = amount !== undefined && amount.index <= NEAR ? amount : undefined;
    const percentNear = percent !== null && percent.index <= NEAR ? percent : null;
    if (amountNear === undefined && percentNear === null) continue;
    const firstIndex = Math.min(amountNear?.index ?? value.length, percentNear?.index ?? value.length);
    if (/[.;]\s/.test(value.slice(0, firstIndex))) continue;
    const afterValue = Math.max(
      amountNear === undefined ? 0 : amountNear.index + amountNear.text.length,
      percentNear === null ? 0 : percentNear.index + percentNear.text.length,
    );
    const due = DUE.exec(value.slice(afterValue));
    const cents = amountNear?.cents ?? null;
    const stated = percentNear?.percent ?? null;
    const sentenceEnd = value.search(/[.;](?:\s|$)/);
    return {
      cents,
      percent: stated,
      percentOfPrice:
        stated ??
        (cents !== null && price !== null && price.cents > 0 ? round2((cents / price.cents) * 100) : null),
      due:
        due === null
          ? null
          : due[0].replace(/^(?:payable|due|paid|to\s+be\s+paid)\s+/i, '').replace(/[\s,]+$/, ''),
      text: (sentenceEnd === -1 ? value : value.slice(0, sentenceEnd)).trim(),
      page: pageAt(document, start + firstIndex),
    };
  }
  return null;
};

const round2 = (value: number): number => Math.round(value * 100) / 100;
