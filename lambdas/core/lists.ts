// core -> the query of the two list endpoints (interface.md "Listing", decisions.md §1 and §3):
// unknown parameters, `limit` never clamped, filters checked for form, `starting_after` last.
import { fail } from './errors';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** Query parameters as received, in order; a repeated name appears twice. */
export type QueryPairs = ReadonlyArray<readonly [string, string]>;

export interface ListQuery {
  limit: number;
  startingAfter: string | undefined;
  filters: Record<string, string>;
}

/**
 * Reads `limit`, `starting_after` and the named filters, each checked by its own rule; `expected` says
 * what a filter takes, for the message of one that is malformed.
 */
export const readListQuery = (
  query: QueryPairs,
  filters: Readonly<Record<string, (value: string) => boolean>>,
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
    limit = /^[0-9]{1,3}$/.test(limitText) ? Number(limitText) : Number.NaN;
    if (!(limit >= 1 && limit <= MAX_LIMIT))
      fail('limit_invalid', `\`limit\` must be an integer from 1 to ${MAX_LIMIT}.`);
  }
  const chosen: Record<string, string> = {};
  for (const [name, valid] of Object.entries(filters)) {
    const value = values.get(name);
    if (value === undefined) continue;
    if (!valid(value)) {
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
