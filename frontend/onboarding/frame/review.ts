// frontend/onboarding/frame -> the review step: every answer under the step that asked for it, each step
// with a Change button that goes back to it. What is missing says so, rather than showing nothing.
import { type AddressDraft, type Draft, dateParts } from './answers';
import { h, hidden } from './dom';
import { PAYMENT_LABELS, STATES, type Step } from './steps';

type Row = [term: string, value: string | string[] | null];

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** `27 March 1985` for a date typed as numbers; as typed when it is not one. */
const longDate = (value: string): string | null => {
  const { year, month, day } = dateParts(value);
  if (!year && !month && !day) return null;
  const name = MONTHS[Number(month) - 1];
  return name && /^\d+$/.test(day) ? `${Number(day)} ${name} ${year}` : [day, month, year].join(' / ');
};

const addressLines = (a: AddressDraft & { country?: string }): string[] | null => {
  const state = STATES.find((s) => s.value === a.state)?.value ?? a.state.trim();
  const lines = [
    a.line1.trim(),
    a.line2.trim(),
    [a.suburb.trim(), state, a.postcode.trim()].filter(Boolean).join(' '),
    a.country?.trim() ?? '',
  ].filter(Boolean);
  return lines.length > 0 ? lines : null;
};

const rowsOf = (draft: Draft, step: Step): Row[] => {
  const match = /^buyer-(\d+)-(contact|home)$/.exec(step.id);
  if (match) {
    const buyer = draft.buyers[Number(match[1]) - 1];
    if (!buyer) return [];
    if (match[2] === 'contact')
      return [
        ['Name', `${buyer.first_name.trim()} ${buyer.last_name.trim()}`.trim() || null],
        ['Email', buyer.email.trim() || null],
        ['Mobile', buyer.mobile.trim() || null],
      ];
    return [
      ['Date of birth', longDate(buyer.date_of_birth)],
      ['Home address', addressLines(buyer.address)],
    ];
  }
  switch (step.id) {
    case 'buyers':
      return [['Number of buyers', draft.buyers.length > 0 ? String(draft.buyers.length) : null]];
    case 'property':
      return [['Address', addressLines(draft.property.address)]];
    case 'payment': {
      const p = draft.payment;
      const rows: Row[] = [['Paid for', p.method ? PAYMENT_LABELS[p.method] : null]];
      if (p.method === 'loan' || p.method === 'cash_and_loan')
        rows.push(
          ['Lender', p.lender.trim() || null],
          ['Pre-approved', p.loan_preapproved === null ? null : p.loan_preapproved ? 'Yes' : 'No'],
        );
      return rows;
    }
    case 'consents':
      return [
        ['Privacy policy', draft.consents.privacy ? 'Agreed' : null],
        ['Terms', draft.consents.terms ? 'Agreed' : null],
      ];
    default:
      return [];
  }
};

const answerCell = (value: Row[1]): HTMLElement => {
  if (value === null) return h('dd', { class: 'missing' }, 'Not given');
  if (typeof value === 'string') return h('dd', {}, value);
  const dd = h('dd', {});
  value.forEach((line, i) => {
    if (i > 0) dd.append(h('br'));
    dd.append(line);
  });
  return dd;
};

/** One section per step before the review; `change(step)` goes back to that step. */
export const reviewContent = (draft: Draft, steps: Step[], change: (step: Step) => void): HTMLElement[] =>
  steps.map((step) => {
    const button = h('button', { type: 'button', class: 'link change' }, 'Change', hidden(` ${step.title}`));
    button.addEventListener('click', () => change(step));
    return h(
      'section',
      { class: 'review-section' },
      h('div', { class: 'review-head' }, h('h2', {}, step.title), button),
      h(
        'dl',
        { class: 'answers' },
        ...rowsOf(draft, step).map(([term, value]) =>
          h('div', { class: 'row' }, h('dt', {}, term), answerCell(value)),
        ),
      ),
    );
  });
