// mcp -> the tool of an integration's request history in one environment: the same core function as the
// portal's request history page. It lists `/v1` calls only; calls to the MCP server are not recorded.
import * as z from 'zod/mini';
import { listApiRequests } from '../../core/request-history/list';
import { apiRequestQueryOf } from '../../core/request-history/query';
import { ApiRequestShape, pageOf } from '../../core/shapes';
import { callerIntegration } from './api-key-tools';
import {
  described,
  environmentArgument,
  integrationIdArgument,
  limitArgument,
  startingAfterArgument,
} from './shapes';
import { type Tool, tool } from './tool';

const timeArgument = (which: string) =>
  z.optional(described(z.string(), `${which}, a UTC date-time such as 2026-11-21T09:30:00.123456Z.`));

export const requestHistoryTools: Tool[] = [
  tool({
    name: 'list_api_requests',
    title: 'List API requests',
    description:
      "Lists an integration's calls to the /v1 API in one environment made with an accepted key or token, newest first, a page at a time ({data, has_more}; pass the last id as starting_after for the next page), kept 30 days: time, method, path (no query string), status and duration, never bodies. Filters: status (`2xx`, `4xx`, `5xx` or a code such as `404`), method, path_prefix (starting /v1), since and until. Changes nothing.",
    input: z.strictObject({
      environment: environmentArgument,
      integration_id: integrationIdArgument,
      status: z.optional(described(z.string(), '`2xx`, `4xx`, `5xx`, or a status code such as `404`.')),
      method: z.optional(described(z.string(), 'An HTTP method, such as POST.')),
      path_prefix: z.optional(described(z.string(), 'The start of a path, beginning with /v1.')),
      since: timeArgument('Calls at or after this time'),
      until: timeArgument('Calls before this time'),
      limit: limitArgument,
      starting_after: startingAfterArgument,
    }),
    output: pageOf(ApiRequestShape),
    annotations: { readOnlyHint: true, openWorldHint: false },
    call: async (context, { environment, integration_id, ...filters }) => {
      const scope = await callerIntegration(context, environment, integration_id);
      // By the list's own rules: a bad filter is refused as the portal refuses it.
      return listApiRequests(
        context.workspace.environments[environment].ports,
        scope,
        apiRequestQueryOf(filters),
      );
    },
  }),
];
