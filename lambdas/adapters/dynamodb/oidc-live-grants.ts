// adapter -> the identity provider's grants (its `Grant` artefacts in the identity table,
// oidc-provider-storage.ts), as the MCP server asks of them: is the grant a token names still on record,
// the person's for that client? Revoking a client (or its refresh token) deletes the grant there.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { LiveGrants } from '../../core/live-grants';
import type { Clock } from '../../core/ports';
import { DynamoDbOidcStorage } from './oidc-provider-storage';

export const oidcLiveGrants = (doc: DynamoDBDocumentClient, tableName: string, clock: Clock): LiveGrants => {
  const grants = new DynamoDbOidcStorage(doc, tableName, 'Grant', clock);
  return {
    isLive: async ({ grantId, personId, clientId }) => {
      const grant = await grants.find(grantId);
      return grant !== undefined && grant.accountId === personId && grant.clientId === clientId;
    },
  };
};
