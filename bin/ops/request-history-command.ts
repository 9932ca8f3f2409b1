// bin/ops -> `request-history`: one integration's request history in one environment, as the portal and
// the MCP tool `list_api_requests` show it ({ data, has_more }, newest first). The options are the list's own parameters, checked by the same rules.
import { parseArgs } from 'node:util';
import { ActionRefused } from '../../lambdas/core/errors';
import type { QueryPairs } from '../../lambdas/core/lists';
import type { Directory } from '../../lambdas/core/organisations';
import { listApiRequests } from '../../lambdas/core/request-history/list';
import { readApiRequestQuery } from '../../lambdas/core/request-history/query';
import { type Reach, readEnvironment, scopeOf, servicesIn } from './scope';

export const REQUEST_HISTORY_USAGE = `  request-history --environment E [--integration I] [--status S] [--method M] [--path-prefix P]
                [--since T] [--until T] [--limit N] [--starting-after rqs_…]
                                        the integration's /v1 calls, newest first: {"data","has_more"}`;

/** Each option and the list parameter it is. */
const PARAMETERS = {
  status: 'status',
  method: 'method',
  'path-prefix': 'path_prefix',
  since: 'since',
  until: 'until',
  limit: 'limit',
  'starting-after': 'starting_after',
} as const;

export const runRequestHistoryCommand = async (argv: string[], reach: Reach, directory: Directory) => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      environment: { type: 'string' },
      integration: { type: 'string' },
      ...Object.fromEntries(Object.keys(PARAMETERS).map((name) => [name, { type: 'string' as const }])),
    },
  });
  if (positionals.length > 0) throw new ActionRefused(`unexpected ${positionals.join(' ')}`);
  const environment = readEnvironment(values.environment, reach);
  const scope = await scopeOf(directory, environment, values.integration);
  const pairs: QueryPairs = Object.entries(PARAMETERS).flatMap(([option, parameter]) => {
    const value = (values as Record<string, string | undefined>)[option];
    return value === undefined ? [] : [[parameter, value] as const];
  });
  return listApiRequests(servicesIn(reach, environment).ports, scope, readApiRequestQuery(pairs));
};
