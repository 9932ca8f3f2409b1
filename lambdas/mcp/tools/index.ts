// mcp -> the 19 tools of decisions.md §10, in the order `tools/list` answers them.
import { apiKeyTools } from './api-key-tools';
import { organisationTools } from './organisation-tools';
import { requestHistoryTools } from './request-history-tools';
import type { Tool } from './tool';
import { webhookTools } from './webhook-tools';

export const MCP_TOOLS: readonly Tool[] = [
  ...organisationTools,
  ...apiKeyTools,
  ...webhookTools,
  ...requestHistoryTools,
];
