// The answers schema the form and the frame API share: the age rule at the clock's now, what a valid
// submission keeps, and the buyers it names. Every rule's message is checked over HTTP
// (test/api/onboarding-frame.test.ts).
import { buyersOf, checkAnswers } from '../../lambdas/core/onboarding-answers';

const address = {
  line1: '12 Acacia Street',
  suburb: 'Carlton',
  state: 'VIC',
  postcode: '3053',
  country: 'AU',
};
const buyer = (overrides: Record<string, unknown> = {}) => ({
  first_name: 'Maria',
  last_name: 'Rossi',
  email: 'maria@example.com',
  mobile: '0400 000 001',
  date_of_birth: '1988-07-31',
  address,
  ...overrides,
});
const answers = (buyers: unknown[]) => ({
  buyers,
  property: { address: { line1: '3 High Street', suburb: 'Kew', state: 'VIC', postcode: '3101' } },
  payment: { method: 'cash' },
  consents: { privacy: true, terms: true },
});
const at = (iso: string) => new Date(iso);
const dobProblem = (dob: string, now: Date) => {
  const checked = checkAnswers(answers([buyer({ date_of_birth: dob })]), now);
  return checked.ok ? null : checked.fields.map((field) => field.path);
};

test('18 on the birthday, in the time zone where that day comes first (UTC+14)', () => {
  expect(dobProblem('2008-06-15', at('2026-06-14T09:59:59Z'))).toEqual(['buyers.0.date_of_birth']);
  expect(dobProblem('2008-06-15', at('2026-06-14T10:00:00Z'))).toBeNull();
});

test('born on 29 February: 18 on 1 March of a common year', () => {
  expect(dobProblem('2008-02-29', at('2026-02-28T09:00:00Z'))).toEqual(['buyers.0.date_of_birth']);
  expect(dobProblem('2008-02-29', at('2026-02-28T10:00:00Z'))).toBeNull();
  expect(dobProblem('2004-02-29', at('2020-01-01T00:00:00Z'))).toEqual(['buyers.0.date_of_birth']);
});

test('a valid submission is kept trimmed, optional fields as sent; buyers in order, the mobile as typed', () => {
  const checked = checkAnswers(
    answers([
      buyer({ first_name: '  Maria ', mobile: ' +61 (400) 000-001 ' }),
      buyer({ first_name: 'Luca', email: ' Luca@Example.com ', address: { ...address, line2: ' Unit 4 ' } }),
    ]),
    at('2026-11-21T00:00:00Z'),
  );
  if (!checked.ok) throw new Error(JSON.stringify(checked.fields));
  expect(checked.answers.buyers[1]?.address.line2).toBe('Unit 4');
  expect(checked.answers.payment).toEqual({ method: 'cash' });
  expect(buyersOf(checked.answers)).toEqual([
    { firstName: 'Maria', lastName: 'Rossi', email: 'maria@example.com', mobile: '+61 (400) 000-001' },
    { firstName: 'Luca', lastName: 'Rossi', email: 'Luca@Example.com', mobile: '0400 000 001' },
  ]);
});

test('each later buyer repeating an earlier email is named, and only those', () => {
  const checked = checkAnswers(
    answers([
      buyer(),
      buyer({ email: 'luca@example.com' }),
      buyer({ email: 'MARIA@example.com' }),
      buyer({ email: 'Luca@Example.com' }),
    ]),
    at('2026-11-21T00:00:00Z'),
  );
  expect(checked).toEqual({
    ok: false,
    fields: [
      { path: 'buyers.2.email', message: expect.stringMatching(/buyer 1 already/) },
      { path: 'buyers.3.email', message: expect.stringMatching(/buyer 2 already/) },
    ],
  });
});

test('a postcode needs a digit: "Test" is refused for the buyer and the property, real ones of several countries pass', () => {
  const now = at('2026-11-21T00:00:00Z');
  const withPostcode = (code: string) => ({
    ...answers([buyer({ address: { ...address, postcode: code } })]),
    property: { address: { line1: '3 High Street', suburb: 'Kew', state: 'VIC', postcode: code } },
  });

  const refused = checkAnswers(withPostcode('Test'), now);
  expect(refused.ok ? [] : refused.fields).toEqual([
    { path: 'buyers.0.address.postcode', message: expect.stringMatching(/as it appears on post/) },
    { path: 'property.address.postcode', message: expect.stringMatching(/as it appears on post/) },
  ]);
  for (const code of ['3101', 'SW1A 1AA', 'K1A 0B1', 'D02 X285', '1234 AB', '90210-1234']) {
    expect(checkAnswers(withPostcode(code), now)).toMatchObject({ ok: true });
  }
});
