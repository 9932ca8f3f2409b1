// frontend/onboarding/frame -> the form's steps, derived from the draft: how many buyers; for each buyer
// their name and contact details, then their date of birth and home address; the property; how it is
// paid for; privacy and terms; then the review (review.ts). Each step owns the answer paths it asks
// for, so a problem (found here or named by the service) lands on the step and field that ask for it.
import {
  type AddressDraft,
  type Draft,
  dateParts,
  joinDate,
  MAX_BUYERS,
  type PaymentMethod,
  withBuyerCount,
} from './answers';
import { h } from './dom';
import { checkboxField, dateField, type FieldView, radioField, selectField, textField } from './fields';
import { under } from './validate';

export interface StepContext {
  draft: Draft;
  /** Call after every change the person makes. */
  changed(): void;
}

export interface Step {
  id: string;
  title: string;
  /** Whether a problem at `path` is this step's to show. */
  owns(path: string): boolean;
  /** The step's content: its fields (in the order they are asked) and the elements around them. */
  build(context: StepContext): { content: Array<HTMLElement | null>; fields: FieldView[] };
}

export const STATES = [
  { value: 'ACT', label: 'Australian Capital Territory' },
  { value: 'NSW', label: 'New South Wales' },
  { value: 'NT', label: 'Northern Territory' },
  { value: 'QLD', label: 'Queensland' },
  { value: 'SA', label: 'South Australia' },
  { value: 'TAS', label: 'Tasmania' },
  { value: 'VIC', label: 'Victoria' },
  { value: 'WA', label: 'Western Australia' },
];

export const PAYMENT_LABELS: Record<PaymentMethod, string> = {
  cash: 'With my own money, no loan',
  loan: 'With a loan',
  cash_and_loan: 'Partly my own money, partly a loan',
};

const buyerCount: Step = {
  id: 'buyers',
  title: 'Buyers',
  owns: (path) => path === 'buyers',
  build: ({ draft, changed }) => {
    const count = radioField({
      path: 'buyers',
      legend: 'How many people are buying the property?',
      hint: `Count everyone who will be named on the contract, up to ${MAX_BUYERS}.`,
      value: draft.buyers.length > 0 ? String(draft.buyers.length) : '',
      options: Array.from({ length: MAX_BUYERS }, (_, i) => ({
        value: String(i + 1),
        label: i === 0 ? '1 buyer' : `${i + 1} buyers`,
      })),
      onChange: (value) => {
        withBuyerCount(draft, Number(value));
        changed();
      },
    });
    return {
      content: [
        h('p', { class: 'lead' }, 'This form collects the details of each buyer for the sale contract.'),
        count.root,
      ],
      fields: [count],
    };
  },
};

/** The address questions shared by a buyer's home and the property; `home` adds the country. */
const addressFields = (
  path: string,
  address: AddressDraft & { country?: string },
  changed: () => void,
  options: { autocomplete: boolean; stateList: boolean },
): FieldView[] => {
  const auto = (token: string) => (options.autocomplete ? token : 'off');
  const text = (
    key: keyof AddressDraft | 'country',
    label: string,
    extra: Partial<Parameters<typeof textField>[0]>,
  ) =>
    textField({
      path: `${path}.${key}`,
      label,
      value: address[key] ?? '',
      onInput: (value) => {
        address[key] = value;
        changed();
      },
      ...extra,
    });
  const fields = [
    text('line1', 'Address line 1', { autocomplete: auto('address-line1') }),
    text('line2', 'Address line 2', { autocomplete: auto('address-line2'), optional: true }),
    text('suburb', 'Suburb or town', { autocomplete: auto('address-level2'), width: 'medium' }),
    options.stateList
      ? selectField({
          path: `${path}.state`,
          label: 'State or territory',
          value: address.state,
          options: STATES,
          onChange: (value) => {
            address.state = value;
            changed();
          },
        })
      : text('state', 'State or region', { autocomplete: auto('address-level1'), width: 'medium' }),
    text('postcode', 'Postcode', { autocomplete: auto('postal-code'), width: 'short', maxlength: 10 }),
  ];
  if (address.country !== undefined)
    fields.push(text('country', 'Country', { autocomplete: auto('country-name'), width: 'medium' }));
  return fields;
};

