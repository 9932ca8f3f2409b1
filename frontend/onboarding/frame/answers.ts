// frontend/onboarding/frame -> what the person has typed so far (the draft), read back from whatever the
// frame API returned, and turned into the answers the service takes (README: Answers). The draft keeps
// every field as typed; the answers are trimmed, with empty optional fields left out.

import { MAX_BUYERS, PAYMENT_METHODS } from '../../../lambdas/core/onboarding-answers';

export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export { MAX_BUYERS };

export interface AddressDraft {
  line1: string;
  line2: string;
  suburb: string;
  state: string;
  postcode: string;
}

export interface BuyerDraft {
  first_name: string;
  last_name: string;
  email: string;
  mobile: string;
  /** `YYYY-MM-DD` once complete; while typed, `{year}-{month}-{day}` with any part empty. */
  date_of_birth: string;
  address: AddressDraft & { country: string };
}

export interface Draft {
  /** One to four buyers once the person has said how many; empty before. */
  buyers: BuyerDraft[];
  property: { address: AddressDraft };
  payment: { method: PaymentMethod | ''; lender: string; loan_preapproved: boolean | null };
  consents: { privacy: boolean; terms: boolean };
}

export const emptyBuyer = (): BuyerDraft => ({
  first_name: '',
  last_name: '',
  email: '',
  mobile: '',
  date_of_birth: '',
  address: { line1: '', line2: '', suburb: '', state: '', postcode: '', country: 'Australia' },
});

export const emptyDraft = (): Draft => ({
  buyers: [],
  property: { address: { line1: '', line2: '', suburb: '', state: '', postcode: '' } },
  payment: { method: '', lender: '', loan_preapproved: null },
  consents: { privacy: false, terms: false },
});

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
const text = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);

const readAddress = (value: unknown): AddressDraft => {
  const a = record(value);
  return {
    line1: text(a.line1),
    line2: text(a.line2),
    suburb: text(a.suburb),
    state: text(a.state),
    postcode: text(a.postcode),
  };
};

/** A draft from what `GET /api/form` returned (a saved draft, the latest submission or null), never throwing. */
export const readDraft = (value: unknown): Draft => {
  const draft = emptyDraft();
  const answers = record(value);
  if (Array.isArray(answers.buyers)) {
    draft.buyers = answers.buyers.slice(0, MAX_BUYERS).map((item) => {
      const b = record(item);
      const buyer = emptyBuyer();
      return {
        first_name: text(b.first_name),
        last_name: text(b.last_name),
        email: text(b.email),
        mobile: text(b.mobile),
        date_of_birth: text(b.date_of_birth),
        address: {
          ...readAddress(b.address),
          country: text(record(b.address).country, buyer.address.country),
        },
      };
    });
  }
  draft.property.address = readAddress(record(answers.property).address);
  const payment = record(answers.payment);
  const method = PAYMENT_METHODS.find((m) => m === payment.method);
  draft.payment = {
    method: method ?? '',
    lender: text(payment.lender),
    loan_preapproved: typeof payment.loan_preapproved === 'boolean' ? payment.loan_preapproved : null,
  };
  const consents = record(answers.consents);
  draft.consents = { privacy: consents.privacy === true, terms: consents.terms === true };
  return draft;
};

/** The parts of a date of birth as typed: year, month, day. */
export const dateParts = (value: string): { year: string; month: string; day: string } => {
  const [year = '', month = '', day = ''] = value.split('-').length === 3 ? value.split('-') : [];
  return { year, month, day };
};

/** A date of birth from its typed parts; a one-digit day or month gets its leading zero. */
export const joinDate = (parts: { year: string; month: string; day: string }): string => {
  const clean = (part: string) => part.trim().replace(/-/g, '');
  const pad = (part: string) => (/^\d$/.test(part) ? `0${part}` : part);
  return `${clean(parts.year)}-${pad(clean(parts.month))}-${pad(clean(parts.day))}`;
};

const needsLoan = (method: Draft['payment']['method']) => method === 'loan' || method === 'cash_and_loan';

/** Payment as the answers carry it: the lender and pre-approval only with a loan, and only when given. */
const paymentAnswers = (payment: Draft['payment'], trim: (s: string) => string) => ({
  ...(payment.method ? { method: payment.method } : {}),
  ...(needsLoan(payment.method) && trim(payment.lender) ? { lender: trim(payment.lender) } : {}),
  ...(needsLoan(payment.method) && payment.loan_preapproved !== null
    ? { loan_preapproved: payment.loan_preapproved }
    : {}),
});

const addressAnswers = (a: AddressDraft, trim: (s: string) => string) => ({
  line1: trim(a.line1),
  ...(trim(a.line2) ? { line2: trim(a.line2) } : {}),
  suburb: trim(a.suburb),
  state: trim(a.state),
  postcode: trim(a.postcode),
});

const answersOf = (draft: Draft, trim: (s: string) => string) => ({
  buyers: draft.buyers.map((b) => ({
    first_name: trim(b.first_name),
    last_name: trim(b.last_name),
    email: trim(b.email),
    mobile: trim(b.mobile),
    date_of_birth: b.date_of_birth === '--' ? '' : b.date_of_birth,
    address: { ...addressAnswers(b.address, trim), country: trim(b.address.country) },
  })),
  property: { address: addressAnswers(draft.property.address, trim) },
  payment: paymentAnswers(draft.payment, trim),
  consents: {
    ...(draft.consents.privacy ? { privacy: true as const } : {}),
    ...(draft.consents.terms ? { terms: true as const } : {}),
  },
});

/**
 * The draft to save (`PUT /api/draft`): the answers' shape with every field as typed (untrimmed), and
 * what has no answer yet (a payment method, a consent not given) left out.
 */
export const draftAnswers = (draft: Draft) => answersOf(draft, (s) => s);

/** The answers to submit (`POST /api/submit`) or check: trimmed, empty optional fields left out. */
export const submittedAnswers = (draft: Draft) => answersOf(draft, (s) => s.trim());

/** Keeps `count` buyers: the ones typed so far, then empty ones. */
export const withBuyerCount = (draft: Draft, count: number): void => {
  draft.buyers = Array.from({ length: count }, (_, i) => draft.buyers[i] ?? emptyBuyer());
};
