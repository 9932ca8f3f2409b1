// core -> a page of one integration's request history, newest first (ties by id), as the portal and the
// MCP tool `list_api_requests` show it: `{ data, has_more }`, paged by `starting_after` like the API's lists.
import { isRequestId } from '../ids';
import { startingAfterInvalid } from '../lists';
import type { Micros } from '../model';
import type { Ports } from '../ports';
import { presentList } from '../present';
import type { ApiRequestJson, PageOf } from '../shapes';
import { formatTime } from '../time';
import {
  type ApiRequestRecord,
  type HistoryScope,
  inWindow,
  matchesFilter,
  REQUEST_HISTORY_KEPT,
  type TimeWindow,
} from './model';
import type { ApiRequestQuery } from './query';

export const presentApiRequest = (record: ApiRequestRecord): ApiRequestJson => ({
  id: record.id,
  time: formatTime(record.time),
  method: record.method,
  path: record.path,
  status: record.status,
  duration_ms: record.durationMs,
  environment: record.environment,
  integration_id: record.integrationId,
});

export type { ApiRequestJson };

/** The asked window, within what is kept: a record older than 30 days is gone, even before it expires. */
const keptWindow = (query: ApiRequestQuery, now: Micros): TimeWindow => {
  const keptSince = now - REQUEST_HISTORY_KEPT;
  return {
    since: Math.max(query.since ?? keptSince, keptSince),
    ...(query.until !== undefined && { until: query.until }),
  };
};

/** The record `starting_after` names, if it is one of this very list (scope, window and filters). */
/** What listing needs of an environment's ports. */
type HistoryPorts = Pick<Ports, 'environment' | 'clock' | 'apiRequests'>;

const startingRecord = async (
  ports: HistoryPorts,
  scope: HistoryScope,
  id: string,
  window: TimeWindow,
  query: ApiRequestQuery,
): Promise<ApiRequestRecord> => {
  if (!isRequestId(id)) return startingAfterInvalid();
  const record = await ports.apiRequests.get(id);
  const inList =
    record !== null &&
    record.integrationId === scope.integrationId &&
    record.environment === scope.environment &&
    inWindow(record.time, window) &&
    matchesFilter(record, query.filter);
  return inList ? record : startingAfterInvalid();
};

/**
 * One page of `scope`'s request history. The caller has checked that the integration is the person's (the
 * portal, the MCP tool); `ports` are those of the scope's environment, whose table holds its history.
 */
export const listApiRequests = async (
  ports: HistoryPorts,
  scope: HistoryScope,
  query: ApiRequestQuery,
): Promise<PageOf<ApiRequestJson>> => {
  if (scope.environment !== ports.environment)
    throw new Error(`the ${scope.environment} history is asked of the ${ports.environment} ports`);
  const window = keptWindow(query, ports.clock.now());
  const startingAfter =
    query.startingAfter === undefined
      ? undefined
      : await startingRecord(ports, scope, query.startingAfter, window, query);
  if (window.until !== undefined && window.until <= window.since)
    return presentList({ items: [], hasMore: false }, presentApiRequest);
  const page = await ports.apiRequests.list(scope.integrationId, {
    limit: query.limit,
    window,
    filter: query.filter,
    ...(startingAfter && { startingAfter }),
  });
  return presentList(page, presentApiRequest);
};