const buyerLabel = (i: number) => `Buyer ${i + 1}`;

/** Buyer `i`, there before the person has said how many buyers when they come back to an early step. */
const buyerAt = (draft: Draft, i: number) => {
  if (draft.buyers.length <= i) withBuyerCount(draft, i + 1);
  return draft.buyers[i]!;
};

const buyerContact = (i: number): Step => ({
  id: `buyer-${i + 1}-contact`,
  title: `${buyerLabel(i)}: name and contact details`,
  owns: (path) =>
    ['first_name', 'last_name', 'email', 'mobile'].some((key) => under(path, `buyers.${i}.${key}`)),
  build: ({ draft, changed }) => {
    const buyer = buyerAt(draft, i);
    // The first buyer is most often the person filling in the form: their browser may fill these in.
    const auto = (token: string) => (i === 0 ? token : 'off');
    const text = (
      key: 'first_name' | 'last_name' | 'email' | 'mobile',
      label: string,
      extra: Partial<Parameters<typeof textField>[0]>,
    ) =>
      textField({
        path: `buyers.${i}.${key}`,
        label,
        value: buyer[key],
        onInput: (value) => {
          buyer[key] = value;
          changed();
        },
        ...extra,
      });
    const fields = [
      text('first_name', 'First name', {
        autocomplete: auto('given-name'),
        width: 'medium',
        spellcheck: false,
      }),
      text('last_name', 'Last name', {
        autocomplete: auto('family-name'),
        width: 'medium',
        spellcheck: false,
      }),
      text('email', 'Email', {
        type: 'email',
        inputmode: 'email',
        autocomplete: auto('email'),
        spellcheck: false,
        maxlength: 254,
      }),
      text('mobile', 'Mobile', {
        type: 'tel',
        inputmode: 'tel',
        autocomplete: auto('tel'),
        width: 'medium',
        hint: 'For example, 0412 345 678 or +61 412 345 678',
        maxlength: 30,
      }),
    ];
    const lead =
      i === 0
        ? 'The first buyer is the main contact for the purchase.'
        : `The details of the ${['', 'second', 'third', 'fourth'][i]} person buying the property.`;
    return { content: [h('p', { class: 'lead' }, lead), ...fields.map((f) => f.root)], fields };
  },
});

const buyerHome = (i: number): Step => ({
  id: `buyer-${i + 1}-home`,
  title: `${buyerLabel(i)}: date of birth and home address`,
  owns: (path) => under(path, `buyers.${i}.date_of_birth`) || under(path, `buyers.${i}.address`),
  build: ({ draft, changed }) => {
    const buyer = buyerAt(draft, i);
    const born = dateField({
      path: `buyers.${i}.date_of_birth`,
      legend: 'Date of birth',
      hint: 'For example, 27 3 1985. Every buyer must be 18 or older.',
      value: dateParts(buyer.date_of_birth),
      autocomplete: i === 0,
      onInput: (parts) => {
        buyer.date_of_birth = joinDate(parts);
        changed();
      },
    });
    const address = addressFields(`buyers.${i}.address`, buyer.address, changed, {
      autocomplete: i === 0,
      stateList: false,
    });
    const group = h(
      'fieldset',
      { class: 'group' },
      h('legend', { class: 'legend legend-group' }, 'Home address'),
      h('p', { class: 'hint' }, 'Where this buyer lives now.'),
      ...address.map((f) => f.root),
    );
    return { content: [born.root, group], fields: [born, ...address] };
  },
});

const property: Step = {
  id: 'property',
  title: 'The property',
  owns: (path) => under(path, 'property'),
  build: ({ draft, changed }) => {
    const fields = addressFields('property.address', draft.property.address, changed, {
      autocomplete: false,
      stateList: true,
    });
    const group = h(
      'fieldset',
      { class: 'group' },
      h('legend', { class: 'legend legend-group' }, 'Address of the property you are buying'),
      ...fields.map((f) => f.root),
    );
    return { content: [group], fields };
  },
};

