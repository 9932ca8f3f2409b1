// core -> amounts of money and percentages as contracts write them: "$1,250,000.00", "$ 1, 250,000",
// "$1.25 million", "AUD 850,000", "ten percent (10%)". Money is kept in whole cents.

export interface Amount {
  cents: number;
  currency: string;
  /** The amount as written. */
  text: string;
  index: number;
}

const CURRENCY = String.raw`(?:A\$|AU\$|AUD\s*\$?|NZ\$|NZD\s*\$?|US\$|USD\s*\$?|\$)`;
const DIGITS = String.raw`\d{1,3}(?:\s?,\s?\d{3})+|\d+`;
const SCALE = 'million|mil|m|thousand|k';
const AMOUNT = new RegExp(
  String.raw`(${CURRENCY})\s?(${DIGITS})(?:\.(\d{1,2}))?(?:\s?(${SCALE})\b)?|(${DIGITS})(?:\.(\d{1,2}))?\s?(?:(${SCALE})\s+)?dollars\b`,
  'gi',
);

const SCALE_DIGITS: Record<string, number> = { million: 6, mil: 6, m: 6, thousand: 3, k: 3 };

const currencyOf = (symbol: string): string => {
  const upper = symbol.toUpperCase();
  if (upper.startsWith('NZ')) return 'NZD';
  if (upper.startsWith('US')) return 'USD';
  return 'AUD';
};

/** Whole cents of "1,250,000" + "00", or of "1.25" million, without floating point error. */
const toCents = (whole: string, fraction: string, scale: string | undefined): number => {
  const exponent = 2 + (scale === undefined ? 0 : (SCALE_DIGITS[scale.toLowerCase()] ?? 0));
  const digits = `${whole.replace(/[\s,]/g, '')}${fraction}`;
  const shift = exponent - fraction.length;
  return shift >= 0 ? Number(digits) * 10 ** shift : Math.round(Number(digits) / 10 ** -shift);
};

/** Every amount of money in `text`, in order. A bare number counts only with "dollars" after it. */
export const findAmounts = (text: string): Amount[] => {
  const found: Amount[] = [];
  AMOUNT.lastIndex = 0;
  for (let m = AMOUNT.exec(text); m !== null; m = AMOUNT.exec(text)) {
    const [all, symbol, whole, fraction, scale, wordsWhole, wordsFraction, wordsScale] = m;
    const cents =
      symbol !== undefined && whole !== undefined
        ? toCents(whole, fraction ?? '', scale)
        : toCents(wordsWhole ?? '0', wordsFraction ?? '', wordsScale);
    found.push({ cents, currency: currencyOf(symbol ?? '$'), text: all.trim(), index: m.index });
  }
  return found;
};

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  'twenty-one': 21,
  'twenty-five': 25,
  thirty: 30,
  'thirty-five': 35,
  forty: 40,
  'forty-two': 42,
  'forty-five': 45,
  fifty: 50,
  sixty: 60,
  ninety: 90,
  // Ordinals, for "the tenth business day after …".
  third: 3,
  fifth: 5,
  seventh: 7,
  tenth: 10,
  fourteenth: 14,
  twentieth: 20,
  thirtieth: 30,
};

/** A number written as digits or as one of the small words contracts use ("ten", "forty-two"). */
export const numberFromWords = (word: string): number | null => {
  if (/^\d+(?:\.\d+)?$/.test(word)) return Number(word);
  return NUMBER_WORDS[word.toLowerCase().replace(/\s+/g, '-')] ?? null;
};

export const NUMBER_WORD_PATTERN = `(?:${Object.keys(NUMBER_WORDS)
  .sort((a, b) => b.length - a.length)
  .join('|')})`;

const PERCENT = new RegExp(
  String.raw`(\d{1,3}(?:\.\d+)?)\s?(?:%|per\s?cent\b|percent\b)|\b(${NUMBER_WORD_PATTERN})\s+(?:per\s?cent|percent)\b(?:\s*\(\s*(\d{1,3}(?:\.\d+)?)\s?%\s*\))?`,
  'gi',
);

/** The first percentage in `text` ("10%", "10 per cent", "ten percent (10%)"), with where it is. */
export const findPercent = (text: string): { percent: number; text: string; index: number } | null => {
  PERCENT.lastIndex = 0;
  const m = PERCENT.exec(text);
  if (m === null) return null;
  const [all, digits, word, bracketed] = m;
  const percent =
    digits !== undefined
      ? Number(digits)
      : bracketed !== undefined
        ? Number(bracketed)
        : numberFromWords(word ?? '');
  return percent === null ? null : { percent, text: all, index: m.index };
};
