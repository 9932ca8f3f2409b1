// Times, list queries and contract shapes, in process.

import * as z from 'zod/mini';
import { CHANNELS_OF, newContractReview, withNewVersion } from '../../lambdas/core/contracts/shape';
import { isServiceError } from '../../lambdas/core/errors';
import { readListQuery } from '../../lambdas/core/lists';
import { formatTime } from '../../lambdas/core/time';

describe('formatTime', () => {
  test('UTC, six fractional digits, Z', () => {
    expect(formatTime(Date.UTC(2026, 10, 21, 9, 30, 0, 123) * 1000 + 456)).toBe(
      '2026-11-21T09:30:00.123456Z',
    );
    expect(formatTime(Date.UTC(2026, 0, 1) * 1000 + 7)).toBe('2026-01-01T00:00:00.000007Z');
  });
});

describe('readListQuery', () => {
  const filters = { reference: z.string().check(z.maxLength(5)) };
  const codeOf = (query: Array<[string, string]>) => {
    try {
      readListQuery(query, filters);
      return 'accepted';
    } catch (error) {
      if (isServiceError(error)) return error.code;
      throw error;
    }
  };

  test('defaults and values', () => {
    expect(readListQuery([], filters)).toEqual({ limit: 20, startingAfter: undefined, filters: {} });
    expect(
      readListQuery(
        [
          ['limit', '100'],
          ['starting_after', 'x'],
          ['reference', 'abc'],
        ],
        filters,
      ),
    ).toEqual({
      limit: 100,
      startingAfter: 'x',
      filters: { reference: 'abc' },
    });
  });

  test.each([
    [[['limit', '1']], 'accepted'],
    [[['limit', '']], 'limit_invalid'],
    [[['limit', '1e2']], 'limit_invalid'],
    [[['limit', '0100']], 'limit_invalid'],
    [[['reference', 'toolong']], 'filter_invalid'],
    [
      [
        ['reference', 'a'],
        ['reference', 'b'],
      ],
      'filter_invalid',
    ],
    [
      [
        ['unknown', 'x'],
        ['limit', '0'],
      ],
      'parameter_unknown',
    ],
  ] as Array<[Array<[string, string]>, string]>)('%j: %s', (query, code) => {
    expect(codeOf(query)).toBe(code);
  });
});

describe('contract review shapes', () => {
  const scope = { organisationId: 'org_a', integrationId: 'int_a', environment: 'sandbox' as const };
  const make = (product: 'contract_viewer' | 'legal_information' | 'legal_advice') =>
    newContractReview({
      id: 'crv_x',
      scope,
      externalReference: 'r',
      product,
      review: product === 'legal_information' ? 'lawyer' : null,
      clients: [],
      recipient: null,
      slugs: { contract_viewer: 's1', review: 's2', review_snapshot: 's3' },
      now: 1,
    });

  test('each product publishes to its channels, all pending with no url', () => {
    for (const product of ['contract_viewer', 'legal_information', 'legal_advice'] as const) {
      const review = make(product);
      expect(review.publications.map((p) => p.channel)).toEqual(CHANNELS_OF[product]);
      expect(review.publications.every((p) => p.state === 'pending' && p.url === null)).toBe(true);
      expect(review.processing.state).toBe('running');
      expect(review.analysis === null).toBe(product === 'contract_viewer');
    }
  });

  test('a new version resets the parts and publications but keeps the slugs and creation time', () => {
    const published = make('legal_information');
    published.publications = published.publications.map((p) => ({
      ...p,
      state: 'published',
      url: `https://pages/${p.slug}`,
      publishedAt: 5,
    }));
    published.lawyerReview = { state: 'completed', requestedAt: 2, completedAt: 3 };
    const next = withNewVersion(published, ['cli_a'], 9);
    expect(next.version).toBe(2);
    expect(next.publications.map((p) => [p.slug, p.state, p.url])).toEqual([
      ['s1', 'pending', null],
      ['s2', 'pending', null],
    ]);
    expect(next.lawyerReview).toEqual({ state: 'not_requested', requestedAt: null, completedAt: null });
    expect(next.createdAt).toBe(1);
    expect(next.updatedAt).toBe(9);
    expect(next.clients).toEqual(['cli_a']);
  });
});