const payment: Step = {
  id: 'payment',
  title: 'Paying for the property',
  owns: (path) => under(path, 'payment'),
  build: ({ draft, changed }) => {
    const p = draft.payment;
    const loanDetails = h('div', { class: 'reveal', id: 'loan-details' });
    const showLoan = () => {
      loanDetails.hidden = !(p.method === 'loan' || p.method === 'cash_and_loan');
    };
    const method = radioField<PaymentMethod>({
      path: 'payment.method',
      legend: 'How is the purchase being paid for?',
      value: p.method,
      options: (Object.keys(PAYMENT_LABELS) as PaymentMethod[]).map((value) => ({
        value,
        label: PAYMENT_LABELS[value],
      })),
      onChange: (value) => {
        p.method = value;
        showLoan();
        changed();
      },
    });
    const lender = textField({
      path: 'payment.lender',
      label: 'Lender',
      hint: 'The bank or other lender, if you know it.',
      optional: true,
      width: 'medium',
      value: p.lender,
      onInput: (value) => {
        p.lender = value;
        changed();
      },
    });
    const preapproved = radioField<'yes' | 'no'>({
      path: 'payment.loan_preapproved',
      legend: 'Has the loan been pre-approved? (optional)',
      value: p.loan_preapproved === null ? '' : p.loan_preapproved ? 'yes' : 'no',
      inline: true,
      options: [
        { value: 'yes', label: 'Yes' },
        { value: 'no', label: 'No' },
      ],
      onChange: (value) => {
        p.loan_preapproved = value === 'yes';
        changed();
      },
    });
    loanDetails.append(lender.root, preapproved.root);
    showLoan();
    return { content: [method.root, loanDetails], fields: [method, lender, preapproved] };
  },
};

const consents: Step = {
  id: 'consents',
  title: 'Privacy and terms',
  owns: (path) => under(path, 'consents'),
  build: ({ draft, changed }) => {
    const c = draft.consents;
    const privacy = checkboxField({
      path: 'consents.privacy',
      label: 'I agree to the privacy policy',
      checked: c.privacy,
      onChange: (checked) => {
        c.privacy = checked;
        changed();
      },
    });
    const terms = checkboxField({
      path: 'consents.terms',
      label: 'I agree to the terms',
      checked: c.terms,
      onChange: (checked) => {
        c.terms = checked;
        changed();
      },
    });
    const section = (title: string, ...paragraphs: string[]) =>
      h('section', { class: 'notice-text' }, h('h2', {}, title), ...paragraphs.map((p) => h('p', {}, p)));
    return {
      content: [
        section(
          'Privacy policy',
          'Your details are used to prepare the sale contract and to identify the buyers named on it.',
          'The business that sent you this form receives each buyer’s name, email address and mobile number. ' +
            'Dates of birth and home addresses are stored encrypted and are not shared through the service’s interface.',
        ),
        section(
          'Terms',
          'Give true and complete details for every buyer, with their agreement. ' +
            'If something changes, you can correct your details here and send them again.',
        ),
        h(
          'fieldset',
          { class: 'group' },
          h('legend', { class: 'legend legend-group' }, 'Your agreement'),
          privacy.root,
          terms.root,
        ),
      ],
      fields: [privacy, terms],
    };
  },
};

/** The review step's id; it is drawn by review.ts. */
export const REVIEW = 'review';

/** The steps before the review, for `draft` (one buyer's steps until the person says how many). */
export const formSteps = (draft: Draft): Step[] => {
  const buyers = Math.max(1, draft.buyers.length);
  const steps: Step[] = [buyerCount];
  for (let i = 0; i < buyers; i += 1) steps.push(buyerContact(i), buyerHome(i));
  steps.push(property, payment, consents);
  return steps;
};
