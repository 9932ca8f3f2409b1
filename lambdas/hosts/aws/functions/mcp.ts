// host -> the function of the MCP server (`/mcp` and its protected resource metadata) on one API address,
// at the public address clients use (the API's CloudFront front, not API Gateway's own).
import { atOrigin } from '../../http/fetch-handler';
import { lambdaHandler } from '../lambda-adapter';
import { awsMcpServer } from '../mcp-services';

export const handler = lambdaHandler(async (request) => {
  const { handle, origin } = await awsMcpServer();
  return handle(atOrigin(request, origin));
});
