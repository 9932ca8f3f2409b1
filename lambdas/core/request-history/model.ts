// core -> the request history (decisions.md §10): one record per call to a `/v1` path made with an
// accepted API key or access token, whatever its answer; never a body; kept 30 days, then gone.
import type { Environment, Micros } from '../model';
import { HOUR } from '../time';

export interface ApiRequestRecord {
  /** The answer's `Service-Request-Id`. */
  id: string;
  /** When the request arrived. */
  time: Micros;
  method: string;
  /** The path as sent, without its query string. */
  path: string;
  status: number;
  durationMs: number;
  environment: Environment;
  integrationId: string;
}

/** Whose history: one integration's, in one environment (each environment keeps its own). */
export interface HistoryScope {
  environment: Environment;
  integrationId: string;
}

/** How long a record is kept: older ones are never listed, and the table expires them. */
export const REQUEST_HISTORY_KEPT: Micros = 30 * 24 * HOUR;

/** `since` included, `until` excluded: consecutive windows neither overlap nor leave a gap. */
export interface TimeWindow {
  since: Micros;
  until?: Micros;
}

/** The records a list keeps, by what they hold: all of them when nothing is given. */
export interface ApiRequestFilter {
  /** Statuses from `from` to `to`, both included: `4xx` is 400 to 499, `404` is 404 to 404. */
  status?: { from: number; to: number };
  /** Upper case. */
  method?: string;
  pathPrefix?: string;
}

export const inWindow = (time: Micros, window: TimeWindow): boolean =>
  time >= window.since && (window.until === undefined || time < window.until);

export const matchesFilter = (record: ApiRequestRecord, filter: ApiRequestFilter): boolean =>
  (filter.status === undefined ||
    (record.status >= filter.status.from && record.status <= filter.status.to)) &&
  (filter.method === undefined || record.method === filter.method) &&
  (filter.pathPrefix === undefined || record.path.startsWith(filter.pathPrefix));
