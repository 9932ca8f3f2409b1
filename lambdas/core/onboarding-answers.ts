// core -> the answers of the sign-up form (frontend/onboarding/README.md): one zod schema that the form
// and the frame API both judge them by, with messages that tell a person what to fix. Framework-free and
// without node: imports, as the form bundles it too.
// zod/mini, as everywhere: a bundle keeps only what the schema uses. Every message is the schema's own,
// so zod's English words are not needed.
import * as z from 'zod/mini';

/** The most buyers one sign-up names (interface.md, Limits). */
export const MAX_BUYERS = 4;

/** The youngest a buyer may be, in years on the day of submission. */
export const MIN_BUYER_AGE = 18;

/** Longest text of each kind of field, in characters after trimming. */
export const MAX_LENGTH = {
  name: 100,
  email: 254,
  mobile: 30,
  addressLine: 200,
  place: 100,
  postcode: 10,
  lender: 200,
} as const;

/** A field a person must fill in: text, trimmed, 1 to `max` characters. */
const text = (what: string, max: number) =>
  z
    .string({ error: `Enter ${what}.` })
    .check(
      z.trim(),
      z.minLength(1, { error: `Enter ${what}.` }),
      z.maxLength(max, { error: `Shorten ${what} to at most ${max} characters.` }),
    );

/** A field a person may leave empty. */
const optionalText = (what: string, max: number) =>
  z.optional(
    z
      .string({ error: `Enter ${what} as text, or leave it out.` })
      .check(z.trim(), z.maxLength(max, { error: `Shorten ${what} to at most ${max} characters.` })),
  );

/** An object of the form: exactly these fields (any other is named in its own message). */
const group = <Shape extends z.core.$ZodLooseShape>(missing: string, shape: Shape) =>
  z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? undefined : missing),
  });

const email = z.pipe(
  z.string({ error: 'Enter an email address, like name@example.com.' }).check(
    z.trim(),
    z.minLength(1, { error: 'Enter an email address, like name@example.com.' }),
    z.maxLength(MAX_LENGTH.email, {
      error: `Shorten the email address to at most ${MAX_LENGTH.email} characters.`,
    }),
  ),
  z.email({ error: 'Enter a whole email address, like name@example.com.' }),
);

const MOBILE_CHARACTERS = /^[0-9 +()-]+$/;

const mobile = text('a mobile number', MAX_LENGTH.mobile).check(
  z.superRefine((value, context) => {
    const digits = value.replace(/[^0-9]/g, '').length;
    if (!MOBILE_CHARACTERS.test(value))
      context.addIssue({
        code: 'custom',
        message: 'Write the mobile number with digits, spaces, +, ( ) and - only.',
      });
    else if (digits < 6 || digits > 15)
      context.addIssue({ code: 'custom', message: 'Enter a mobile number of 6 to 15 digits.' });
  }),
);

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Year, month and day of a `YYYY-MM-DD` date that exists on the calendar, else null. */
const calendarDate = (value: string): [number, number, number] | null => {
  const match = ISO_DATE.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const exists =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return exists && year >= 1 ? [year, month, day] : null;
};

/**
 * Today's date where it is latest on Earth (UTC+14): a buyer who turns 18 today anywhere is not
 * refused because of the server's time zone.
 */
const latestToday = (now: Date): [number, number, number] => {
  const there = new Date(now.getTime() + 14 * 3_600_000);
  return [there.getUTCFullYear(), there.getUTCMonth() + 1, there.getUTCDate()];
};

const compareDates = (a: [number, number, number], b: [number, number, number]): number =>
  a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

const dateOfBirth = (now: Date) =>
  z.string({ error: 'Enter the date of birth as YYYY-MM-DD, like 1990-07-31.' }).check(
    z.trim(),
    z.superRefine((value, context) => {
      const born = calendarDate(value);
      const fail = (message: string) => context.addIssue({ code: 'custom', message });
      if (!ISO_DATE.test(value)) return fail('Enter the date of birth as YYYY-MM-DD, like 1990-07-31.');
      if (born === null) return fail('Enter a date of birth that exists on the calendar.');
      const today = latestToday(now);
      if (compareDates(born, today) > 0) return fail('Enter a date of birth in the past.');
      if (today[0] - born[0] > 130) return fail('Check the year of birth: it is more than 130 years ago.');
      const eighteenth: [number, number, number] = [born[0] + MIN_BUYER_AGE, born[1], born[2]];
      if (compareDates(today, eighteenth) < 0)
        return fail(`Each buyer must be ${MIN_BUYER_AGE} or older; this date of birth is too recent.`);
    }),
  );

const POSTCODE = /^[A-Za-z0-9][A-Za-z0-9 -]*$/;
/** Postcodes carry a digit (3122, SW1A 1AA, K1A 0B1, D02 X285): a word such as "Test" is refused. */
const HAS_DIGIT = /[0-9]/;

const postcode = text('the postcode', MAX_LENGTH.postcode).check(
  z.regex(POSTCODE, { error: 'Write the postcode with letters, digits, spaces and - only.' }),
  z.regex(HAS_DIGIT, { error: 'Write the postcode as it appears on post, such as 3122 or SW1A 1AA.' }),
);

