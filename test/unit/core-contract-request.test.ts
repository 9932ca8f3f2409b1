// The `request` part's rules, in process: each fault's code, and the order they are checked in.
import {
  readContractRequest,
  readVersionRequest,
  usableAsRecipient,
} from '../../lambdas/core/contracts/request';
import { isServiceError } from '../../lambdas/core/errors';

const codeOf = (act: () => unknown): string => {
  try {
    act();
  } catch (error) {
    if (isServiceError(error)) return error.code;
    throw error;
  }
  return 'accepted';
};

const json = (value: unknown) => JSON.stringify(value);
const base = { external_reference: 'sale-1', product: 'contract_viewer' };

describe('readContractRequest', () => {
  test('reads a full legal_advice request, trimming the recipient', () => {
    const request = readContractRequest(
      json({
        external_reference: 'r',
        product: 'legal_advice',
        clients: ['cli_a1', 'cli_b2'],
        recipient: { first_name: ' Ada ', last_name: 'L', email: 'a@b.co' },
      }),
    );
    expect(request).toEqual({
      externalReference: 'r',
      product: 'legal_advice',
      review: null,
      clients: ['cli_a1', 'cli_b2'],
      recipient: { firstName: 'Ada', lastName: 'L', email: 'a@b.co' },
    });
  });

  test('null clients and review with contract_viewer mean none', () => {
    expect(readContractRequest(json({ ...base, clients: null, review: null }))).toMatchObject({
      clients: [],
      review: null,
    });
  });

  test('legal_advice with clients and no recipient leaves the recipient to the first client', () => {
    expect(
      readContractRequest(json({ ...base, product: 'legal_advice', clients: ['cli_a1'] })).recipient,
    ).toBeNull();
  });

  test.each([
    ['not JSON', '{', 'request_invalid'],
    ['a string', '"x"', 'request_invalid'],
    ['null', 'null', 'request_invalid'],
    ['an unknown field', json({ ...base, extra: 1 }), 'request_invalid'],
    ['external_reference null', json({ ...base, external_reference: null }), 'external_reference_required'],
    ['external_reference a number', json({ ...base, external_reference: 5 }), 'external_reference_invalid'],
    ['external_reference empty', json({ ...base, external_reference: '' }), 'external_reference_invalid'],
    [
      'external_reference 200 characters of emoji',
      json({ ...base, external_reference: '😀'.repeat(200) }),
      'accepted',
    ],
    [
      'external_reference 201 characters of emoji',
      json({ ...base, external_reference: '😀'.repeat(201) }),
      'external_reference_invalid',
    ],
    [
      'external_reference with DEL',
      json({ ...base, external_reference: 'a\u007f' }),
      'external_reference_invalid',
    ],
    [
      'external_reference with a lone surrogate',
      `{"external_reference":"a\\ud800","product":"contract_viewer"}`,
      'external_reference_invalid',
    ],
    ['product a number', json({ ...base, product: 1 }), 'product_invalid'],
    ['review a number', json({ ...base, product: 'legal_information', review: 1 }), 'review_invalid'],
    [
      'review on_request',
      json({ ...base, product: 'legal_information', review: 'on_request' }),
      'review_not_available',
    ],
    ['clients an object', json({ ...base, clients: {} }), 'clients_invalid'],
    ['clients with an empty id', json({ ...base, clients: ['cli_'] }), 'clients_invalid'],
    ['recipient an array', json({ ...base, product: 'legal_advice', recipient: [] }), 'recipient_invalid'],
    [
      'recipient with an extra field',
      json({
        ...base,
        product: 'legal_advice',
        recipient: { first_name: 'a', last_name: 'b', email: 'a@b.co', phone: '1' },
      }),
      'recipient_invalid',
    ],
    [
      'recipient with a bad email',
      json({
        ...base,
        product: 'legal_advice',
        recipient: { first_name: 'a', last_name: 'b', email: 'a@b' },
      }),
      'recipient_invalid',
    ],
    ['recipient null with contract_viewer', json({ ...base, recipient: null }), 'accepted'],
  ])('%s: %s', (_name, text, code) => {
    expect(codeOf(() => readContractRequest(text))).toBe(code);
  });

  test('fields are checked in the order of the request table', () => {
    const everythingWrong = {
      external_reference: '',
      product: 'x',
      review: 'x',
      clients: 'x',
      recipient: 'x',
    };
    expect(codeOf(() => readContractRequest(json(everythingWrong)))).toBe('external_reference_invalid');
    expect(codeOf(() => readContractRequest(json({ ...everythingWrong, external_reference: 'r' })))).toBe(
      'product_invalid',
    );
    expect(
      codeOf(() =>
        readContractRequest(
          json({ ...everythingWrong, external_reference: 'r', product: 'legal_information' }),
        ),
      ),
    ).toBe('review_invalid');
    expect(
      codeOf(() =>
        readContractRequest(
          json({
            ...everythingWrong,
            external_reference: 'r',
            product: 'legal_information',
            review: 'lawyer',
          }),
        ),
      ),
    ).toBe('clients_invalid');
    expect(
      codeOf(() =>
        readContractRequest(
          json({
            ...everythingWrong,
            external_reference: 'r',
            product: 'legal_information',
            review: 'lawyer',
            clients: [],
          }),
        ),
      ),
    ).toBe('recipient_not_applicable');
  });
});

describe('readVersionRequest', () => {
  test('omitted or null clients keep the list; an empty list clears it', () => {
    expect(readVersionRequest(json({ based_on_version: 2 }), 3)).toEqual({
      basedOnVersion: 2,
      clients: undefined,
    });
    expect(readVersionRequest(json({ based_on_version: 3, clients: null }), 3).clients).toBeUndefined();
    expect(readVersionRequest(json({ based_on_version: 3, clients: [] }), 3).clients).toEqual([]);
  });

  test.each([
    [json({}), 'based_on_version_required'],
    [json({ based_on_version: null }), 'based_on_version_required'],
    [json({ based_on_version: 1.5 }), 'based_on_version_invalid'],
    [json({ based_on_version: 4 }), 'based_on_version_invalid'],
    [json({ based_on_version: 1, external_reference: 'x' }), 'request_invalid'],
  ])('%s: %s', (text, code) => {
    expect(codeOf(() => readVersionRequest(text, 3))).toBe(code);
  });
});

test('a client is usable as a recipient only with both names and a real email', () => {
  expect(usableAsRecipient({ firstName: 'A', lastName: 'B', email: 'a@b.co' })).toBe(true);
  expect(usableAsRecipient({ firstName: ' ', lastName: 'B', email: 'a@b.co' })).toBe(false);
  expect(usableAsRecipient({ firstName: 'A', lastName: 'B', email: 'nope' })).toBe(false);
});
