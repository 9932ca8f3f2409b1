// core -> the query of the two list endpoints (interface.md "Listing", decisions.md §1 and §3):
// unknown parameters, `limit` never clamped, filters checked for form, `starting_after` last. `limit`
// and each filter are checked by their zod schemas, which the OpenAPI document shows.
import type * as z from 'zod/mini';
import { fail } from './errors';
import { DEFAULT_LIMIT, Limit, MAX_LIMIT } from './interface-schemas';

/** Query parameters as received, in order; a repeated name appears twice. */
export type QueryPairs = ReadonlyArray<readonly [string, string]>;

export interface ListQuery {
  limit: number;
  startingAfter: string | undefined;
  filters: Record<string, string>;
}

/** A list's filters by query parameter, each a schema of the value (a string) it takes. */
export type ListFilters = Readonly<Record<string, z.ZodMiniType<string, string>>>;

/**
 * Reads `limit`, `starting_after` and the named filters, each checked by its own schema; `expected` says
 * what a filter takes, for the message of one that is malformed.
 */
export const readListQuery = (
  query: QueryPairs,
  filters: ListFilters,
  expected: Readonly<Record<string, string>> = {},
): ListQuery => {
  const known = ['limit', 'starting_after', ...Object.keys(filters)];
  const values = new Map<string, string>();
  for (const [name, value] of query) {
    if (!known.includes(name))
      fail(
        'parameter_unknown',
        `The query parameter \`${name}\` is not known here; use ${known.join(', ')}.`,
      );
    if (values.has(name))
      fail(
        name === 'limit'
          ? 'limit_invalid'
          : name === 'starting_after'
            ? 'starting_after_invalid'
            : 'filter_invalid',
        `Send \`${name}\` once.`,
      );
    values.set(name, value);
  }
  const limitText = values.get('limit');
  let limit = DEFAULT_LIMIT;
  if (limitText !== undefined) {
    // Up to three digits: `1e2`, `0x10` and `0100` are no way to write a page size.
    const parsed = Limit.safeParse(/^[0-9]{1,3}$/.test(limitText) ? Number(limitText) : Number.NaN);
    if (!parsed.success) fail('limit_invalid', `\`limit\` must be an integer from 1 to ${MAX_LIMIT}.`);
    limit = parsed.data;
  }
  const chosen: Record<string, string> = {};
  for (const [name, schema] of Object.entries(filters)) {
    const value = values.get(name);
    if (value === undefined) continue;
    if (!schema.safeParse(value).success) {
      const hint = expected[name];
      fail('filter_invalid', `The filter \`${name}\` is malformed${hint ? `: ${hint}` : ''}.`);
    }
    chosen[name] = value;
  }
  return { limit, startingAfter: values.get('starting_after'), filters: chosen };
};

export const startingAfterInvalid = (): never =>
  fail(
    'starting_after_invalid',
    '`starting_after` must be the id of an item of this list, as returned on the previous page.',
  );
