// adapter -> the identity provider's record of the access tokens it issued (its `AccessToken` artefacts
// in the identity table, oidc-provider-storage.ts), as the MCP server asks of it: is this token still on
// record? Revoking a grant (a person disconnecting a client) or a token deletes it there.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Clock } from '../../core/ports';
import type { IssuedTokens } from '../../mcp/access-tokens';
import { DynamoDbOidcStorage } from './oidc-provider-storage';

export const oidcIssuedTokens = (
  doc: DynamoDBDocumentClient,
  tableName: string,
  clock: Clock,
): IssuedTokens => {
  const accessTokens = new DynamoDbOidcStorage(doc, tableName, 'AccessToken', clock);
  return { isLive: async (tokenId) => (await accessTokens.find(tokenId)) !== undefined };
};
