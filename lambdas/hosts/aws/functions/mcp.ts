// host -> the function of the MCP server (`/mcp` and its protected resource metadata) on one API address.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { fetchLambda } from '../fetch-lambda';
import { awsMcpServer } from '../mcp-services';

export const handler = async (event: APIGatewayProxyEventV2) => {
  const { handle, origin } = await awsMcpServer();
  return fetchLambda(handle, origin)(event);
};
