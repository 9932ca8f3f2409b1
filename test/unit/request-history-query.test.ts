// The request history's list query (decisions.md §10), in process: from a query string and from the MCP
// tool's named arguments, by the same rules; and the date-times `since` and `until` take.
import { isServiceError } from '../../lambdas/core/errors';
import {
  type ApiRequestArguments,
  apiRequestQueryOf,
  readApiRequestQuery,
} from '../../lambdas/core/request-history/query';
import { formatTime, parseTime } from '../../lambdas/core/time';

type Pairs = Array<[string, string]>;

/** The code a query is refused with (and its message), or `accepted`. */
const refusal = (read: () => unknown): { code: string; message?: string } => {
  try {
    read();
    return { code: 'accepted' };
  } catch (error) {
    if (isServiceError(error)) return { code: error.code, message: error.message };
    throw error;
  }
};
const codeOf = (pairs: Pairs) => refusal(() => readApiRequestQuery(pairs)).code;
const one = (name: string, value: string) => codeOf([[name, value]]);

const micros = (iso: string, extra = 0) => Date.parse(iso) * 1000 + extra;

describe('readApiRequestQuery', () => {
  test('defaults: 20 a page, no cursor, no window, no filter', () => {
    expect(readApiRequestQuery([])).toEqual({
      limit: 20,
      startingAfter: undefined,
      since: undefined,
      until: undefined,
      filter: {},
    });
  });

  test('every parameter read, normalised for the store', () => {
    expect(
      readApiRequestQuery([
        ['limit', '100'],
        ['starting_after', 'rqs_abc'],
        ['status', '4xx'],
        ['method', 'get'],
        ['path_prefix', '/v1/contract-reviews/'],
        ['since', '2026-11-21T09:30:00.123456Z'],
        ['until', '2026-11-21T11:30:00+01:00'],
      ]),
    ).toEqual({
      limit: 100,
      startingAfter: 'rqs_abc',
      since: micros('2026-11-21T09:30:00.123Z', 456),
      until: micros('2026-11-21T10:30:00Z'),
      filter: { status: { from: 400, to: 499 }, method: 'GET', pathPrefix: '/v1/contract-reviews/' },
    });
  });

  test.each([
    ['2xx', { from: 200, to: 299 }],
    ['4XX', { from: 400, to: 499 }],
    ['5xx', { from: 500, to: 599 }],
    ['404', { from: 404, to: 404 }],
    ['100', { from: 100, to: 100 }],
    ['599', { from: 599, to: 599 }],
  ])('status %s is %p', (status, range) => {
    expect(readApiRequestQuery([['status', status]]).filter.status).toEqual(range);
  });

  test.each(['1xx', '3xx', '6xx', '600', '099', '40', '4040', '4x', 'xx', '', 'ok', ' 404'])(
    'status %p is filter_invalid',
    (status) => {
      expect(one('status', status)).toBe('filter_invalid');
    },
  );

  test('methods are the HTTP methods, in any case', () => {
    for (const method of ['GET', 'head', 'Post', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
      expect(readApiRequestQuery([['method', method]]).filter.method).toBe(method.toUpperCase());
    for (const method of ['FETCH', 'CONNECT', 'TRACE', '', 'GET ', 'G*T'])
      expect(one('method', method)).toBe('filter_invalid');
  });

  test('a path prefix starts with /v1 and has no query string, fragment or space', () => {
    for (const prefix of ['/v1', '/v1/', '/v1/contract-reviews/crv_', '/v1/clients/%41'])
      expect(readApiRequestQuery([['path_prefix', prefix]]).filter.pathPrefix).toBe(prefix);
    for (const prefix of [
      '',
      '/',
      'v1',
      '/v2',
      '/V1',
      '/v1?limit=1',
      '/v1#x',
      '/v1 x',
      '/v1\u0000',
      `/v1/${'a'.repeat(1021)}`,
    ])
      expect(one('path_prefix', prefix)).toBe('filter_invalid');
    expect(one('path_prefix', `/v1/${'a'.repeat(1020)}`)).toBe('accepted');
  });

  test('since and until are date-times, since before until', () => {
    expect(one('since', '2026-11-21T09:30:00Z')).toBe('accepted');
    expect(one('until', '2026-11-21t09:30:00.1z')).toBe('accepted');
    for (const time of [
      '2026-11-21',
      '2026-11-21T09:30Z',
      '2026-11-21 09:30:00Z',
      '2026-11-21T09:30:00',
      '2026-02-29T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-11-21T24:00:00Z',
      '2026-11-21T23:60:00Z',
      '2026-11-21T23:59:60Z',
      '2026-11-21T09:30:00.1234567Z',
      '2026-11-21T09:30:00+24:00',
      '1763717400',
      'yesterday',
    ]) {
      expect(one('since', time)).toBe('filter_invalid');
      expect(one('until', time)).toBe('filter_invalid');
    }
    const window = (since: string, until: string) =>
      codeOf([
        ['since', since],
        ['until', until],
      ]);
    expect(window('2026-11-21T09:30:00.000001Z', '2026-11-21T09:30:00.000002Z')).toBe('accepted');
    expect(window('2026-11-21T09:30:00Z', '2026-11-21T09:30:00Z')).toBe('filter_invalid');
    expect(window('2026-11-21T10:30:00+01:00', '2026-11-21T09:30:00Z')).toBe('filter_invalid');
    expect(window('2026-11-21T10:00:00Z', '2026-11-21T09:00:00Z')).toBe('filter_invalid');
  });

  test('a malformed filter says what to send', () => {
    expect(refusal(() => readApiRequestQuery([['status', '3xx']])).message).toMatch(/2xx, 4xx, 5xx/);
    expect(refusal(() => readApiRequestQuery([['since', 'yesterday']])).message).toMatch(
      /2026-11-21T09:30:00\.123456Z/,
    );
    expect(refusal(() => readApiRequestQuery([['path_prefix', '/v2']])).message).toMatch(/\/v1/);
  });

  test('the list rules of the API: limit 1 to 100, never clamped; unknown and repeated parameters', () => {
    for (const limit of ['0', '101', '1.5', '-1', 'abc', '', ' 5', '1e2'])
      expect(one('limit', limit)).toBe('limit_invalid');
    expect(one('limit', '1')).toBe('accepted');
    expect(one('integration_id', 'int_x')).toBe('parameter_unknown');
    expect(one('environment', 'sandbox')).toBe('parameter_unknown');
    expect(
      codeOf([
        ['status', '2xx'],
        ['status', '4xx'],
      ]),
    ).toBe('filter_invalid');
    expect(
      codeOf([
        ['starting_after', 'rqs_a'],
        ['starting_after', 'rqs_b'],
      ]),
    ).toBe('starting_after_invalid');
  });
});

describe("apiRequestQueryOf (the MCP tool's arguments)", () => {
  test('reads the same query as the query string', () => {
    expect(
      apiRequestQueryOf({
        status: '404',
        method: 'DELETE',
        path_prefix: '/v1/clients',
        since: '2026-11-21T09:30:00Z',
        limit: 5,
        starting_after: 'rqs_x',
      }),
    ).toEqual(
      readApiRequestQuery([
        ['status', '404'],
        ['method', 'DELETE'],
        ['path_prefix', '/v1/clients'],
        ['since', '2026-11-21T09:30:00Z'],
        ['limit', '5'],
        ['starting_after', 'rqs_x'],
      ]),
    );
    expect(apiRequestQueryOf({ limit: undefined }).limit).toBe(20);
  });

  test('refuses by the same rules', () => {
    const codeOfArguments = (args: ApiRequestArguments) => refusal(() => apiRequestQueryOf(args)).code;
    expect(codeOfArguments({ limit: 1.5 })).toBe('limit_invalid');
    expect(codeOfArguments({ limit: 0 })).toBe('limit_invalid');
    expect(codeOfArguments({ limit: 101 })).toBe('limit_invalid');
    expect(codeOfArguments({ status: '3xx' })).toBe('filter_invalid');
    expect(codeOfArguments({ integration_id: 'int_x' } as ApiRequestArguments)).toBe('parameter_unknown');
  });
});

describe('parseTime', () => {
  test("reads the API's own times back exactly", () => {
    for (const time of [1_763_717_400_123_456, 1_763_717_400_000_000, 1, 4_102_444_799_999_999])
      expect(parseTime(formatTime(time))).toBe(time);
  });

  test('other offsets and shorter fractions', () => {
    expect(parseTime('2026-11-21T20:30:00.5+11:00')).toBe(micros('2026-11-21T09:30:00.500Z'));
    expect(parseTime('2026-11-21T04:00:00-05:30')).toBe(micros('2026-11-21T09:30:00Z'));
    expect(parseTime('2024-02-29T00:00:00Z')).toBe(micros('2024-02-29T00:00:00Z'));
  });

  test('years before 100 are not read as 19xx', () => {
    expect(parseTime('0050-01-01T00:00:00Z')).toBe(Date.parse('0050-01-01T00:00:00Z') * 1000);
  });
});
