// core -> the request history's list query (decisions.md §10), read from a query string (the portal) or
// from named arguments (the MCP tool `list_api_requests`) by the same rules as the API's lists
// (`limit`, `starting_after`, `parameter_unknown`), with filters by status, method, path prefix and time.

import * as z from 'zod/mini';
import { fail } from '../errors';
import { type ListFilters, type QueryPairs, readListQuery } from '../lists';
import type { Micros } from '../model';
import { isPrintableText } from '../text';
import { parseTime } from '../time';
import type { ApiRequestFilter } from './model';

export interface ApiRequestQuery {
  limit: number;
  startingAfter: string | undefined;
  since: Micros | undefined;
  until: Micros | undefined;
  filter: ApiRequestFilter;
}

/** The list's arguments by name, as the MCP tool `list_api_requests` takes them. */
export interface ApiRequestArguments {
  status?: string;
  method?: string;
  path_prefix?: string;
  since?: string;
  until?: string;
  limit?: number;
  starting_after?: string;
}

const STATUS = /^(?:[245][xX]{2}|[1-5][0-9]{2})$/;
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const MAX_PATH_PREFIX = 1024;

const isPathPrefix = (value: string): boolean =>
  value.startsWith('/v1') && !/[\s?#]/.test(value) && isPrintableText(value, MAX_PATH_PREFIX);

const FILTERS: ListFilters = {
  status: z.string().check(z.regex(STATUS)),
  method: z.string().check(z.refine((value) => (METHODS as readonly string[]).includes(value.toUpperCase()))),
  path_prefix: z.string().check(z.refine(isPathPrefix)),
  since: z.string().check(z.refine((value) => parseTime(value) !== undefined)),
  until: z.string().check(z.refine((value) => parseTime(value) !== undefined)),
};

const EXPECTED: Readonly<Record<string, string>> = {
  status: 'send 2xx, 4xx, 5xx or a status code such as 404',
  method: `send one of ${METHODS.join(', ')}`,
  path_prefix: `send the start of a path, beginning with /v1, without a query string, up to ${MAX_PATH_PREFIX} characters`,
  since: 'send a date-time such as 2026-11-21T09:30:00.123456Z',
  until: 'send a date-time such as 2026-11-21T09:30:00.123456Z',
};

/** `2xx` as 200 to 299; a code as itself. */
const statusRange = (value: string): { from: number; to: number } => {
  const first = Number(value[0]) * 100;
  return /[xX]/.test(value) ? { from: first, to: first + 99 } : { from: Number(value), to: Number(value) };
};

/** Reads the query string of a history list; faults as the API's lists answer them. */
export const readApiRequestQuery = (pairs: QueryPairs): ApiRequestQuery => {
  const { limit, startingAfter, filters } = readListQuery(pairs, FILTERS, EXPECTED);
  const since = filters.since === undefined ? undefined : parseTime(filters.since);
  const until = filters.until === undefined ? undefined : parseTime(filters.until);
  if (since !== undefined && until !== undefined && since >= until)
    fail('filter_invalid', '`since` must be before `until`.');
  return {
    limit,
    startingAfter,
    since,
    until,
    filter: {
      ...(filters.status !== undefined && { status: statusRange(filters.status) }),
      ...(filters.method !== undefined && { method: filters.method.toUpperCase() }),
      ...(filters.path_prefix !== undefined && { pathPrefix: filters.path_prefix }),
    },
  };
};

/**
 * Reads a history list's named arguments (the MCP tool's) by the very rules of the query string: a
 * `limit` of 1.5 is `limit_invalid` there as `?limit=1.5` is here, an unknown name `parameter_unknown`.
 */
export const apiRequestQueryOf = (args: Readonly<ApiRequestArguments>): ApiRequestQuery =>
  readApiRequestQuery(
    Object.entries(args)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, String(value)] as const),
  );