const residentialAddress = group("Fill in the buyer's residential address.", {
  line1: text('the street address', MAX_LENGTH.addressLine),
  line2: optionalText('the second address line', MAX_LENGTH.addressLine),
  suburb: text('the suburb or town', MAX_LENGTH.place),
  state: text('the state or region', MAX_LENGTH.place),
  postcode,
  country: text('the country', MAX_LENGTH.place),
});

const propertyAddress = group("Fill in the property's address.", {
  line1: text("the property's street address", MAX_LENGTH.addressLine),
  line2: optionalText("the property's second address line", MAX_LENGTH.addressLine),
  suburb: text("the property's suburb or town", MAX_LENGTH.place),
  state: text("the property's state or region", MAX_LENGTH.place),
  postcode,
});

const buyer = (now: Date) =>
  group("Fill in this buyer's details.", {
    first_name: text('the first name', MAX_LENGTH.name),
    last_name: text('the last name', MAX_LENGTH.name),
    email,
    mobile,
    date_of_birth: dateOfBirth(now),
    address: residentialAddress,
  });

export const PAYMENT_METHODS = ['cash', 'loan', 'cash_and_loan'] as const;

const payment = group('Choose how the purchase is paid for.', {
  method: z.enum(PAYMENT_METHODS, {
    error: 'Choose how the purchase is paid for: cash, a loan, or cash and a loan.',
  }),
  lender: optionalText('the lender', MAX_LENGTH.lender),
  loan_preapproved: z.optional(z.boolean({ error: 'Answer yes or no: is the loan pre-approved?' })),
});

const consents = group('Agree to the privacy policy and the terms to go on.', {
  privacy: z.literal(true, { error: 'Agree to the privacy policy to go on.' }),
  terms: z.literal(true, { error: 'Agree to the terms to go on.' }),
});

/** The complete answers a submission needs, judged at `now` (the age rule). */
export const answersSchema = (now: Date) =>
  group('Send the answers of the form as an object.', {
    buyers: z
      .array(buyer(now), { error: 'Name at least one buyer.' })
      .check(
        z.minLength(1, { error: 'Name at least one buyer.' }),
        z.maxLength(MAX_BUYERS, { error: `Name at most ${MAX_BUYERS} buyers.` }),
      ),
    property: group("Fill in the property's address.", { address: propertyAddress }),
    payment,
    consents,
  });

export type Answers = z.output<ReturnType<typeof answersSchema>>;

/** A field to fix: its path in the answers (`buyers.1.email`; empty for the answers as a whole). */
export interface FieldProblem {
  path: string;
  message: string;
}

export type AnswersCheck = { ok: true; answers: Answers } | { ok: false; fields: FieldProblem[] };

const pathText = (path: ReadonlyArray<PropertyKey>): string => path.map(String).join('.');

/** Later buyers who repeat an earlier buyer's email (trimmed, any case). */
const repeatedEmails = (value: unknown): FieldProblem[] => {
  const buyers = (value as { buyers?: unknown } | null)?.buyers;
  if (!Array.isArray(buyers)) return [];
  const first = new Map<string, number>();
  const problems: FieldProblem[] = [];
  buyers.forEach((entry: unknown, index) => {
    const address = (entry as { email?: unknown } | null)?.email;
    if (typeof address !== 'string' || address.trim() === '') return;
    const key = address.trim().toLowerCase();
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, index);
    else
      problems.push({
        path: `buyers.${index}.email`,
        message: `Each buyer needs their own email address; buyer ${earlier + 1} already gives this one.`,
      });
  });
  return problems;
};

const SECTIONS = ['', 'buyers', 'property', 'payment', 'consents'];

/** Where a field comes in the form, for sorting: its section, then its buyer. */
const formOrder = (path: string): number => {
  const [section = '', index] = path.split('.');
  const buyer = section === 'buyers' && index !== undefined && /^[0-9]+$/.test(index) ? Number(index) + 1 : 0;
  return (SECTIONS.indexOf(section) + 1) * 100 + buyer;
};

/**
 * Judges a submission's answers at `now`: the answers as the service keeps them (trimmed), or every
 * field to fix, one message each.
 */
export const checkAnswers = (value: unknown, now: Date): AnswersCheck => {
  const parsed = z.safeParse(answersSchema(now), value);
  const problems: FieldProblem[] = [];
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        problems.push({
          path: pathText([...issue.path, key]),
          message: `\`${key}\` is not a field of this form; leave it out.`,
        });
    } else problems.push({ path: pathText(issue.path), message: issue.message });
  }
  problems.push(...repeatedEmails(value));
  // One message per field, the first found; in the form's order (sections, then buyers).
  const seen = new Set<string>();
  const fields = problems
    .filter((problem) => !seen.has(problem.path) && seen.add(problem.path))
    .sort((a, b) => formOrder(a.path) - formOrder(b.path));
  if (parsed.success && fields.length === 0) return { ok: true, answers: parsed.data };
  return { ok: false, fields };
};

/** One buyer as the form names them. */
export interface Buyer {
  firstName: string;
  lastName: string;
  email: string;
  mobile: string | null;
}

/** The buyers a submission names, as clients take them: names and email trimmed, the mobile as typed. */
export const buyersOf = (answers: Answers): Buyer[] =>
  answers.buyers.map((b) => ({
    firstName: b.first_name,
    lastName: b.last_name,
    email: b.email,
    mobile: b.mobile,
  }));
